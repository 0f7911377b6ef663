import Foundation
import Interlude

/// Why an ``HLSStreamDisplay`` stopped: what failed, where, and the
/// ``VideoDisplayError`` (with its VAST code) it reported to its delegate.
public struct HLSStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. A struct of static values, so new kinds never
    /// break a `switch` in the app.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, as printed.
        public let name: String

        init(_ name: String) { self.name = name }

        /// The URL is not http(s), names a non-HLS media file, or answered
        /// something that does not start with `#EXTM3U`.
        public static let notHLS = Code("notHLS")
        /// The server answered an HTTP error status.
        public static let httpStatus = Code("httpStatus")
        /// No answer within the configured timeout.
        public static let timedOut = Code("timedOut")
        /// The host could not be reached, the connection broke, or the body was too large.
        public static let unreachable = Code("unreachable")
        /// A playlist that starts like HLS but does not parse (RFC 8216bis section 4).
        public static let undecodablePlaylist = Code("undecodablePlaylist")
        /// A multivariant playlist with no variant to play, or a given variant it does not have.
        public static let noVariant = Code("noVariant")
        /// A live playlist that brought no new segment for too long.
        public static let stalePlaylist = Code("stalePlaylist")
        /// A live playlist whose MEDIA-SEQUENCE went backwards, so its
        /// segments cannot be placed on the timeline (RFC 8216bis 6.2.2).
        public static let inconsistentPlaylist = Code("inconsistentPlaylist")

        /// The name.
        public var description: String { name }
    }

    /// What failed.
    public var code: Code
    /// A sentence for people: what failed, at which URL, and why.
    public var message: String
    /// The URL that failed.
    public var url: URL?
    /// The HTTP status for ``Code/httpStatus``.
    public var httpStatus: Int?
    /// True when the loaded URL itself (not a variant playlist or a
    /// segment) was missing: reported as ``VideoDisplayError/mediaNotFound``.
    public var isMissingMedia: Bool

    /// Creates an error.
    public init(_ code: Code, _ message: String, url: URL? = nil, httpStatus: Int? = nil, isMissingMedia: Bool = false)
    {
        self.code = code
        self.message = message
        self.url = url
        self.httpStatus = httpStatus
        self.isMissingMedia = isMissingMedia
    }

    /// What the delegate receives: `mediaNotFound` (VAST 401) when the
    /// loaded URL answered 404 or 410, `cannotDisplay` (VAST 405) with
    /// ``message`` otherwise.
    public var displayError: VideoDisplayError {
        isMissingMedia ? .mediaNotFound : .cannotDisplay(message)
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The error for a failed HTTP exchange of `what` (a playlist or a segment) at `url`.
    static func transport(_ error: HTTPClientError, what: String, url: URL, timeout: TimeInterval) -> HLSStreamError {
        switch error {
        case .timedOut:
            return HLSStreamError(
                .timedOut, "\(what) \(url.absoluteString) did not answer within \(HLSSeconds.text(timeout)) s",
                url: url)
        case .unreachable(let reason):
            return HLSStreamError(
                .unreachable, "\(what) \(url.absoluteString) could not be fetched: \(reason)", url: url)
        case .responseTooLarge(let limit):
            return HLSStreamError(
                .unreachable, "\(what) \(url.absoluteString) is larger than the client's limit of \(limit) bytes",
                url: url)
        case .unsupportedScheme(let scheme):
            return HLSStreamError(
                .notHLS, "\(what) \(url.absoluteString) uses \(scheme), not http or https", url: url)
        case .tooManyRedirects:
            return HLSStreamError(.unreachable, "\(what) \(url.absoluteString) redirected too many times", url: url)
        case .cancelled:
            return HLSStreamError(.unreachable, "\(what) \(url.absoluteString): the request was cancelled", url: url)
        }
    }

    /// The error for an HTTP error status answering `what` at `url`.
    static func status(_ status: Int, what: String, url: URL, isLoadedURL: Bool) -> HLSStreamError {
        HLSStreamError(
            .httpStatus, "\(what) \(url.absoluteString) answered HTTP \(status)", url: url, httpStatus: status,
            isMissingMedia: isLoadedURL && (status == 404 || status == 410))
    }

    /// True for a failure worth trying again: timeouts, broken connections,
    /// 5xx, 408 and 429 (as hls.js retries); other 4xx answers are final.
    var isTransient: Bool {
        switch code {
        case .timedOut, .unreachable: return true
        case .httpStatus:
            guard let httpStatus else { return false }
            return httpStatus >= 500 || httpStatus == 408 || httpStatus == 429
        default: return false
        }
    }
}

/// Seconds written for people: at most three decimals, no trailing zeros.
enum HLSSeconds {
    static func text(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite else { return "\(seconds)" }
        var text = String(format: "%.3f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
