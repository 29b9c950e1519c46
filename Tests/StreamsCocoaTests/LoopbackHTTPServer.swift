#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StreamsCocoa

/// A tiny HTTP/1.1 server on `127.0.0.1` for `URLSession.rx` tests: a thread accepts
/// connections, a thread per connection reads one request and answers it from `routes`.
///
/// A `.hold` route reads the request and never answers; its connection thread then reports
/// when the client closes the connection (what a cancelled task does).
final class LoopbackHTTPServer: @unchecked Sendable {
    // Safety: `routes`, `listener`, `port` and the callbacks are immutable after `init`; the
    // mutable bookkeeping is in `state`, behind its lock. Each accepted descriptor is used by
    // its own connection thread only (`stop()` only shuts descriptors down, which is
    // thread-safe, and the owning thread closes them).

    /// How a route answers.
    enum Reply: Sendable {
        /// Answers with `status` and `body`, then closes the connection.
        case respond(status: Int, body: String, contentType: String = "text/plain")
        /// Answers nothing; waits until the client closes the connection.
        case hold
    }

    private struct State {
        var requests: [String] = []
        var open: Set<Int32> = []
        var stopped = false
    }

    /// The port the server listens on.
    let port: Int
    private let listener: Int32
    private let routes: [String: Reply]
    private let onRequest: @Sendable (String) -> Void
    private let onClientClosedHeld: @Sendable (String) -> Void
    private let state = LockedState(State())
    private let threads = DispatchGroup()

    /// Starts listening on an ephemeral port.
    ///
    /// - Parameters:
    ///   - routes: The reply for each request path; other paths get a 404.
    ///   - onRequest: Called with the path of each request once it has been read.
    ///   - onClientClosedHeld: Called with the path of a `.hold` request whose client closed.
    init(
        routes: [String: Reply],
        onRequest: @escaping @Sendable (String) -> Void = { _ in },
        onClientClosedHeld: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.routes = routes
        self.onRequest = onRequest
        self.onClientClosedHeld = onClientClosedHeld
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServerError(step: "socket") }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ServerError(step: "bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        threads.enter()
        Thread { [self] in
            acceptLoop()
            threads.leave()
        }.start()
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The paths of the requests read so far, in order.
    var requests: [String] { state.withLock { $0.requests } }

    /// Stops accepting, shuts down open connections and waits for every server thread to end.
    func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.stopped = true
            return state.open
        }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        threads.wait()
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.open.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            threads.enter()
            Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.open.remove(connection) }
                close(connection)
                threads.leave()
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard let head = readHead(connection) else { return }
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = requestLine.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        state.withLock { $0.requests.append(path) }
        onRequest(path)
        switch routes[path] ?? .respond(status: 404, body: "no route for \(path)") {
        case .respond(let status, let body, let contentType):
            let bytes = Array(body.utf8)
            let header =
                "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
                + "Content-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            send(connection, Array(header.utf8) + bytes)
        case .hold:
            // Nothing is sent: read until the client closes (0) or the server stops (error).
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count > 0 { continue }
                if count < 0 && errno == EINTR { continue }
                if count == 0 { onClientClosedHeld(path) }
                return
            }
        }
    }

    /// Reads up to the blank line that ends the request head.
    private func readHead(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.firstRange(of: end) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while offset < bytes.count {
            #if canImport(Glibc)
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, flags) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(connection, $0.baseAddress, $0.count, flags) }
            #endif
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    struct ServerError: Error {
        let step: String
    }
}
