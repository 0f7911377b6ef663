/// A dictionary holding at most `limit` entries: storing one more forgets
/// the entry read or stored least recently. A value type (not thread-safe:
/// wrap it in a lock); every operation is O(1), the entries forming a
/// doubly linked list through indices into one array, most recent first.
struct LeastRecentlyUsed<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    private var nodes: [Node] = []
    private var indexByKey: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?
    /// The most entries held at once.
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { indexByKey.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let index = indexByKey[key] else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// Stores `value` for `key` as the most recently used, forgetting the
    /// least recently used entry when the cache is full.
    mutating func store(_ value: Value, for key: Key) {
        if let index = indexByKey[key] {
            nodes[index].value = value
            moveToFront(index)
            return
        }
        if nodes.count < limit {
            nodes.append(Node(key: key, value: value, newer: nil, older: nil))
            let index = nodes.count - 1
            indexByKey[key] = index
            link(index)
            return
        }
        // Full: the oldest node's slot takes the new entry.
        guard let index = oldest else { return }
        unlink(index)
        indexByKey[nodes[index].key] = nil
        nodes[index] = Node(key: key, value: value, newer: nil, older: nil)
        indexByKey[key] = index
        link(index)
    }

    private mutating func moveToFront(_ index: Int) {
        guard newest != index else { return }
        unlink(index)
        link(index)
    }

    /// Puts the unlinked node `index` at the front (most recent).
    private mutating func link(_ index: Int) {
        nodes[index].newer = nil
        nodes[index].older = newest
        if let newest { nodes[newest].newer = index }
        newest = index
        if oldest == nil { oldest = index }
    }

    private mutating func unlink(_ index: Int) {
        let node = nodes[index]
        if let newer = node.newer { nodes[newer].older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older].newer = node.newer } else { oldest = node.newer }
        nodes[index].newer = nil
        nodes[index].older = nil
    }
}
