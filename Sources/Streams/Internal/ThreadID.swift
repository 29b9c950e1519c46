#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-zero identifier of the calling thread (used by DEBUG checks, the drain roles, and
/// StreamsCocoa's notification delivery to tell a reentrant call from another thread's).
@inline(__always)
package func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
