import Foundation

/// SIGINT and SIGTERM for a terminal session (`interlude play`, `interlude
/// stream`): ignored by the process and delivered on the main queue instead,
/// so the session ends as its `q` key does — the terminal leaves raw mode
/// and what is owed is sent — rather than dying with the terminal raw.
@MainActor
enum SessionSignals {
    /// Starts watching; `handler` gets the signal's number. Cancel the
    /// sources returned when the session ends.
    static func watch(_ handler: @escaping @MainActor (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { handler(number) } }
            source.resume()
            return source
        }
    }
}
