/// A thread-safe dictionary that forgets everything when it reaches `limit`
/// entries. For values that never change once stored (streams, decisions),
/// so a forgotten entry is only a store read away.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Locked<[Key: Value]>([:])
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    subscript(key: Key) -> Value? { entries.withLock { $0[key] } }

    func store(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
