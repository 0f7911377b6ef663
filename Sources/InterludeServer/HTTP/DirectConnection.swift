#if os(Linux)
    import CMicroHTTPD
    import Foundation
    import Glibc

    /// One connection while the direct path holds it: between requests, or
    /// sending a direct answer. Touched only by the ``DirectLoop`` that owns
    /// it; `@unchecked Sendable` because a loop that accepts it may hand it,
    /// before touching it again, to another loop through that loop's locked inbox.
    final class DirectConnection: @unchecked Sendable {
        /// An answer being sent and the request it answers, for the access log.
        struct Sending {
            var answer: DirectAnswer
            var target: String
            var startNanoseconds: UInt64
            /// The run being sent and how far into it.
            var runIndex = 0
            var runOffset = 0
            /// The open file of each run (-1: a memory run), from the
            /// loop's ``DirectFileTable``, which closes them.
            var descriptors: [Int32]
            /// The runs whose files were acquired, to release them when done
            /// (the answer's own runs may since have moved to memory).
            var filesHeld: [DirectAnswer.Run]
            /// TCP_CORK set for this answer (cleared once it is all sent).
            var corked = false
        }

        enum Progress {
            case done, wouldBlock, failed
        }

        let socket: Int32
        var address: sockaddr_storage
        let addressLength: socklen_t
        /// Uptime of the last progress: a request answered, bytes sent.
        var lastActivity: UInt64
        var sending: Sending?
        /// Peeks that found part of a head and no blank line (this request).
        var incompletePeeks = 0
        /// Set when the answer that ended the connection is sent: our side
        /// is shut down and the client's further bytes are read and thrown
        /// away until it closes, since closing with unread input sends a
        /// reset, which can destroy the end of that answer in flight.
        var closingSince: UInt64?

        init(socket: Int32, address: sockaddr_storage, addressLength: socklen_t, now: UInt64) {
            self.socket = socket
            self.address = address
            self.addressLength = addressLength
            lastActivity = now
        }

        /// Sends what the socket takes of the current answer.
        func send(now: UInt64) -> Progress {
            guard var state = sending else { return .done }
            defer { sending = state }
            if !state.corked, state.answer.runs.count > 1 {
                // Corked, the head, the packets and the file's pages leave as
                // full segments: sendfile takes no MSG_MORE, and each short
                // push woke the client for a few hundred bytes.
                setCork(true)
                state.corked = true
            }
            while state.runIndex < state.answer.runs.count {
                let sent: Int
                switch state.answer.runs[state.runIndex] {
                case .memory:
                    sent = sendMemory(&state)
                case .file(_, let offset, let length):
                    sent = sendFile(state, offset: offset, length: length)
                }
                if sent > 0 {
                    lastActivity = now
                    advance(&state, by: sent)
                    continue
                }
                let code = sent == 0 ? 0 : interlude_errno()
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
                // A file that shrank (0) or a file system without sendfile:
                // the rest of this run from memory, when the answer has it.
                if case .file = state.answer.runs[state.runIndex],
                    [0, EINVAL, ENOSYS, EOPNOTSUPP].contains(code), state.answer.sendFromMemory(run: state.runIndex)
                {
                    continue
                }
                return .failed
            }
            if state.corked {
                setCork(false)
                state.corked = false
            }
            return .done
        }

        private func setCork(_ on: Bool) {
            var value: Int32 = on ? 1 : 0
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
        }

        /// Reads and throws away what the client still sends (see `closingSince`).
        func drainWhileClosing() -> Drain {
            var sink = [UInt8](repeating: 0, count: 16 * 1024)
            // At most 256 KiB a turn: a client sending faster than this
            // drains must not hold the loop.
            for _ in 0..<16 {
                let read = recv(socket, &sink, sink.count, 0)
                if read > 0 { continue }
                if read < 0, interlude_errno() == EINTR { continue }
                if read < 0, interlude_errno() == EAGAIN || interlude_errno() == EWOULDBLOCK { return .waiting }
                return .closed
            }
            return .more
        }

        /// What ``drainWhileClosing()`` left.
        enum Drain {
            /// The client closed (or its socket failed): close now.
            case closed
            /// Nothing more to read now: wait for the socket.
            case waiting
            /// Input left after this turn's share.
            case more
        }

        /// The memory runs from the current one up to the next file run, in
        /// one `sendmsg`; `MSG_MORE` while a file run follows, so the head
        /// and the body's start share packets.
        private func sendMemory(_ state: inout Sending) -> Int {
            var vectors: [iovec] = []
            var index = state.runIndex
            var offset = state.runOffset
            var keep: [SharedBytes] = []
            while index < state.answer.runs.count, vectors.count < 16,
                case .memory(let slice) = state.answer.runs[index]
            {
                let start = slice.range.lowerBound + offset
                keep.append(slice.bytes)
                vectors.append(
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: slice.bytes.address(of: start)),
                        iov_len: slice.range.upperBound - start))
                index += 1
                offset = 0
            }
            let more = index < state.answer.runs.count
            let sent = withExtendedLifetime(keep) {
                vectors.withUnsafeMutableBufferPointer { buffer -> Int in
                    var message = msghdr()
                    message.msg_iov = buffer.baseAddress
                    message.msg_iovlen = buffer.count
                    return sendmsg(socket, &message, Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0))
                }
            }
            return sent
        }

        private func sendFile(_ state: Sending, offset: UInt64, length: UInt64) -> Int {
            var position = off_t(offset) + off_t(state.runOffset)
            let remaining = Int(length) - state.runOffset
            // The file was checked to hold these bytes; sendfile returning 0
            // (it shrank since) ends the connection, as an answer cannot be
            // taken back once its head is out.
            return sendfile(socket, state.descriptors[state.runIndex], &position, remaining)
        }

        private func advance(_ state: inout Sending, by count: Int) {
            var left = count
            while left > 0, state.runIndex < state.answer.runs.count {
                let available = state.answer.runs[state.runIndex].count - state.runOffset
                if left < available {
                    state.runOffset += left
                    return
                }
                left -= available
                state.runIndex += 1
                state.runOffset = 0
            }
        }
    }
#endif
