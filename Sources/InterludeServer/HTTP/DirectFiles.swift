#if os(Linux)
    import Foundation
    import Glibc

    /// What a direct loop does after `accept` fails with an `errno`.
    enum DirectAcceptFailure: Sendable, Equatable {
        /// Accept again at once: the error was the pending connection's
        /// (accept(2) on Linux reports a connection's network errors itself).
        case retry
        /// The backlog is empty: wait for the next edge.
        case backlogEmpty
        /// Out of descriptors or memory: the backlog stays, and with an
        /// edge-triggered listener no new edge may come, so the loop tries
        /// again shortly on its own.
        case backOff
        /// The listening socket was shut down or closed: stop accepting.
        case listenerClosed

        init(errno code: Int32) {
            switch code {
            case EINTR, ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP,
                ENETUNREACH, EPERM, ETIMEDOUT:
                self = .retry
            case EAGAIN, EWOULDBLOCK:
                self = .backlogEmpty
            case EINVAL, EBADF, ENOTSOCK:
                self = .listenerClosed
            default:
                // EMFILE, ENFILE, ENOBUFS, ENOMEM, and anything not listed:
                // neither spinning nor giving up the listener is safe.
                self = .backOff
            }
        }
    }

    /// Why the files of a direct answer could not be opened: the answer is
    /// replaced by an error before its head is sent, and the connection lives.
    struct DirectFileFailure: Error, Sendable, Equatable {
        let path: String
        let code: Int32
        /// The file is shorter than the answer needs.
        var isShort: Bool { code == 0 }

        /// 503 (try again) when the process is out of descriptors, else 500.
        var response: HTTPResponse {
            var response = HTTPError(
                status: code == EMFILE || code == ENFILE ? 503 : 500,
                message: "the media of this answer cannot be read"
            ).response
            if response.status == 503 { response.headers.set("Retry-After", "1") }
            return response
        }

        var logText: String {
            isShort ? "\(path) is shorter than its answer" : "cannot open \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The files one direct loop is sending from, each open once however
    /// many answers use it (`sendfile` takes the offset itself), so a
    /// thousand viewers of one ad segment cost one descriptor, not a thousand.
    /// Loop thread only.
    struct DirectFileTable {
        private struct Entry {
            let descriptor: Int32
            let size: UInt64
            var users: Int
        }

        private var entries: [String: Entry] = [:]

        /// Files open now.
        var openCount: Int { entries.count }

        /// A descriptor for each run of `runs` (-1 for memory runs), every
        /// file checked to hold the bytes its runs name. On failure nothing
        /// stays acquired.
        mutating func acquire(_ runs: [DirectAnswer.Run]) -> Result<[Int32], DirectFileFailure> {
            var descriptors: [Int32] = []
            descriptors.reserveCapacity(runs.count)
            var acquired: [String] = []
            for run in runs {
                guard case .file(let path, let offset, let length) = run else {
                    descriptors.append(-1)
                    continue
                }
                if !acquired.contains(path) {
                    if case .failure(let failure) = acquire(path) {
                        for path in acquired { release(path) }
                        return .failure(failure)
                    }
                    acquired.append(path)
                }
                guard let entry = entries[path], length <= entry.size, offset <= entry.size - length else {
                    for path in acquired { release(path) }
                    return .failure(DirectFileFailure(path: path, code: 0))
                }
                descriptors.append(entry.descriptor)
            }
            return .success(descriptors)
        }

        /// Ends one answer's use of the files of `runs` (as acquired).
        mutating func release(_ runs: [DirectAnswer.Run]) {
            var released: [String] = []
            for case .file(let path, _, _) in runs where !released.contains(path) {
                released.append(path)
                release(path)
            }
        }

        /// Closes every file (the loop is ending).
        mutating func closeAll() {
            for entry in entries.values { close(entry.descriptor) }
            entries = [:]
        }

        private mutating func acquire(_ path: String) -> Result<Void, DirectFileFailure> {
            if entries[path] != nil {
                entries[path]?.users += 1
                return .success(())
            }
            return open(path).map { entries[path] = $0 }
        }

        private func open(_ path: String) -> Result<Entry, DirectFileFailure> {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(DirectFileFailure(path: path, code: errno)) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let code = errno
                close(descriptor)
                return .failure(DirectFileFailure(path: path, code: code))
            }
            return .success(Entry(descriptor: descriptor, size: UInt64(max(0, status.st_size)), users: 1))
        }

        private mutating func release(_ path: String) {
            guard var entry = entries[path] else { return }
            entry.users -= 1
            if entry.users > 0 {
                entries[path] = entry
            } else {
                close(entry.descriptor)
                entries[path] = nil
            }
        }
    }
#endif
