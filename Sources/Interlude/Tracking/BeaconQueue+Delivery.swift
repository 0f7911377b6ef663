import Foundation

extension BeaconQueue {
    /// Delivery rules.
    public struct Policy: Sendable, Hashable {
        /// First retry delay in seconds. Default 1.
        public var initialRetryDelay: TimeInterval = 1
        /// Longest retry delay in seconds (also the most of a server's
        /// `Retry-After` that is honoured). Default 60.
        public var maxRetryDelay: TimeInterval = 60
        /// Beacons older than this are dropped, with a log line. Default 24 h.
        public var maxAge: TimeInterval = 24 * 3600
        /// Attempts per beacon, the first included, before it is dropped with
        /// a log line, so that one dead URL holds back its lane for minutes,
        /// not for ``maxAge``. Default 10: with the default delays, about 3–4
        /// minutes of retrying. A restart gives owed beacons a fresh count.
        public var maxAttempts: Int = 10
        /// Beacons held in memory at most; more wait in the journal. Default 10,000.
        public var maxInMemory: Int = 10_000
        /// Seconds allowed for one ping. Default 10.
        public var requestTimeout: TimeInterval = 10
        /// Settled records before the journal is compacted. Default 512.
        public var compactAfter: Int = 512
        /// Syncs the journal to disk after every append and before a
        /// compaction's rename (`fsync`, `F_FULLFSYNC` on Apple platforms), so
        /// beacons survive a power loss or a kernel panic too. Default false:
        /// an append reaches the kernel before ``BeaconQueue/enqueue(_:)``
        /// returns, which already survives the app being killed or crashing;
        /// the sync adds a disk flush to every enqueue, on the caller's thread
        /// (`BENCHMARKS.md` has the figure).
        public var syncsJournalToDisk: Bool = false

        public init() {}

        /// The defaults, with what `settings` set: ``Settings/beaconMaxAge``,
        /// ``Settings/beaconMaxAttempts`` and ``Settings/syncsBeaconJournalToDisk``.
        public init(settings: Settings) {
            maxAge = settings.beaconMaxAge
            maxAttempts = settings.beaconMaxAttempts
            syncsJournalToDisk = settings.syncsBeaconJournalToDisk
        }
    }

    enum Outcome { case delivered, dropped, cancelled }

    func deliver(_ beacon: Beacon) async -> Outcome {
        var attempts = 0
        while true {
            if now().timeIntervalSince(beacon.createdAt) > policy.maxAge {
                stats.dropped += 1
                logger.log(
                    .warning,
                    "beacons: dropped \(beacon.event) for ad \(beacon.adID), older than \(Int(policy.maxAge)) s: \(beacon.url)"
                )
                return .dropped
            }
            guard let url = URL.lenient(beacon.url, relativeTo: nil) else {
                stats.dropped += 1
                logger.log(
                    .warning, "beacons: dropped \(beacon.event) for ad \(beacon.adID): invalid URL \(beacon.url)")
                return .dropped
            }
            let request = HTTPRequest(
                url: url, headers: ["User-Agent": userAgent, "Idempotency-Key": beacon.idempotencyKey],
                timeout: policy.requestTimeout)
            attempts += 1
            var retryAfter: TimeInterval?
            do {
                let response = try await http.send(request, deadlineOn: clock)
                // Server errors and throttling are worth a retry; any other answer is final.
                if response.statusCode < 500, response.statusCode != 429, response.statusCode != 408 {
                    if response.statusCode >= 400 {
                        logger.log(
                            .warning,
                            "beacons: \(beacon.event) for ad \(beacon.adID) answered HTTP \(response.statusCode)")
                    }
                    stats.delivered += 1
                    return .delivered
                }
                retryAfter = Self.retryAfter(in: response.headers)
            } catch {
                if Task.isCancelled { return .cancelled }
            }
            if attempts >= policy.maxAttempts {
                stats.dropped += 1
                logger.log(
                    .warning,
                    "beacons: dropped \(beacon.event) for ad \(beacon.adID) after \(attempts) attempts: \(beacon.url)")
                return .dropped
            }
            stats.retried += 1
            let ceiling = min(policy.maxRetryDelay, policy.initialRetryDelay * pow(2, Double(attempts - 1)))
            let backoff = ceiling * (0.5 + 0.5 * jitter())
            // A server that says when to come back (a full collector's 503) is not asked sooner.
            let delay = max(backoff, min(retryAfter ?? 0, policy.maxRetryDelay))
            do { try await clock.sleep(for: delay) } catch { return .cancelled }
        }
    }

    /// `Retry-After` in seconds (RFC 9110 §10.2.3, the delay-seconds form),
    /// whatever the case of the header name.
    static func retryAfter(in headers: [String: String]) -> TimeInterval? {
        let value = headers["retry-after"] ?? headers.first { $0.key.lowercased() == "retry-after" }?.value
        guard let value, let seconds = Int(value.trimmingWhitespace), seconds >= 0 else { return nil }
        return TimeInterval(seconds)
    }
}

extension Beacon {
    /// The host (and port) the beacon goes to, lowercased: the unit whose
    /// order is kept. Read from the text, not a parsed `URL`, because every
    /// beacon needs it.
    var destination: String {
        if let ascii = Self.asciiDestination(url) { return ascii }
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return host.lowercased()
    }

    /// ``destination`` of an all-ASCII URL (every URL a server writes), read
    /// on its bytes: the same answer as the character reading (no ASCII
    /// character combines with another), without Foundation's `range(of:)`.
    /// Nil for any other URL.
    static func asciiDestination(_ url: String) -> String? {
        url.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return nil }
                if start == 0, byte == UInt8(ascii: ":"), index + 2 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
                {
                    start = index + 3
                    index = start
                    continue
                }
                index += 1
            }
            var end = start
            var hostStart = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "@") { hostStart = end + 1 }
                end += 1
            }
            var host = [UInt8](bytes[hostStart..<end])
            for position in host.indices
            where host[position] >= UInt8(ascii: "A") && host[position] <= UInt8(ascii: "Z") {
                host[position] += 0x20
            }
            return String(decoding: host, as: UTF8.self)
        } ?? nil
    }
}
