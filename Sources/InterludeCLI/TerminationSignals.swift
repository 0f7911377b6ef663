import Dispatch
import Foundation

/// SIGINT/SIGTERM for `interlude serve`, through Dispatch signal sources
/// (handlers on a queue, not the main actor, so they are safe however the
/// process was started).
///
/// Before ``beginServing()`` a signal ends the process at once (with the
/// shell's 128+signal status), so Ctrl-C during media generation is not
/// ignored; after it, a signal makes ``waitForSignal()`` return so the
/// caller can shut down gracefully.
///
/// `@unchecked Sendable` is safe here: `serving` and `pending` are read and
/// written only on `queue`, a serial queue, which also runs the handlers.
final class TerminationSignals: @unchecked Sendable {
    private let queue = DispatchQueue(label: "interlude.serve.signals")
    private let received = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []
    private var serving = false

    init() {
        // A parent that spawned us from a Dispatch worker thread (Foundation's
        // Process does) passes its blocked signal mask on; with SIGTERM
        // blocked in every thread the sources would never fire.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in handle(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs on `queue`.
    private func handle(_ number: Int32) {
        guard serving else { exit(128 + number) }
        received.signal()
    }

    /// From now on a signal asks for a graceful shutdown. Call it before
    /// telling anyone the server is ready.
    func beginServing() {
        queue.sync { serving = true }
    }

    /// Blocks until SIGINT or SIGTERM arrives after ``beginServing()``.
    func waitForSignal() {
        received.wait()
        queue.sync {
            for source in sources { source.cancel() }
        }
    }
}
