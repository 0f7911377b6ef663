import Foundation

/// Serving files from one directory: safe path resolution, MIME types and
/// single byte ranges (RFC 9110 §14).
public struct StaticFiles: Sendable {
    /// The directory, resolved (symlinks followed) once at start.
    public let root: String

    public init(root: URL) {
        self.root = root.resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// The absolute path for URL path segments (already percent-decoded one
    /// by one), refusing anything that could leave the root: `..` (and any
    /// dot file), separators or NUL inside a segment, leftover `%` (double
    /// encoding), and symlinks that resolve outside.
    public func resolve(_ segments: [String]) throws(HTTPError) -> String {
        guard !segments.isEmpty else { throw .notFound("no file named") }
        for segment in segments {
            // A leading dot also hides the generator's `.name.part` files.
            if segment.hasPrefix(".") || segment.contains("/") || segment.contains("\\")
                || segment.contains("\0") || segment.contains("%") || segment.hasPrefix("~")
            {
                throw .badRequest("path segment '\(segment)' is not allowed")
            }
        }
        let candidate = root + "/" + segments.joined(separator: "/")
        let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(root + "/") else {
            throw HTTPError(status: 403, message: "path leaves the media directory")
        }
        guard Self.regularFileSize(atPath: resolved) != nil else {
            throw .notFound("no media file \(segments.joined(separator: "/"))")
        }
        return resolved
    }

    /// A 200 or 206 answer for the file (or 416 for a range past its end).
    public func response(path: String, rangeHeader: String?) throws(HTTPError) -> HTTPResponse {
        guard let size = Self.regularFileSize(atPath: path) else { throw .notFound("no media file") }
        var headers = HTTPHeaders([
            ("Content-Type", Self.mimeType(for: path)), ("Accept-Ranges", "bytes"),
            ("Cache-Control", "public, max-age=3600"),
        ])
        switch ByteRange.evaluate(rangeHeader, size: size) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(path: path, offset: 0, length: size))
        case .partial(let first, let last):
            headers.add("Content-Range", "bytes \(first)-\(last)/\(size)")
            return HTTPResponse(
                status: 206, headers: headers, body: .file(path: path, offset: first, length: last - first + 1))
        case .unsatisfiable:
            return HTTPError(
                status: 416, message: "range \(rangeHeader ?? "") is outside the \(size)-byte file",
                headers: HTTPHeaders([("Content-Range", "bytes */\(size)")])
            ).response
        }
    }

    /// MIME type by extension.
    public static func mimeType(for path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return mimeTypes[ext] ?? "application/octet-stream"
    }

    private static let mimeTypes = [
        "mp4": "video/mp4", "m4v": "video/mp4", "m4a": "audio/mp4", "webm": "video/webm", "mov": "video/quicktime",
        "ts": "video/mp2t", "m3u8": "application/vnd.apple.mpegurl", "mp3": "audio/mpeg", "aac": "audio/aac",
        "vtt": "text/vtt", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "json": "application/json", "xml": "application/xml", "txt": "text/plain; charset=utf-8",
    ]

    /// The size of a regular file, by one `stat`: `FileManager`'s attributes
    /// on Linux also look up owner and group names, per media request.
    static func regularFileSize(atPath path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }
}

/// The outcome of a `Range` header against a file size.
public enum ByteRange: Sendable, Hashable {
    /// No usable range: send everything (also for multi-range and bad syntax,
    /// which RFC 9110 lets a server ignore).
    case whole
    /// Bytes `first...last`, inclusive.
    case partial(first: UInt64, last: UInt64)
    /// The range starts past the end: 416.
    case unsatisfiable

    /// Evaluates `bytes=a-b`, `bytes=a-` and `bytes=-n`.
    public static func evaluate(_ header: String?, size: UInt64) -> ByteRange {
        guard let header, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let startText = spec[..<dash]
        let endText = spec[spec.index(after: dash)...]
        if startText.isEmpty {
            guard let suffix = UInt64(endText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .partial(first: size - min(suffix, size), last: size - 1)
        }
        guard let first = UInt64(startText) else { return .whole }
        guard first < size else { return .unsatisfiable }
        if endText.isEmpty { return .partial(first: first, last: size - 1) }
        guard let last = UInt64(endText), last >= first else { return .whole }
        return .partial(first: first, last: min(last, size - 1))
    }
}
