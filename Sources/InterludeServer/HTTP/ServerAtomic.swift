#if os(Linux)
    import Synchronization

    /// The server's counters and flags: Synchronization's lock-free
    /// `Atomic` where it was measured (Linux).
    typealias ServerAtomic<Value: AtomicRepresentable> = Atomic<Value>
#else
    import Foundation

    /// The server's counters and flags on Apple platforms, where
    /// Synchronization's `Atomic` needs macOS 15 and the package supports
    /// macOS 13: a lock, with the calls the server makes of `Atomic`.
    final class ServerAtomic<Value: Sendable>: @unchecked Sendable {
        /// The orderings the server names; a lock gives every one of them.
        enum Ordering { case relaxed, acquiring, releasing, sequentiallyConsistent }

        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) { self.value = value }

        func load(ordering: Ordering) -> Value {
            lock.lock()
            defer { lock.unlock() }
            return value
        }

        func store(_ newValue: Value, ordering: Ordering) {
            lock.lock()
            value = newValue
            lock.unlock()
        }
    }

    extension ServerAtomic where Value == Int {
        @discardableResult
        func add(_ operand: Int, ordering: Ordering) -> (oldValue: Int, newValue: Int) {
            lock.lock()
            defer { lock.unlock() }
            let old = value
            value = old &+ operand
            return (old, value)
        }

        @discardableResult
        func subtract(_ operand: Int, ordering: Ordering) -> (oldValue: Int, newValue: Int) {
            lock.lock()
            defer { lock.unlock() }
            let old = value
            value = old &- operand
            return (old, value)
        }
    }
#endif
