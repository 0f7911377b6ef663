import Foundation

/// SDK-wide settings, fixed when the ``AdsLoader`` is created. IMA's `IMASettings`.
public struct Settings: Sendable, Hashable {
    /// Publisher-provided ID (IMA's `ppid`). Default nil. VAST has no macro
    /// for it: a tag that wants it carries it in its own URL, so the SDK does
    /// not send it by itself.
    public var ppid: String?
    /// UI language as a BCP 47 tag (`en`, `pt-BR`): picks the localized UI
    /// strings and is sent as `Accept-Language`. Default `en`.
    public var language: String = "en"
    /// Most wrappers followed before giving up with error 302. Default 4.
    public var maxRedirects: Int = 4
    /// Keep playing ads while the app is in the background. Default false.
    public var enableBackgroundPlayback: Bool = false
    /// VMAP (ad rules) breaks: true plays mid- and post-rolls as they come
    /// due (a pre-roll on `start()`, called on `loaded`); false announces
    /// every break, the pre-roll too, with `adBreakReady` alone and plays it
    /// only on `start()` (`discardAdBreak()` drops it). A plain VAST
    /// response is not affected. IMA's `autoPlayAdBreaks`. Default true.
    public var autoPlayAdBreaks: Bool = true
    /// The player's name, sent in the user agent. Default nil.
    public var playerType: String?
    /// The player's version, sent in the user agent. Default nil.
    public var playerVersion: String?
    /// The app's session identifier (IMA's `sessionID`), for the app's own
    /// bookkeeping; VAST has no macro for it, so the SDK sends it nowhere by
    /// itself. Default nil.
    public var sessionID: String?
    /// Log what the SDK does: with no logger given to the ``AdsLoader``, it
    /// writes to standard error (``StandardErrorLogger``). Default false.
    public var enableDebugMode: Bool = false

    // Interlude additions.

    /// Time allowed for each wrapper hop (the first hop uses
    /// ``AdsRequest/vastLoadTimeout``). Default 4 s.
    public var wrapperLoadTimeout: TimeInterval = 4
    /// Largest VAST/VMAP response accepted, in bytes. Default 4 MiB.
    public var maxResponseSize: Int = 4 * 1024 * 1024
    /// Where unsent beacons are journaled so a crash loses none. Default nil:
    /// the caches directory's `Interlude/beacons`.
    public var beaconJournalDirectory: URL?
    /// Beacons still unsent after this long are dropped (with a log line).
    /// Default 24 h.
    public var beaconMaxAge: TimeInterval = 24 * 3600
    /// Attempts per beacon (the first included) before it is dropped with a
    /// log line. Default 10: about 3–4 minutes of retrying with capped
    /// exponential backoff. See ``BeaconQueue/Policy/maxAttempts``.
    public var beaconMaxAttempts: Int = 10
    /// Sync the beacon journal to disk after every append, so beacons also
    /// survive a power loss or kernel panic (an app kill or crash loses none
    /// either way). Default false: it costs a disk sync per enqueue on the
    /// main actor. See ``BeaconQueue/Policy/syncsJournalToDisk``.
    public var syncsBeaconJournalToDisk: Bool = false
    /// Whether the user limited ad tracking (`[LIMITADTRACKING]`). Default false.
    public var limitAdTracking: Bool = false

    public init() {}

    /// The User-Agent sent with ad requests and beacons.
    public var userAgent: String {
        var agent = "Interlude/1.0"
        if let playerType { agent += " \(playerType)" + (playerVersion.map { "/\($0)" } ?? "") }
        return agent
    }
}
