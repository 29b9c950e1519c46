#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock primitive of the library: a state value guarded by a mutex, accessed only
/// through the scoped `withLock`.
///
/// Built on `pthread_mutex_t` (not `Synchronization.Mutex`) so that ThreadSanitizer sees it on
/// Linux. The state and the mutex live in one heap object (a `ManagedBuffer` with the mutex
/// tail-allocated), so a lock costs one allocation. Copies of a `LockedState` share that object.
/// The primitive's other form, `StripedLock`, takes the mutex from a fixed table instead, for
/// objects that keep their state in their own fields (the subjects).
package struct LockedState<State>: @unchecked Sendable {
    // Safety: the state is only read or written between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` of the storage's mutex, so every access is serialized.
    @usableFromInline let storage: LockStorage<State>

    package init(_ initial: consuming State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state. `body` must not call out to observers,
    /// user closures, `dispose()` or schedulers (decide under the lock, act after it).
    @inlinable
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if MemoryLayout<State>.size == 0 {
                // A state without storage (`Void`, a lock that guards other fields) has no
                // address of its own: an `inout` access to it would alias the object header,
                // which ThreadSanitizer reports as a race. Pass a local instead (nothing to copy).
                var empty = state.pointee
                return try body(&empty)
            }
            return try body(&state.pointee)
        }
    }
}

extension LockedState where State == Void {
    package init() { self.init(()) }
}

/// The heap object behind a `LockedState`: the state as the header, one mutex as the element.
@usableFromInline
package final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ initial: consuming State) -> LockStorage<State> {
        // Moved into the header (the closure would otherwise copy it: a retain per reference
        // the state holds, for every lock created).
        var moving: State? = consume initial
        let buffer = create(minimumCapacity: 1) { _ in moving.take().unsafelyUnwrapped }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements(initializeMutex)
        return storage
    }

    // The header (the state) is destroyed by `ManagedBuffer`'s own deinit; the element is ours.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}

/// Makes the uninitialized memory at `mutex` a default mutex, ready to lock.
///
/// Zero bytes: on glibc and musl that is `PTHREAD_MUTEX_INITIALIZER`, so `pthread_mutex_init`
/// (~40 instructions, for every `LockedState` created) is only called where the initializer is
/// not all zeros (Darwin's has a signature).
@inline(__always)
func initializeMutex(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    mutex.initialize(to: pthread_mutex_t())
    #if !canImport(Glibc) && !canImport(Musl)
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    #endif
}
