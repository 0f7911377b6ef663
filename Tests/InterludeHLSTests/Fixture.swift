import Foundation

@testable import InterludeHLS

/// Reads test playlists relative to this file, so the tests run from any
/// working directory and need no resource bundle.
enum Fixture {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let corpusDirectory = packageRoot.appendingPathComponent("../shared/corpus/hls-videojs").standardizedFileURL

    static func text(_ path: String) -> String {
        (try? String(contentsOf: testsDirectory.appendingPathComponent("Fixtures/\(path)"), encoding: .utf8)) ?? ""
    }

    static func media(_ path: String) throws(HLSError) -> MediaPlaylist {
        try MediaPlaylist(parsing: text(path))
    }

    static var allPaths: [String] {
        let root = testsDirectory.appendingPathComponent("Fixtures")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".m3u8") { paths.append(path) }
        }
        return paths.sorted()
    }

    static var corpusFiles: [URL] {
        let files =
            (try? FileManager.default.contentsOfDirectory(at: corpusDirectory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "m3u8" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func date(_ text: String) -> Date {
        HLSDateFormat.parse(text)!
    }
}
