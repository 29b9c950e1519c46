import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that answers every request with the response the
/// fuzz target set last: the way bytes from libFuzzer reach the network clients
/// (`HTTPRemoteConfigBackend`, `FirebaseRESTDatabase`), whose transport is not public.
///
/// One thread accepts and serves connections one at a time (each gets `Connection: close`).
/// The request is read whole (head and `Content-Length` body, `100 Continue` when asked) and
/// ignored; the response is written, in `pieces` writes for a streamed body so that the client
/// sees several chunks, and the connection is closed. Nothing here reaches beyond loopback.
public final class LoopbackHTTPServer: @unchecked Sendable {
    // Safety: `response` and `served` are guarded by `lock`; the descriptor and port are
    // immutable after `init`.

    /// How the body is delimited.
    public enum Framing: Sendable {
        /// `Content-Length` (one-shot responses).
        case contentLength
        /// No length: the body ends when the server closes the connection (streams).
        case closeDelimited
    }

    /// What the server answers.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        public var framing: Framing
        /// In how many writes the body is sent (1 or more), with a short pause between them.
        public var pieces: Int

        public init(status: Int = 200, contentType: String = "application/json", body: [UInt8], framing: Framing = .contentLength, pieces: Int = 1) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.framing = framing
            self.pieces = pieces
        }
    }

    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let lock = NSLock()
    private var response = Response(body: Array("null".utf8))
    private var served = 0

    /// Binds an ephemeral port on 127.0.0.1 and starts serving. Traps if the socket cannot be
    /// set up (a fuzzer without its server is of no use).
    public init() {
        signal(SIGPIPE, SIG_IGN)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "bind: \(String(cString: strerror(errno)))")
        precondition(listen(fd, 64) == 0, "listen: \(String(cString: strerror(errno)))")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer"
        thread.start()
    }

    /// Sets the response to every following request.
    public func respond(with response: Response) {
        lock.lock()
        self.response = response
        lock.unlock()
    }

    /// How many connections have been answered so far.
    public var connectionsServed: Int {
        lock.lock()
        defer { lock.unlock() }
        return served
    }

    // MARK: - Serving

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            serve(connection)
            close(connection)
            lock.lock()
            served += 1
            lock.unlock()
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard readRequest(connection) else { return }
        lock.lock()
        let response = self.response
        lock.unlock()
        write(response, to: connection)
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Reads one request (head, then a `Content-Length` body); false if the client went away.
    private func readRequest(_ connection: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            received += buffer[0..<count]
            headEnd = Self.find(terminator, in: received)
            if headEnd == nil && received.count > 1 << 20 { return false }
        }
        let bodyStart = headEnd! + terminator.count
        let head = String(decoding: received[0..<headEnd!], as: UTF8.self).lowercased()
        var contentLength = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        if head.contains("expect: 100-continue") { sendAll(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection) }
        var bodyCount = received.count - bodyStart
        while bodyCount < contentLength {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            bodyCount += count
        }
        return true
    }

    private func write(_ response: Response, to connection: Int32) {
        var head = "HTTP/1.1 \(response.status) Fuzz\r\nContent-Type: \(response.contentType)\r\nConnection: close\r\n"
        let hasBody = response.status != 204 && response.status != 304 && !(100..<200).contains(response.status)
        let body = hasBody ? response.body : []
        if response.framing == .contentLength || !hasBody { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        guard sendAll(Array(head.utf8), to: connection) else { return }
        let pieces = FuzzInput.chunks(of: body, sizes: [max(1, (body.count + response.pieces - 1) / max(response.pieces, 1))])
        for (index, piece) in pieces.enumerated() {
            if index > 0 { usleep(200) }
            guard sendAll(Array(piece), to: connection) else { return }
        }
    }

    @discardableResult
    private func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
