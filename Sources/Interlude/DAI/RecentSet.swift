/// A set that remembers at most `capacity` elements, forgetting the oldest
/// inserted first: the de-duplication memory of a stream that runs for
/// days (timed-metadata frames, verified event IDs) without growing.
struct RecentSet<Element: Hashable & Sendable>: Sendable {
    /// Elements remembered at most.
    var capacity: Int

    private var members: Set<Element> = []
    /// Insertion order from `start` on; the elements before it are forgotten.
    private var order: [Element] = []
    private var start = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Elements remembered now.
    var count: Int { members.count }

    func contains(_ element: Element) -> Bool { members.contains(element) }

    /// Remembers `element`; false when it was remembered already. One hash
    /// for the check and the insert: every frame of a stream comes here.
    mutating func insert(_ element: Element) -> Bool {
        guard members.insert(element).inserted else { return false }
        order.append(element)
        if order.count - start > capacity {
            members.remove(order[start])
            start += 1
        }
        // Compact the order list once half of it is forgotten.
        if start > capacity / 2, start * 2 > order.count {
            order.removeFirst(start)
            start = 0
        }
        return true
    }
}
