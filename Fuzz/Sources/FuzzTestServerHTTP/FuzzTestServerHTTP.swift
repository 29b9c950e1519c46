// Fuzzes the HTTP request reader of `ConfigFeaturesTestServer` (`HTTPRequestReader` and
// `HTTPRequest`, internal) and the endpoints behind it, through the public
// `FirebaseTestServer`: the bytes are sent as they are over a loopback TCP connection, then
// the write side is shut and the answer read.
//
// After each input the server's state is reset (open streams dropped, request log cleared,
// database emptied), so that inputs do not pile up state. A request that opens a stream gets
// its first bytes and is then dropped.
//
// Input: the raw bytes of the request(s).
// Check: the server answers or closes within the time libFuzzer allows (-timeout), and keeps
// running (a crash of any of its threads is a crash of this process).
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
        let server = try FirebaseTestServer()
        _ = server.publishTemplate(["welcome": "hello", "items": #"[{"id":1,"title":"one"}]"#])
        try server.setDatabaseValue(["seed": true], at: "/")
        return server
    } catch {
        fatalError("cannot start the test server: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    exchange(input.bytes, port: server.port)
    server.dropStreams()
    server.clearRequestLog()
    try? server.setDatabaseValue(["seed": true], at: "/")
    return 0
}

/// Sends `bytes` to 127.0.0.1:`port`, shuts the write side, and reads until the server closes
/// (or, for a stream that stays open, until nothing more arrives for 100 ms).
func exchange(_ bytes: [UInt8], port: Int) {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    precondition(socketFD >= 0, "socket: \(String(cString: strerror(errno)))")
    defer { close(socketFD) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    // A signal (libFuzzer's own timers) can interrupt `connect`; the connection then completes
    // in the background: wait until the socket is writable and read its outcome. (Found by the
    // 10-minute run: the harness trapped on EINTR, the server was fine.)
    if connected != 0 {
        precondition(errno == EINTR || errno == EINPROGRESS, "connect: \(String(cString: strerror(errno)))")
        var poller = pollfd(fd: socketFD, events: Int16(POLLOUT), revents: 0)
        while poll(&poller, 1, 60_000) < 0 && errno == EINTR {}
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socketFD, SOL_SOCKET, SO_ERROR, &failure, &length)
        precondition(failure == 0, "connect: \(String(cString: strerror(failure)))")
    }
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes { send(socketFD, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        if sent < 0 && errno == EINTR { continue }
        if sent <= 0 { break }  // the server answered early (e.g. 431) and closed
        offset += sent
    }
    shutdown(socketFD, Int32(SHUT_WR))
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var received = 0
    while true {
        var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
        // Until the first byte, wait as long as libFuzzer allows; after it, a pause of 100 ms
        // means an open stream.
        let ready = poll(&poller, 1, received == 0 ? 60_000 : 100)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 { return }
        let count = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        received += count
    }
}
