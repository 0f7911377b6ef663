import Foundation

/// Why media could not be made.
public struct MediaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Makes the catalog's media with `ffmpeg`: a `testsrc2` pattern with the
/// ad's title drawn on it and a sine tone, H.264/AAC in MP4. Files are
/// named by ``MediaSpec/contentHash``, so a file that exists is reused.
public struct MediaGenerator: Sendable {
    /// `<data-dir>/media`.
    public var mediaDirectory: URL
    /// The `ffmpeg` executable.
    public var ffmpegPath: String
    /// A TrueType font for the title; nil draws no text.
    public var fontFile: String?

    public init(mediaDirectory: URL, ffmpegPath: String, fontFile: String?) {
        self.mediaDirectory = mediaDirectory
        self.ffmpegPath = ffmpegPath
        self.fontFile = fontFile
    }

    /// A generator using the `ffmpeg` on `PATH` and the system sans font.
    public static func system(mediaDirectory: URL) throws(MediaError) -> MediaGenerator {
        guard let ffmpeg = findExecutable("ffmpeg") else {
            throw MediaError("ffmpeg not found on PATH; install it (apt-get install ffmpeg, or brew install ffmpeg)")
        }
        return MediaGenerator(mediaDirectory: mediaDirectory, ffmpegPath: ffmpeg, fontFile: findFont())
    }

    /// Every generated file the catalog needs (renditions with their own `file` excluded).
    public static func specs(for catalog: Catalog) -> [MediaSpec] {
        catalog.creatives.flatMap { creative in
            creative.renditions.filter { $0.file == nil }.map { MediaSpec(creative: creative, rendition: $0) }
        }
    }

    /// Specs whose file is not there yet.
    public func missing(_ specs: [MediaSpec]) -> [MediaSpec] {
        specs.filter {
            !FileManager.default.fileExists(atPath: mediaDirectory.appendingPathComponent($0.fileName).path)
        }
    }

    /// Makes every missing file, reporting `index/total` progress before each.
    /// Returns how many files were made.
    @discardableResult
    public func generate(
        _ specs: [MediaSpec],
        progress: @Sendable (_ index: Int, _ total: Int, _ spec: MediaSpec) -> Void = { _, _, _ in }
    ) throws(MediaError) -> Int {
        do {
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        } catch {
            throw MediaError("cannot create \(mediaDirectory.path): \(error.localizedDescription)")
        }
        let todo = missing(specs)
        // One ffmpeg per core: each short encode spends much of its time in
        // single-threaded start-up and source filters, so running them side by
        // side finishes the set sooner than one at a time.
        let failures = Locked<[MediaError]>([])
        let started = Locked(0)
        let workers = max(1, min(todo.count, ProcessInfo.processInfo.activeProcessorCount))
        let generator = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: todo.count, by: workers) {
                guard failures.withLock({ $0.isEmpty }) else { return }
                let number = started.withLock { count -> Int in
                    count += 1
                    return count
                }
                progress(number, todo.count, todo[index])
                do throws(MediaError) {
                    try generator.make(todo[index])
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        return todo.count
    }

    private func make(_ spec: MediaSpec) throws(MediaError) {
        let final = mediaDirectory.appendingPathComponent(spec.fileName)
        let partial = mediaDirectory.appendingPathComponent(".\(spec.fileName).part")
        let titleFile = mediaDirectory.appendingPathComponent(".\(spec.contentHash).title.txt")
        defer {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: titleFile)
        }
        if fontFile != nil {
            // A text file spares escaping the title for ffmpeg's filter syntax.
            try? Data(spec.title.utf8).write(to: titleFile)
        }
        let arguments = Self.arguments(
            for: spec, output: partial.path, fontFile: fontFile, titleFile: fontFile == nil ? nil : titleFile.path)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(ffmpegPath, arguments, keepOutput: false)
        } catch {
            throw MediaError(error.message)
        }
        guard outcome.status == 0 else {
            let text = String(decoding: outcome.errors, as: UTF8.self).suffix(400)
            throw MediaError("ffmpeg failed for \(spec.fileName) (status \(outcome.status)): \(text)")
        }
        do {
            try FileManager.default.moveItem(at: partial, to: final)
        } catch {
            throw MediaError("cannot move \(spec.fileName) into place: \(error.localizedDescription)")
        }
    }

    /// The ffmpeg command line for `spec` (pure; tested without ffmpeg).
    public static func arguments(for spec: MediaSpec, output: String, fontFile: String?, titleFile: String?) -> [String]
    {
        let duration = String(spec.durationSeconds)
        var filter = "format=yuv420p"
        if let fontFile, let titleFile {
            let size = max(12, spec.height / 9)
            filter =
                "drawtext=fontfile='\(filterEscape(fontFile))':textfile='\(filterEscape(titleFile))':"
                + "fontsize=\(size):fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=\(size / 4):"
                + "x=(w-text_w)/2:y=(h-text_h)/2," + filter
        }
        return [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=\(spec.width)x\(spec.height):rate=30:duration=\(duration)",
            "-f", "lavfi", "-i", "sine=frequency=\(spec.toneFrequency):sample_rate=48000:duration=\(duration)",
            "-vf", filter,
            "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main", "-pix_fmt", "yuv420p",
            "-b:v", "\(spec.videoBitrate)k", "-maxrate", "\(spec.videoBitrate * 3 / 2)k",
            "-bufsize", "\(spec.videoBitrate * 2)k", "-g", "60",
            "-c:a", "aac", "-b:a", "128k", "-ac", "2",
            "-movflags", "+faststart", "-shortest", "-f", "mp4", output,
        ]
    }

    /// Escapes `'`, `\` and `:` for a quoted ffmpeg filter option value.
    static func filterEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "'\\''")
            .replacingOccurrences(of: ":", with: "\\:")
    }

    /// The first executable called `name` on `PATH`.
    public static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A sans-serif TrueType font: `fc-match`'s answer, else a known path.
    public static func findFont() -> String? {
        if let fcMatch = findExecutable("fc-match") {
            if let outcome = try? ChildProcess.run(fcMatch, ["-f", "%{file}", "sans-serif"]) {
                let path = String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)
                if outcome.status == 0, !path.isEmpty, FileManager.default.fileExists(atPath: path) {
                    return path
                }
            }
        }
        let known = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/System/Library/Fonts/Supplemental/Arial.ttf",
            "/Library/Fonts/Arial.ttf",
        ]
        return known.first { FileManager.default.fileExists(atPath: $0) }
    }
}
