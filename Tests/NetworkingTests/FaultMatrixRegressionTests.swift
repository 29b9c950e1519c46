import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest

/// Regressions found by the fault matrix.
final class FaultMatrixRegressionTests: FirebaseTestServerTestCase {
    /// A raw TCP client that reads only when asked, so the server's writes can be made to block.
    private final class SlowReader {
        let descriptor: Int32
        private(set) var received: [UInt8] = []

        /// Connects with a small receive buffer, so the server's send blocks early.
        init?(port: Int) {
            guard let descriptor = connectLoopback(port: port, receiveBuffer: 4096) else { return nil }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #if canImport(Glibc)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            _ = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
        }

        /// Reads until at least `count` bytes arrived in all; whether they did.
        func read(atLeast count: Int) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while received.count < count {
                let read = recv(descriptor, &buffer, buffer.count, 0)
                if read <= 0 { return false }
                received += buffer[..<read]
            }
            return true
        }

        /// Reads until the server closes (`true`) or the receive timeout passes (`false`).
        func readToEnd() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let read = recv(descriptor, &buffer, buffer.count, 0)
                if read == 0 { return true }
                if read < 0 { return errno == EINTR ? readToEnd() : false }
                received += buffer[..<read]
            }
        }
    }

    /// `dropStreams` rang the stream thread's doorbell while it was blocked writing a large
    /// event; the write drained the ring, and the thread then waited for another ring without
    /// re-reading the state, so the stream never closed (the client never reconnected). Seen in
    /// the fault matrix as a Remote Config realtime stream that a drop right after a message
    /// left open.
    func testDropWhileTheStreamThreadIsWritingClosesTheStream() throws {
        let big = String(repeating: "x", count: 16 << 20)
        try server.setDatabaseValue(.string(big), at: "big")
        let reader = try XCTUnwrap(SlowReader(port: server.port))
        reader.send("GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
        // The head and the start of the snapshot arrived: the thread has read the state and is
        // writing the 16 MB event, which cannot fit in the socket buffers until we read.
        XCTAssertTrue(reader.read(atLeast: 64 * 1024))
        server.dropStreams(route: .database)
        XCTAssertEqual(server.openStreamCount(route: .database), 0)
        XCTAssertTrue(reader.readToEnd(), "the server closed the stream after the event")
        XCTAssertGreaterThan(reader.received.count, big.utf8.count, "the whole event was written first")
    }
}
