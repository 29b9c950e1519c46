#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One object per thread, made on the thread's first use and released when the thread exits
/// (the current thread's trampoline, the inspector's context).
@_spi(StreamsInspectorSupport) public struct ThreadLocalObject<Object: AnyObject>: @unchecked Sendable {
    // Safety: a pthread key is an immutable handle, valid from any thread.
    @usableFromInline let key: pthread_key_t
    private let make: @Sendable () -> Object

    /// A slot whose object `make` makes on each thread's first use.
    package init(_ make: @escaping @Sendable () -> Object) {
        var key = pthread_key_t()
        pthread_key_create(&key, releaseThreadLocalObject)
        self.key = key
        self.make = make
    }

    /// Runs `body` with this thread's object, borrowed: no retain and release, for objects that
    /// live until their thread exits (the slot holds them) and are only used on their thread.
    @_spi(StreamsInspectorSupport) @inlinable @inline(__always)
    public func withCurrent<R>(_ body: (Object) -> R) -> R {
        guard let raw = pthread_getspecific(key) else { return body(current) }
        return Unmanaged<Object>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// This thread's object, made on its first use.
    @usableFromInline
    package var current: Object {
        if let raw = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue() }
        let object = make()
        pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
        return object
    }
}

#if canImport(Darwin)
private func releaseThreadLocalObject(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(raw).release()
}
#else
private func releaseThreadLocalObject(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<AnyObject>.fromOpaque(raw).release()
}
#endif
