/// The event IDs a stream has sent for media verification, so that none is
/// sent twice: the pod-serving API answers a repeat with 404 (already
/// verified), and the same ID comes due again when a display reports one
/// frame twice at different times (without presentation times, or from two
/// renditions a frame apart) or the metadata does not know it. Bounded: the
/// oldest are forgotten first.
struct VerifiedEventIDs: Sendable {
    /// IDs remembered at most.
    var capacity = 1_024

    private var ids: Set<String> = []
    private var order: [String] = []
    private var start = 0

    /// IDs remembered now.
    var count: Int { ids.count }

    /// Records `eventID`; false when it was verified already.
    mutating func insert(_ eventID: String) -> Bool {
        guard ids.insert(eventID).inserted else { return false }
        order.append(eventID)
        if order.count - start > capacity {
            ids.remove(order[start])
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
