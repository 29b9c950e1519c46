#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that wakes a thread blocked in `poll(2)`: any thread may `ring()`, the owner
/// includes `descriptor` in its poll set and calls `drain()` when it becomes readable.
///
/// A ring carries no data: the owner re-reads the shared state after every wake-up, so several
/// rings may collapse into one. Both ends are non-blocking, so ringing never blocks (a full pipe
/// already wakes the owner), and both are closed only in `deinit`, so a thread that still holds
/// the doorbell can never write into a reused descriptor.
final class Doorbell: @unchecked Sendable {
    // Safety: the descriptors are immutable; `write(2)` and `read(2)` on a pipe are thread-safe,
    // and the pipe is closed only when the last reference goes away.
    /// The end to poll for readability.
    let descriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    init() throws(FirebaseTestServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .pipeFailed(errno: errno) }
        descriptor = ends[0]
        writeEnd = ends[1]
        POSIX.makeNonBlocking(descriptor)
        POSIX.makeNonBlocking(writeEnd)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        POSIX.close(descriptor)
        POSIX.close(writeEnd)
    }

    /// Wakes the owner (or makes its next poll return at once).
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe (the owner calls it after a wake-up, then re-reads the state).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
