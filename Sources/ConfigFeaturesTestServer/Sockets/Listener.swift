#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams

/// The listening socket: bound to 127.0.0.1 on the requested port (0: an ephemeral one).
///
/// `accept()` blocks in `poll(2)` on the socket and a doorbell, so `stop()` wakes it from any
/// thread; the descriptor is closed by `close()` (after the accept thread is gone) or `deinit`.
final class Listener: @unchecked Sendable {
    // Safety: `descriptor`, `port` and `doorbell` are immutable; `accept` runs on the accept
    // thread only; `stopped` and `closed` flags are guarded by their locks.
    private let descriptor: Int32
    /// The port the kernel picked.
    let port: Int
    private let doorbell: Doorbell
    private let stopped = LockedState(false)
    private let closed = LockedState(false)

    /// Binds `port` (0: one the kernel picks) and listens.
    ///
    /// - Throws: `FirebaseTestServerError.invalidPort` (outside 0...65535), `.socketFailed`,
    ///   `.portInUse`, `.bindFailed` or `.listenFailed`.
    init(port requested: Int = 0) throws(FirebaseTestServerError) {
        guard (0...65535).contains(requested) else { throw .invalidPort(requested) }
        guard let descriptor = POSIX.tcpSocket() else { throw .socketFailed(errno: errno) }
        POSIX.setOption(descriptor, level: SOL_SOCKET, SO_REUSEADDR)
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(requested).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            POSIX.close(descriptor)
            throw code == EADDRINUSE ? .portInUse(requested) : .bindFailed(errno: code)
        }
        guard listen(descriptor, 64) == 0 else {
            let code = errno
            POSIX.close(descriptor)
            throw code == EADDRINUSE ? .portInUse(requested) : .listenFailed(errno: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            POSIX.close(descriptor)
            throw .bindFailed(errno: code)
        }
        let doorbell: Doorbell
        do {
            doorbell = try Doorbell()
        } catch {
            POSIX.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.doorbell = doorbell
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close() }

    /// Waits for the next connection; `nil` once `stop()` was called.
    func accept() -> Int32? {
        while true {
            if stopped.withLock({ $0 }) { return nil }
            let events = POSIX.poll([(descriptor, POSIX.readable), (doorbell.descriptor, POSIX.readable)], timeout: -1)
            if events[1] != 0 { doorbell.drain(); continue }
            if events[0] & POSIX.failed != 0 && events[0] & POSIX.readable == 0 { return nil }
            guard events[0] != 0 else { continue }
            #if canImport(Glibc)
            let connection = Glibc.accept(descriptor, nil, nil)
            #else
            let connection = Darwin.accept(descriptor, nil, nil)
            #endif
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                return connection
            }
            switch errno {
            case EINTR, EAGAIN, ECONNABORTED, EPROTO: continue
            default:
                // Out of descriptors or a broken listener: stop accepting rather than spin.
                return nil
            }
        }
    }

    /// Makes `accept()` return `nil` (now, or the next time it is called).
    func stop() {
        stopped.withLock { $0 = true }
        doorbell.ring()
    }

    /// Closes the socket (once); call it after the accept thread has finished.
    func close() {
        let first = closed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { POSIX.close(descriptor) }
    }
}
