#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock primitive of Streams: a value guarded by a mutex.
///
/// Use `withLock` with a short body that only reads and writes `State`. Never call
/// observers, user closures, `dispose()` or scheduler work inside the body: decide under the
/// lock, act after it.
///
/// The mutex is a plain `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux the
/// latter is built on futexes that ThreadSanitizer cannot see, so every correctly locked access
/// is reported as a race and `swift test --sanitize=thread` becomes useless. `pthread_mutex_t`
/// is intercepted by TSan and costs the same uncontended.
package final class LockedState<State>: @unchecked Sendable {
    // Safety: `state` is only read or written between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` of `mutex`, so every access is serialized. That also makes every
    // access exclusive, so the runtime's dynamic exclusivity checks on it are skipped.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline @exclusivity(unchecked) var state: State

    package init(_ initial: State) {
        state = initial
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the guarded state.
    @inlinable
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

extension LockedState where State == Void {
    package convenience init() { self.init(()) }
}
