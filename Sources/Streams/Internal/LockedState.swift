import Synchronization

/// The one lock primitive of Streams: a value guarded by a `Synchronization.Mutex`.
///
/// Use `withLock` with a short body that only reads and writes `State`. Never call
/// observers, user closures, `dispose()` or scheduler work inside the body: decide
/// under the lock, act after it.
package final class LockedState<State>: @unchecked Sendable {
    // Safety: `state` is only read or written inside `mutex.withLock`, so every access
    // is serialized by the mutex.
    @usableFromInline let mutex = Mutex<Void>(())
    @usableFromInline var state: State

    package init(_ initial: State) {
        state = initial
    }

    /// Runs `body` with exclusive access to the guarded state.
    @inlinable
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&state) }
    }
}

extension LockedState where State == Void {
    package convenience init() { self.init(()) }
}
