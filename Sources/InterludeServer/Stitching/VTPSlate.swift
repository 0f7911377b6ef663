import Foundation
import InterludeHLS

/// Slate the live timeline plays when a break outlasts its pod, served at
/// `/vtp/slate/{profile}/{milliseconds}/{n}.ts`: segment `n` of the
/// library's slate of that length (``MediaLibrary/slate(profile:duration:)``),
/// so the URI alone names the bytes and any process serves it.
enum VTPSlate {
    /// The longest slate asked for at once (one hour).
    static let maxMilliseconds = 3_600_000

    /// The slate segments of `milliseconds` in `profile`, a DISCONTINUITY
    /// before each one whose timestamps do not follow the one before (a loop
    /// of the slate, the tail).
    static func segments(library: MediaLibrary, profile: String, milliseconds: Int) -> [AdSegment] {
        let frameTicks = library.profile(profile)?.frameTicks ?? 3000
        let files = library.slate(profile: profile, duration: Double(milliseconds) / 1000)
        return files.enumerated().map { index, file in
            AdSegment(
                uri: "/vtp/slate/\(profile)/\(milliseconds)/\(index).ts", duration: file.duration,
                isDiscontinuity: index > 0 && !file.continues(after: files[index - 1], frameTicks: frameTicks))
        }
    }

    /// The file behind a slate URI's parts; 404 for anything it does not name.
    static func file(library: MediaLibrary, profile: String, milliseconds: String, name: String) throws(HTTPError)
        -> SegmentFile
    {
        guard library.profile(profile) != nil else { throw .notFound("no profile '\(profile.prefix(64))'") }
        guard milliseconds.utf8.count <= 7, milliseconds.utf8.allSatisfy({ (48...57).contains($0) }),
            let length = Int(milliseconds), (1...maxMilliseconds).contains(length)
        else { throw .notFound("slate length must be 1–\(maxMilliseconds) ms, got '\(milliseconds.prefix(16))'") }
        guard name.hasSuffix(".ts"), let index = Int(name.dropLast(3)), index >= 0, name.utf8.count <= 8 else {
            throw .notFound("no slate segment '\(name.prefix(16))'")
        }
        let files = library.slate(profile: profile, duration: Double(length) / 1000)
        guard files.indices.contains(index) else {
            throw .notFound("the \(length) ms slate has segments 0–\(files.count - 1)")
        }
        return files[index]
    }
}
