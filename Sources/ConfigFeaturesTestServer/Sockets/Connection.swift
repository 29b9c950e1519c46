#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Streams

/// One accepted TCP connection, served by its own thread.
///
/// Every blocking call (`receive`, `send`, `wait`, `pause`) polls the socket together with a
/// doorbell, so other threads can wake the connection's thread without touching its socket:
/// `ring()` when new stream data was queued, `abort()` when the server stops. Only the serving
/// thread reads, writes and closes the socket.
final class Connection: @unchecked Sendable {
    // Safety: `socket` is used only by the serving thread (the only caller of every method but
    // `ring`, `abort` and `isAborted`); the doorbell is thread-safe; `aborted` and `finished` are
    // guarded by their locks.
    /// A number identifying the connection in the server's state.
    let id: UInt64
    private let socket: Int32
    private let doorbell: Doorbell
    private let aborted = LockedState(false)
    private let finished = LockedState(false)

    /// What ended a wait.
    enum Wake {
        /// The doorbell rang (new data may be queued, or the server is stopping).
        case rung
        /// The peer closed its side or the connection failed.
        case peerClosed
        /// The timeout passed.
        case timedOut
    }

    /// Wraps an accepted socket.
    init(id: UInt64, socket: Int32) throws(FirebaseTestServerError) {
        self.id = id
        self.socket = socket
        doorbell = try Doorbell()
        POSIX.configureConnection(socket)
    }

    deinit { finish(linger: false) }

    // MARK: Waking from other threads

    /// Wakes the serving thread so it re-reads the shared state.
    func ring() { doorbell.ring() }

    /// Makes every blocking call return at once, failing, from now on (the server is stopping).
    func abort() {
        aborted.withLock { $0 = true }
        doorbell.ring()
    }

    /// Whether `abort()` was called.
    var isAborted: Bool { aborted.withLock { $0 } }

    // MARK: Serving thread

    /// Reads what is available (at most `maximum` bytes): `nil` at the end of the stream, on an
    /// error, or when aborted.
    func receive(maximum: Int = 16 * 1024) -> [UInt8]? {
        while true {
            if isAborted { return nil }
            let events = POSIX.poll([(socket, POSIX.readable), (doorbell.descriptor, POSIX.readable)], timeout: -1)
            if events[1] != 0 { doorbell.drain(); continue }
            guard events[0] != 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: maximum)
            let count = recv(socket, &bytes, maximum, 0)
            if count > 0 { return Array(bytes.prefix(count)) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return nil
        }
    }

    /// Writes all of `data`; `false` if the peer went away or the connection was aborted.
    @discardableResult
    func send(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            if isAborted { return false }
            let events = POSIX.poll([(socket, POSIX.writable), (doorbell.descriptor, POSIX.readable)], timeout: -1)
            if events[1] != 0 {
                // Rung while writing: the caller re-reads the state after this write.
                doorbell.drain()
                continue
            }
            guard events[0] != 0 else { continue }
            let count = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.send(socket, buffer.baseAddress, buffer.count, POSIX.sendFlags)
                #else
                Darwin.send(socket, buffer.baseAddress, buffer.count, POSIX.sendFlags)
                #endif
            }
            if count > 0 {
                offset += count
            } else if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Waits for the doorbell, the peer closing, or `timeout` seconds (`nil`: no timeout).
    /// Bytes the peer sends meanwhile are read and dropped.
    func wait(timeout: TimeInterval?) -> Wake {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if isAborted { return .rung }
            let remaining = deadline.map { $0.timeIntervalSinceNow }
            if let remaining, remaining <= 0 { return .timedOut }
            let events = POSIX.poll([(socket, POSIX.readable), (doorbell.descriptor, POSIX.readable)], timeout: POSIX.milliseconds(remaining))
            if events[1] != 0 {
                doorbell.drain()
                return .rung
            }
            if events[0] != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = recv(socket, &bytes, bytes.count, 0)
                if count > 0 { continue }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                return .peerClosed
            }
        }
    }

    /// Sleeps `seconds` (for the delay fault); `false` if aborted meanwhile.
    func pause(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !isAborted {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return true }
            let events = POSIX.poll([(doorbell.descriptor, POSIX.readable)], timeout: POSIX.milliseconds(remaining))
            if events[0] != 0 { doorbell.drain() }
        }
        return false
    }

    /// Ends the connection (once): shuts down writing so the peer reads the end of the response,
    /// then, when `linger` is set, reads until the peer closes too (bounded), so that unread
    /// request bytes don't turn the close into a reset that could destroy the response.
    func finish(linger: Bool = true) {
        let first = finished.withLock { finished -> Bool in
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        POSIX.shutdownWriting(socket)
        if linger {
            let deadline = Date().addingTimeInterval(2)
            reading: while !isAborted {
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { break }
                let events = POSIX.poll([(socket, POSIX.readable), (doorbell.descriptor, POSIX.readable)], timeout: POSIX.milliseconds(remaining))
                if events[1] != 0 { doorbell.drain(); continue }
                guard events[0] != 0 else { continue }
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = recv(socket, &bytes, bytes.count, 0)
                if count > 0 { continue }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                break reading
            }
        }
        POSIX.close(socket)
    }
}
