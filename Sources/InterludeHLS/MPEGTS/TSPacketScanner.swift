/// Finds packet boundaries in transport stream bytes, re-synchronising when a
/// packet does not start with the sync byte: a new position is taken only
/// where a sync byte is followed by another one 188 bytes later (or by the end
/// of the input), so one stray 0x47 inside a payload does not fool it.
enum TSPacketScanner {
    enum Step: Equatable {
        /// A packet starts at this offset.
        case packet(Int)
        /// Bytes from `skippedFrom` were not packets; packets line up again at `packet`.
        case resynchronised(skippedFrom: Int, packet: Int)
        /// Not enough bytes to decide: keep the bytes from `keepFrom` for the next
        /// chunk (bytes before it, when `keepFrom` is past the offset, were garbage).
        case needMoreData(keepFrom: Int)
        /// The input ends with bytes from this offset that cannot form a packet
        /// (final input only).
        case truncated(Int)
        /// Nothing is left.
        case end
    }

    /// The next step from `offset`. `synchronised` says the previous packet
    /// ended here, so a sync byte at `offset` is trusted; otherwise it must be
    /// confirmed like any other candidate. With `isFinal` false a partial
    /// packet or an unconfirmed candidate asks for more data instead of failing.
    static func next(
        in buffer: UnsafeBufferPointer<UInt8>, from offset: Int, synchronised: Bool, isFinal: Bool
    ) -> Step {
        let count = buffer.count
        guard offset < count else { return .end }
        if synchronised && buffer[offset] == TSPacket.syncByte {
            if offset + TSPacket.size <= count { return .packet(offset) }
            return isFinal ? .truncated(offset) : .needMoreData(keepFrom: offset)
        }
        var candidate = synchronised ? offset + 1 : offset
        while candidate < count {
            if buffer[candidate] == TSPacket.syncByte {
                let following = candidate + TSPacket.size
                if following < count {
                    if buffer[following] == TSPacket.syncByte {
                        return candidate == offset
                            ? .packet(candidate) : .resynchronised(skippedFrom: offset, packet: candidate)
                    }
                } else if following == count && isFinal {
                    return candidate == offset
                        ? .packet(candidate) : .resynchronised(skippedFrom: offset, packet: candidate)
                } else {
                    return isFinal ? .truncated(offset) : .needMoreData(keepFrom: candidate)
                }
            }
            candidate += 1
        }
        return isFinal ? .truncated(offset) : .needMoreData(keepFrom: count)
    }
}

extension TSPacketScanner {
    /// Calls `body` with the offset of each whole packet of `buffer` from
    /// `start`, in order, re-synchronising over bytes that are not packets,
    /// until it returns false or the packets end.
    static func forEachPacket(in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0, _ body: (Int) -> Bool) {
        var offset = start
        while true {
            switch next(in: buffer, from: offset, synchronised: true, isFinal: true) {
            case .packet(let start), .resynchronised(_, let start):
                guard body(start) else { return }
                offset = start + TSPacket.size
            case .needMoreData, .truncated, .end:
                return
            }
        }
    }
}
