import InterludeHLS

/// The last decoded live stitch state of each (stream, rendition), kept
/// beside the stored text it was decoded from, so a reload decodes only
/// when the row it reads differs from the one it read before. The store's
/// row stays the source of truth (every reload still reads it, so another
/// process's write is seen on the next read); this only saves decoding the
/// same text again.
///
/// Bounded: at most `limit` entries, the least recently used forgotten
/// first. An entry is the row's text (about 1.7 KB for a state with a few
/// breaks) and its decoded state (about as much again), so the default
/// 20,000 entries hold at most about 70 MB.
final class StitchStateCache: Sendable {
    struct Entry: Sendable {
        var text: String
        var state: LiveStitchState
    }

    private let entries: Locked<LeastRecentlyUsed<String, Entry>>

    init(limit: Int = 20_000) {
        entries = Locked(LeastRecentlyUsed(limit: limit))
    }

    /// The state decoded from `text` for this rendition, when `text` is the
    /// text it was decoded from; nil when unknown or the stored text changed.
    func state(streamID: String, rendition: String, text: String) -> LiveStitchState? {
        let key = Self.key(streamID: streamID, rendition: rendition)
        guard let entry = entries.withLock({ $0.value(for: key) }), entry.text == text else { return nil }
        return entry.state
    }

    /// Remembers that `text`, the stored row of this rendition, decodes to `state`.
    func remember(_ state: LiveStitchState, text: String, streamID: String, rendition: String) {
        let key = Self.key(streamID: streamID, rendition: rendition)
        entries.withLock { $0.store(Entry(text: text, state: state), for: key) }
    }

    var count: Int { entries.withLock { $0.count } }

    private static func key(streamID: String, rendition: String) -> String { "\(streamID)\n\(rendition)" }
}
