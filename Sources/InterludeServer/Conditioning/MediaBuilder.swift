import Foundation

/// What a build did.
public struct MediaBuildReport: Sendable, Hashable {
    /// ffmpeg runs made (creative MP4s and renditions).
    public var made: Int
    /// Files and renditions already there and reused.
    public var reused: Int
    /// Wall-clock seconds.
    public var seconds: Double
}

/// Makes what a ``MediaPlan`` needs and is missing: the creatives' MP4s,
/// then every title, live source and slate rendition, then every conditioned
/// ad (which is transcoded from its creative's MP4) — each phase on a pool
/// of ffmpeg processes as wide as the machine has cores. Each rendition is
/// written into a hidden `.part` directory, probed, checked (codec, profile,
/// level, audio format, segment durations), given its `segments.json` and
/// renamed into place, so an interrupted build never leaves a half rendition
/// under a real name and two processes building at once both end with one copy.
public struct MediaBuilder: Sendable {
    /// The data directory.
    public var dataDirectory: URL
    /// The `ffmpeg` executable.
    public var ffmpegPath: String
    /// ffmpeg processes at once; default the active processor count.
    public var concurrency: Int
    /// Runs ffmpeg under `nice -n` this much (0: as is). Tests that build
    /// media beside timing-sensitive tests lower it so they do not starve them.
    public var niceness: Int

    public init(
        dataDirectory: URL, ffmpegPath: String, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        niceness: Int = 0
    ) {
        self.dataDirectory = dataDirectory
        self.ffmpegPath = ffmpegPath
        self.concurrency = concurrency
        self.niceness = niceness
    }

    /// A builder using the `ffmpeg` on `PATH`.
    public static func system(dataDirectory: URL) throws(MediaError) -> MediaBuilder {
        guard let ffmpeg = MediaGenerator.findExecutable("ffmpeg") else {
            throw MediaError("ffmpeg not found on PATH; install it (apt-get install ffmpeg, or brew install ffmpeg)")
        }
        return MediaBuilder(dataDirectory: dataDirectory, ffmpegPath: ffmpeg)
    }

    /// The MP4s and renditions of `plan` not yet on disk.
    public func missing(_ plan: MediaPlan) -> (specs: [MediaSpec], renditions: [MediaPlan.Entry]) {
        let media = dataDirectory.appendingPathComponent("media")
        let specs = MediaGenerator(mediaDirectory: media, ffmpegPath: ffmpegPath, fontFile: plan.fontFile).missing(
            plan.mediaSpecs)
        let renditions = plan.renditions.filter { RenditionManifest.read($0, dataDirectory: dataDirectory) == nil }
        return (specs, renditions)
    }

    /// Makes everything missing, reporting each job as it starts and ends.
    @discardableResult
    public func build(_ plan: MediaPlan, progress: @escaping @Sendable (MediaProgress) -> Void = { _ in })
        throws(MediaError) -> MediaBuildReport
    {
        let began = Date()
        for folder in ["media", "content", "conditioned"] {
            do {
                try FileManager.default.createDirectory(
                    at: dataDirectory.appendingPathComponent(folder), withIntermediateDirectories: true)
            } catch {
                throw MediaError("cannot create \(dataDirectory.path)/\(folder): \(error.localizedDescription)")
            }
        }
        let phases = jobPhases(plan)
        let pool = FFmpegPool(ffmpegPath: ffmpegPath, width: concurrency, niceness: niceness)
        let total = phases.reduce(0) { $0 + $1.count }
        var finished = 0
        for jobs in phases {
            try pool.run(jobs, finishedBefore: finished, total: total, began: began, progress: progress)
            finished += jobs.count
        }
        return MediaBuildReport(
            made: total, reused: plan.mediaSpecs.count + plan.renditions.count - total,
            seconds: Date().timeIntervalSince(began))
    }

    /// One ffmpeg run of a build, for a benchmark that runs the same
    /// commands without the builder (`interlude-bench conditioning`).
    public struct Command: Sendable {
        /// ffmpeg's arguments.
        public var arguments: [String]
        /// Writes what the command reads (its text file) and makes its output directory.
        public var prepare: @Sendable () throws(MediaError) -> Void
        /// For a creative MP4 (a later command's source): moves it to its
        /// name. Nil for renditions, whose finishing is the builder's own work.
        public var moveIntoPlace: (@Sendable () throws(MediaError) -> Void)?
    }

    /// The ffmpeg runs a build of `plan` would make now, in phases (the
    /// second transcodes what the first made).
    public func commandPhases(_ plan: MediaPlan) -> [[Command]] {
        jobPhases(plan).map {
            $0.map {
                Command(
                    arguments: $0.arguments, prepare: $0.prepare, moveIntoPlace: $0.kind == .creative ? $0.finish : nil)
            }
        }
    }

    /// Creative MP4s, titles, live sources and slate; then conditioned ads
    /// (transcoded from the MP4s). Long renditions first, so a pool's last
    /// jobs are short ones.
    private func jobPhases(_ plan: MediaPlan) -> [[FFmpegJob]] {
        let (specs, renditions) = missing(plan)
        let isAd: (MediaPlan.Entry) -> Bool = { if case .ad = $0.item { true } else { false } }
        let first = renditions.filter { !isAd($0) }.sorted { Self.cost($0) > Self.cost($1) }
        return [
            specs.map { creativeJob($0, fontFile: plan.fontFile) } + first.map { renditionJob($0, plan: plan) },
            renditions.filter(isAd).map { renditionJob($0, plan: plan) },
        ].filter { !$0.isEmpty }
    }

    private static func cost(_ entry: MediaPlan.Entry) -> Double {
        let pixels = Double(entry.profile.width * entry.profile.height)
        switch entry.recipe {
        case .pattern(_, let duration, _), .transcode(_, let duration, _): return pixels * duration
        case .slate: return pixels * Double(MediaPlan.slateRunSeconds) / 4
        }
    }

    private func creativeJob(_ spec: MediaSpec, fontFile: String?) -> FFmpegJob {
        let media = dataDirectory.appendingPathComponent("media")
        let final = media.appendingPathComponent(spec.fileName)
        let partial = media.appendingPathComponent(".\(spec.fileName).\(UUID().uuidString).part")
        let titleFile = media.appendingPathComponent(".\(spec.contentHash).\(UUID().uuidString).title.txt")
        let arguments = MediaGenerator.arguments(
            for: spec, output: partial.path, fontFile: fontFile, titleFile: fontFile == nil ? nil : titleFile.path)
        return FFmpegJob(
            kind: .creative, item: spec.creativeID, profile: "\(spec.height)p", arguments: arguments,
            prepare: {
                // A text file spares escaping the title for ffmpeg's filter syntax.
                if fontFile != nil { try? Data(spec.title.utf8).write(to: titleFile) }
            },
            finish: { () throws(MediaError) in
                try? FileManager.default.removeItem(at: titleFile)
                try Self.moveIntoPlace(partial, final)
            },
            cleanUp: {
                try? FileManager.default.removeItem(at: partial)
                try? FileManager.default.removeItem(at: titleFile)
            })
    }

    private func renditionJob(_ entry: MediaPlan.Entry, plan: MediaPlan) -> FFmpegJob {
        let final = dataDirectory.appendingPathComponent(entry.directory)
        let parent = final.deletingLastPathComponent()
        let work = parent.appendingPathComponent(".\(final.lastPathComponent).\(UUID().uuidString).part")
        let textFile = work.appendingPathComponent("overlay.txt")
        let text: String? =
            switch entry.recipe {
            case .pattern(let title, _, _): FFmpegRecipes.overlayText(title: title, profile: entry.profile)
            case .slate: FFmpegRecipes.overlayText(title: "Interlude · back in a moment", profile: entry.profile)
            case .transcode: nil
            }
        let writesText = plan.fontFile != nil && text != nil
        let arguments = FFmpegRecipes.arguments(
            for: entry, segmentDuration: plan.segmentDuration, dataDirectory: dataDirectory, output: work.path,
            fontFile: text == nil ? nil : plan.fontFile, textFile: textFile.path)
        let kind: MediaProgress.Kind
        let item: String
        switch entry.item {
        case .title(let id): (kind, item) = (.title, id)
        case .liveSource(let key): (kind, item) = (.live, key)
        case .ad(let id): (kind, item) = (.ad, id)
        case .slate: (kind, item) = (.slate, "slate")
        }
        let dataDirectory = self.dataDirectory
        return FFmpegJob(
            kind: kind, item: item, profile: entry.profile.id, arguments: arguments,
            prepare: { () throws(MediaError) in
                do {
                    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                    if writesText, let text { try Data(text.utf8).write(to: textFile) }
                } catch {
                    throw MediaError("cannot prepare \(work.path): \(error.localizedDescription)")
                }
            },
            finish: { () throws(MediaError) in
                try? FileManager.default.removeItem(at: textFile)
                try? FileManager.default.removeItem(at: work.appendingPathComponent("index.m3u8"))
                let manifest = try RenditionCheck.manifest(
                    for: entry, in: work, segmentDuration: plan.segmentDuration, dataDirectory: dataDirectory)
                try manifest.write(to: work)
                try Self.moveIntoPlace(work, final)
            },
            cleanUp: { try? FileManager.default.removeItem(at: work) })
    }

    /// Renames `partial` to `final`; when another process got there first,
    /// its copy stays and ours is dropped.
    static func moveIntoPlace(_ partial: URL, _ final: URL) throws(MediaError) {
        do {
            try FileManager.default.moveItem(at: partial, to: final)
        } catch {
            if FileManager.default.fileExists(atPath: final.path) {
                try? FileManager.default.removeItem(at: partial)
                return
            }
            throw MediaError("cannot move \(final.lastPathComponent) into place: \(error.localizedDescription)")
        }
    }
}
