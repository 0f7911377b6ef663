import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads single keys from standard input. On a terminal it switches to raw
/// mode (restored on stop); on a pipe it reads whatever bytes arrive.
final class KeyReader: @unchecked Sendable {
    // `original` is written once before the source starts and read in stop(): no concurrent access.
    private var original = termios()
    private var isRaw = false
    private var source: DispatchSourceRead?
    let isTerminal = isatty(STDIN_FILENO) != 0

    /// Starts delivering keys to `handler` on the main actor.
    func start(_ handler: @escaping @MainActor @Sendable (Character) -> Void) {
        if isTerminal, tcgetattr(STDIN_FILENO, &original) == 0 {
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 1
                bytes[Int(VTIME)] = 0
            }
            if tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 { isRaw = true }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .global())
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            // A signal (a terminal resize, a child exiting) can interrupt the
            // read; that is not the end of input, so keep listening.
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
            guard count > 0 else {
                source.cancel()  // end of input: keep playing, stop listening
                return
            }
            let keys = String(decoding: buffer[0..<count], as: UTF8.self)
            Task { @MainActor in for key in keys { handler(key) } }
        }
        source.resume()
        self.source = source
    }

    func stop() {
        source?.cancel()
        source = nil
        if isRaw {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            isRaw = false
        }
    }
}
