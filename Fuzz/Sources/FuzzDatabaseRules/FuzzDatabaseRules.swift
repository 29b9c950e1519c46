// Fuzzes the Realtime Database Security Rules of `ConfigFeaturesTestServer` through the public
// `FirebaseTestServer`: loading a rules text (`setDatabaseRules(_:)`: the tolerant JSON reader,
// the expression lexer and parser, the type check, regular-expression compilation), then, when
// it loads, evaluating it on a REST read and a REST write of fuzzed data over loopback.
//
// After each input the server is reset (empty database, open rules, no request log).
//
// Input: the rules text, a zero byte, a JSON database value, a zero byte, a path.
// Checks: a refused text throws `FirebaseTestServerRulesError` with a position inside the text
// and keeps the previous rules; the server answers both requests (200, 400 or 401) within the
// time libFuzzer allows, whatever the rules and data (evaluation limits), and keeps running.
import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

let server: FirebaseTestServer = {
    signal(SIGPIPE, SIG_IGN)
    do {
        return try FirebaseTestServer()
    } catch {
        fatalError("cannot start the test server: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = FuzzInput(data, size).parts(3)
    let text = String(decoding: parts[0], as: UTF8.self)
    let previous = server.databaseRules
    do {
        try server.setDatabaseRules(text)
    } catch {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        require(error.line >= 1 && error.line <= lines + 1 && error.column >= 1, "position \(error.line):\(error.column) outside the text")
        require(!error.message.isEmpty, "an error without a message")
        require(server.databaseRules == previous, "refused rules replaced the previous ones")
        server.clearRequestLog()
        return 0
    }
    let value = parts.count > 1 ? (try? JSONValue(parsing: Data(parts[1]))) ?? .null : .null
    try? server.setDatabaseValue(value, at: "/")
    let path = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self).filter { $0.isLetter || $0.isNumber || $0 == "/" } : ""
    let body = value.serialized()
    for request in [
        "GET /\(path).json HTTP/1.1\r\nHost: x\r\n\r\n", "PUT /\(path).json HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
    ] {
        let answer = exchange(Array(request.utf8), port: server.port)
        require(answer.hasPrefix("HTTP/1.1 "), "no answer to \(request.prefix(40)): \(answer.prefix(80))")
    }
    reset()
    return 0
}

/// Back to an empty database, open rules and no recorded requests, so that nothing an input
/// built stays referenced (LeakSanitizer cannot follow Swift's enum payload pointers; see
/// lsan.supp) and inputs do not pile up state.
func reset() {
    try? server.setDatabaseValue(.null, at: "/")
    try? server.setDatabaseRules(#"{"rules": {".read": true, ".write": true}}"#)
    server.clearRequestLog()
}

/// Sends `bytes` to 127.0.0.1:`port` and reads the answer until the server closes or pauses.
func exchange(_ bytes: [UInt8], port: Int) -> String {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    precondition(socketFD >= 0, "socket: \(String(cString: strerror(errno)))")
    defer { close(socketFD) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var connected: Int32 = -1
    repeat {
        connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    } while connected != 0 && errno == EINTR
    if connected != 0 && errno != EISCONN {
        var poller = pollfd(fd: socketFD, events: Int16(POLLOUT), revents: 0)
        while poll(&poller, 1, 60_000) < 0 && errno == EINTR {}
    }
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes { send(socketFD, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        if sent < 0 && errno == EINTR { continue }
        if sent <= 0 { break }
        offset += sent
    }
    shutdown(socketFD, Int32(SHUT_WR))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, received.isEmpty ? 60_000 : 100)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 { break }
        let count = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        received += buffer[..<count]
    }
    return String(decoding: received, as: UTF8.self)
}
