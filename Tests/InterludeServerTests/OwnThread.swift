import Foundation

/// Runs blocking work (an ffmpeg build, a loopback request) on a thread of
/// its own and waits for it without holding a thread of the shared Swift
/// concurrency pool: on a 2-core machine that pool has two threads, and a
/// test blocked on one starves every async test (and its clock) meanwhile.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
