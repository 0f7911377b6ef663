import Foundation

/// `segments.json` in a rendition's directory: written last, so a directory
/// with one is complete. What ``MediaLibrary`` reads on every start instead
/// of probing the segments again.
struct RenditionManifest: Sendable, Hashable, Codable {
    static let fileName = "segments.json"

    /// The plan's content hash the files were made for.
    var contentHash: String
    /// `CODECS` as read from the first segment's SPS and ADTS headers.
    var codecs: String
    /// The segments in order, paths relative to the data directory.
    var segments: [SegmentFile]

    /// Reads the manifest of `entry`, nil when absent, unreadable or for another hash.
    static func read(_ entry: MediaPlan.Entry, dataDirectory: URL) -> RenditionManifest? {
        let url = dataDirectory.appendingPathComponent(entry.directory).appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url),
            let manifest = try? JSONDecoder().decode(RenditionManifest.self, from: data),
            manifest.contentHash == entry.contentHash
        else { return nil }
        return manifest
    }

    func write(to directory: URL) throws(MediaError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(self).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
        } catch {
            throw MediaError("cannot write \(Self.fileName) in \(directory.path): \(error.localizedDescription)")
        }
    }
}

extension MediaPlan.Entry {
    /// Segments as the recipe intends them, for a library whose media has not
    /// been made (`--no-media`): nominal durations, PTS and sizes; the files
    /// do not exist.
    func nominalSegments(segmentDuration: Double) -> [SegmentFile] {
        let profile = self.profile
        let start: UInt64 = 126_000  // ffmpeg's MPEG-TS muxer starts at 1.4 s
        func file(_ index: Int, _ duration: Double, _ pts: UInt64) -> SegmentFile {
            SegmentFile(
                path: "\(directory)/\(SegmentNaming.name(index))", duration: duration,
                byteCount: Int(Double(profile.averageBandwidth) * duration / 8), firstPTS: pts)
        }
        let total: Double
        switch recipe {
        case .slate:
            let fps = profile.frameRate
            var files = (0..<MediaPlan.slateRunSeconds).map {
                file($0, 1, start + UInt64($0) * 90_000)
            }
            var frame = MediaPlan.slateRunSeconds * fps
            for length in 1..<max(2, fps) where length < fps {
                files.append(
                    file(files.count, Double(length) / Double(fps), start + UInt64(frame) * profile.frameTicks))
                frame += length
            }
            return files
        case .pattern(_, let duration, _): total = duration
        case .transcode(_, let duration, _): total = duration
        }
        let frames = Int((total * Double(profile.frameRate)).rounded(.up))
        let perSegment = Int(segmentDuration * Double(profile.frameRate))
        return stride(from: 0, to: frames, by: perSegment).enumerated().map { index, first in
            let count = min(perSegment, frames - first)
            return file(index, Double(count) / Double(profile.frameRate), start + UInt64(first) * profile.frameTicks)
        }
    }
}

/// Segment file names: `00000.ts`, `00001.ts`, … (ffmpeg's `%05d.ts`).
enum SegmentNaming {
    static func name(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".ts"
    }

    /// The index of a segment name, nil for anything else.
    static func index(_ name: String) -> Int? {
        guard name.hasSuffix(".ts"), name.utf8.count <= 12 else { return nil }
        let digits = name.dropLast(3)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }
}
