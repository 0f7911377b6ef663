import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocking socket calls that survive signals.
///
/// A signal whose handler was installed without `SA_RESTART` (Foundation's
/// `Process` and Dispatch signal sources install such handlers, and any app
/// that embeds the server may) makes a blocked `recv`, `send` or `connect`
/// return -1 with `EINTR`. Nothing went wrong with the connection, so treating
/// that as a failure loses a response, a beacon or a tag for no reason.
package enum InterruptibleSocketCalls {
    /// Runs `call` (a `recv`, `send`, `read` or `write`) again for as long as
    /// a signal interrupts it, and returns its first real result.
    @inline(__always)
    package static func retrying<Count: BinaryInteger>(_ call: () -> Count) -> Count {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `connect` on a blocking socket. A connect interrupted by a signal goes
    /// on in the kernel and calling it again fails (`EALREADY`), so this
    /// waits for the socket to become writable, up to `timeout` seconds, and
    /// reads the outcome from `SO_ERROR`. Returns 0, or -1 with `errno` set.
    package static func connect(
        _ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, timeout: Double
    ) -> Int32 {
        if systemConnect(descriptor, address, length) == 0 { return 0 }
        guard errno == EINTR else { return -1 }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                errno = ETIMEDOUT
                return -1
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, Int32(min(Int64(Int32.max), Int64((deadline - now) / 1_000_000) + 1)))
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if ready == 0 { continue }  // the loop's deadline check ends it
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return -1 }
            if failure == 0 { return 0 }
            errno = failure
            return -1
        }
    }
}

#if canImport(Glibc)
    private let systemConnect = Glibc.connect
#else
    private let systemConnect = Darwin.connect
#endif
