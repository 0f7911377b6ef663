import Foundation

/// A value that several threads share, guarded by a lock.
///
/// `@unchecked Sendable` is safe here: the only access to `value` is inside
/// `withLock`, which holds `lock` for the whole closure, so no two threads
/// read or write it at the same time. Callers keep `Value` to value types or
/// to references whose own use is confined to the locked closure.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
