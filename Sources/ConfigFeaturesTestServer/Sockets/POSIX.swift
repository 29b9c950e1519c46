#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the server makes, with the differences between Glibc and Darwin hidden.
///
/// Every descriptor is used by the thread that owns it; only doorbells (pipes) are written from
/// other threads, which `write(2)` allows.
enum POSIX {
    /// `poll(2)` event bits as `pollfd.events` wants them.
    static let readable = Int16(truncatingIfNeeded: POLLIN)
    static let writable = Int16(truncatingIfNeeded: POLLOUT)
    static let failed = Int16(truncatingIfNeeded: POLLERR) | Int16(truncatingIfNeeded: POLLHUP) | Int16(truncatingIfNeeded: POLLNVAL)

    /// The flags for `send(2)`: never raise SIGPIPE (Linux; Darwin uses `SO_NOSIGPIPE`), never block.
    #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #else
    static let sendFlags = Int32(MSG_DONTWAIT)
    #endif

    /// Names the calling thread as the kernel sees it (`/proc/self/task/*/comm`, debuggers).
    ///
    /// Foundation's `Thread.name` setter names the OS thread only once the starting thread has
    /// recorded the new thread's handle, so a thread that names itself at once may stay unnamed.
    static func nameCurrentThread(_ name: String) {
        #if canImport(Glibc)
        // Glibc's pthread_setname_np is not visible to Swift (it needs _GNU_SOURCE); the kernel
        // takes the same name, at most 15 bytes, through this file.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        _ = Glibc.close(descriptor)
        #else
        _ = pthread_setname_np(name)
        #endif
    }

    /// A new TCP socket, or `nil` with `errno` set.
    static func tcpSocket() -> Int32? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        return descriptor >= 0 ? descriptor : nil
    }

    /// Sets an integer socket option, ignoring failures (the options only make things nicer).
    static func setOption(_ descriptor: Int32, level: Int32, _ option: Int32, _ value: Int32 = 1) {
        var value = value
        _ = setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Prepares an accepted connection: no SIGPIPE on Darwin, no Nagle delay for small events.
    static func configureConnection(_ descriptor: Int32) {
        #if canImport(Darwin)
        setOption(descriptor, level: SOL_SOCKET, SO_NOSIGPIPE)
        #endif
        setOption(descriptor, level: Int32(IPPROTO_TCP), Int32(TCP_NODELAY))
    }

    /// Makes `descriptor` non-blocking (for doorbell pipes).
    static func makeNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Closes `descriptor`, ignoring errors (a descriptor is closed exactly once by its owner).
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Shuts down the sending side (the peer reads end of stream).
    static func shutdownWriting(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// `poll(2)` on `descriptors`, retrying on `EINTR`. `timeout` is in milliseconds, -1 for none.
    /// Returns the `revents` of each descriptor (all 0 on timeout).
    static func poll(_ descriptors: [(Int32, Int16)], timeout: Int32) -> [Int16] {
        var fds = descriptors.map { pollfd(fd: $0.0, events: $0.1, revents: 0) }
        while true {
            #if canImport(Glibc)
            let result = Glibc.poll(&fds, nfds_t(fds.count), timeout)
            #else
            let result = Darwin.poll(&fds, nfds_t(fds.count), timeout)
            #endif
            if result >= 0 { return fds.map(\.revents) }
            if errno == EINTR { continue }
            // EINVAL/ENOMEM: report every descriptor as failed so callers give up.
            return fds.map { _ in failed }
        }
    }

    /// Milliseconds for `poll(2)` from seconds (at least 0, at most a day), or -1 for `nil`.
    static func milliseconds(_ seconds: Double?) -> Int32 {
        guard let seconds else { return -1 }
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int32(min(seconds * 1000, 86_400_000).rounded(.up))
    }
}
