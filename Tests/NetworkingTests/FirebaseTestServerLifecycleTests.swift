import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import XCTest

final class FirebaseTestServerLifecycleTests: FirebaseTestServerTestCase {
    // MARK: Starting and stopping

    func testServer_bindsLoopbackOnAnEphemeralPort() {
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(server.remoteConfigBaseURL, server.baseURL)
        XCTAssertEqual(server.databaseURL, server.baseURL)
        XCTAssertEqual(
            server.remoteConfigRealtimeURL.absoluteString,
            "http://127.0.0.1:\(server.port)/v1/projects/demo-project/namespaces/firebase:streamFetchInvalidations?key=test-api-key")
        XCTAssertEqual(server.project, "demo-project")
        XCTAssertEqual(server.namespace, "firebase")
        XCTAssertEqual(server.apiKey, "test-api-key")
    }

    func testStop_closesStreamsAndRefusesConnections() throws {
        let sse = openSSE("/a")
        let realtime = openRealtime(lastKnownVersion: 0)
        let port = server.port
        server.stop()
        wait(for: [sse.expectFinished(), realtime.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(server.openStreamCount(), 0)
        XCTAssertNil(rawExchange(port: port, "GET /a.json HTTP/1.1\r\n\r\n"))
        XCTAssertThrowsError(try client.send("GET", server.databaseURL("/a")))
        server.stop()  // idempotent
    }

    func testStop_interruptsADelayedRequest() throws {
        server.inject(.delay(600))
        let impatient = HTTPClient(timeout: 0.2)
        defer { impatient.invalidate() }
        XCTAssertThrowsError(try impatient.send("GET", server.databaseURL("/a")))
        server.stop()  // returns although the request would sleep 10 minutes
    }

    func testDeinit_stopsTheServer() throws {
        var other: FirebaseTestServer? = try FirebaseTestServer()
        let port = try XCTUnwrap(other?.port)
        XCTAssertNotNil(rawExchange(port: port, "GET /a.json HTTP/1.1\r\n\r\n"))
        other = nil
        XCTAssertNil(rawExchange(port: port, "GET /a.json HTTP/1.1\r\n\r\n"))
    }

    func testTwoServersAtOnce() throws {
        let other = try FirebaseTestServer(project: "other")
        defer { other.stop() }
        XCTAssertNotEqual(other.port, server.port)
        try server.setDatabaseValue("one", at: "a")
        try other.setDatabaseValue("two", at: "a")
        server.publishTemplate(["k": "1"])
        let first = openSSE("/a")
        let second = track(StreamRecorder(sse: other.databaseURL("/a")))
        wait(for: [second.expectEvents(1)], timeout: networkTimeout)
        XCTAssertEqual(first.events.first?.json?["data"], "one")
        XCTAssertEqual(second.events.first?.json?["data"], "two")
        XCTAssertEqual(try client.send(server.fetchRequest()).json?["state"], "UPDATE")
        XCTAssertEqual(try client.send(other.fetchRequest()).json?["state"], "NO_TEMPLATE")
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(other.requests.count, 2)
        other.stop()
        wait(for: [second.expectFinished()], timeout: networkTimeout)
        XCTAssertFalse(first.snapshot.isFinished)
    }

    // MARK: Observing

    func testWaitForOpenStreams_timesOutWithFalse() {
        XCTAssertFalse(server.waitForOpenStreams(1, route: .database, timeout: 0.05))
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database, timeout: 0))
    }

    func testWaitForRequests_fromAnotherThread() throws {
        let port = server.port
        let done = expectation(description: "sent")
        DispatchQueue.global().async {
            _ = rawExchange(port: port, "GET /a.json HTTP/1.1\r\n\r\n")
            _ = rawExchange(port: port, "GET /unknown HTTP/1.1\r\n\r\n")
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequests(2))
        XCTAssertTrue(server.waitForRequests(1, route: .database))
        wait(for: [done], timeout: networkTimeout)
        XCTAssertEqual(server.requests.map(\.route), [.database, nil])
        server.clearRequestLog()
        XCTAssertEqual(server.requests, [])
    }

    // MARK: Malformed requests

    func testMalformedRequests_are400AndTheServerCarriesOn() throws {
        let requests = [
            "GARBAGE\r\n\r\n",
            "GET /a.json\r\n\r\n",
            "GET /a.json HTTP/2.0\r\n\r\n",
            "GET a.json HTTP/1.1\r\n\r\n",
            "G(T /a.json HTTP/1.1\r\n\r\n",
            "GET /a.json HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET /a.json HTTP/1.1\r\nBad Name: x\r\n\r\n",
            "PUT /a.json HTTP/1.1\r\nContent-Length: -3\r\n\r\n",
            "PUT /a.json HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
            "PUT /a.json HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "PUT /a.json HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "PUT /a.json HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n1xx\r\n",
            "GET /%zz.json HTTP/1.1\r\n\r\n",
            "GET /a.json?auth=%zz HTTP/1.1\r\n\r\n",
        ]
        for request in requests {
            let response = rawExchange(port: server.port, request)
            XCTAssertEqual(response?.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), true, "\(request.debugDescription) → \(response ?? "nil")")
            XCTAssertEqual(response?.contains("Connection: close\r\n"), true)
        }
        XCTAssertEqual(server.requests, [])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
    }

    func testMalformedRequests_limits() throws {
        let hugeHeader = "GET /a.json HTTP/1.1\r\nX: " + String(repeating: "a", count: 70_000) + "\r\n\r\n"
        XCTAssertEqual(rawExchange(port: server.port, hugeHeader)?.hasPrefix("HTTP/1.1 431 "), true)
        let hugeBody = "PUT /a.json HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n"
        XCTAssertEqual(rawExchange(port: server.port, hugeBody)?.hasPrefix("HTTP/1.1 413 "), true)
        let gzip = "PUT /a.json HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"
        XCTAssertEqual(rawExchange(port: server.port, gzip)?.hasPrefix("HTTP/1.1 501 "), true)
    }

    func testClientsHangingUpNeverHurtTheServer() throws {
        XCTAssertEqual(rawExchange(port: server.port, "", closeWriting: true), "")
        XCTAssertEqual(rawExchange(port: server.port, "GET /a.js", closeWriting: true), "")
        XCTAssertEqual(rawExchange(port: server.port, "PUT /a.json HTTP/1.1\r\nContent-Length: 10\r\n\r\n{\"a\"", closeWriting: true), "")
        XCTAssertEqual(rawExchange(port: server.port, "PUT /a.json HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", closeWriting: true), "")
        // A stream whose client vanishes while the server writes.
        for _ in 0..<5 {
            let stream = openSSE("/big")
            stream.cancel()
        }
        for index in 0..<20 {
            try server.setDatabaseValue(.string(String(repeating: "x", count: 10_000 + index)), at: "big")
        }
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
        XCTAssertEqual(server.requests(on: .database).count, 6)
    }

    // MARK: HTTP details

    func testChunkedBodyAndBlankLinesBeforeTheRequest() throws {
        let request =
            "\r\nPUT /a.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"b\"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\nTrailer: t\r\n\r\n"
        let response = try XCTUnwrap(rawExchange(port: server.port, request))
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        XCTAssertTrue(response.hasSuffix("\r\n\r\n{\"b\":1}"), response)
        XCTAssertTrue(response.contains("Content-Length: 7\r\n"), response)
        XCTAssertEqual(try server.databaseValue(at: "a"), ["b": 1])
    }

    func testCompressedBodiesAre415() throws {
        let result = try client.send("PUT", server.databaseURL("/a"), body: Data([0x1F, 0x8B, 0x08, 0x00]), headers: ["Content-Encoding": "gzip"])
        XCTAssertEqual(result.status, 415)
        XCTAssertNotNil(result.json?["error"]?.stringValue)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(try server.databaseValue(at: "a"), nil)
    }

    func testExpectContinue() throws {
        let request = "PUT /a.json HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n5"
        let response = try XCTUnwrap(rawExchange(port: server.port, request))
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"), response)
        XCTAssertEqual(try server.databaseValue(at: "a"), 5)
    }

    func testHeadersAreCaseInsensitiveAndRepeatedOnesJoined() throws {
        let request = "GET /a.json HTTP/1.1\r\nACCEPT: text/event-stream\r\nX-Thing: 1\r\nx-thing: 2\r\n\r\n"
        let port = server.port
        let received = expectation(description: "raw stream answered")
        DispatchQueue.global().async {
            // The stream stays open until the server drops it.
            let response = rawExchange(port: port, request) ?? ""
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"), response)
            XCTAssertTrue(response.hasSuffix("event: put\ndata: {\"path\":\"/\",\"data\":null}\n\n"), response)
            XCTAssertFalse(response.contains("Content-Length"), response)
            received.fulfill()
        }
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
        XCTAssertEqual(server.requests.first?.header("X-THING"), "1, 2")
        server.dropStreams()
        wait(for: [received], timeout: networkTimeout)
    }

    // MARK: Concurrency

    func testConcurrentWritersAndAStream() throws {
        let stream = openSSE("/")
        let client = self.client!
        let url = server.databaseURL("/items")
        let failures = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            do {
                let result = try client.send("POST", url, json: .number(Double(index)))
                if result.status != 200 { failures.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        wait(for: [stream.expectEvents(25)], timeout: networkTimeout)
        let items = try XCTUnwrap(server.databaseValue(at: "items").objectValue)
        XCTAssertEqual(Set(items.values), Set((0..<24).map { JSONValue.number(Double($0)) }))
        // Each event names one new child: every stored child once, none twice. (Not in push-ID
        // order: concurrent requests get their IDs before they take the server's lock, so two
        // writes in the same millisecond may be applied in either order.)
        let keys = stream.events.dropFirst().compactMap { $0.json?["path"]?.stringValue }
        XCTAssertEqual(keys.count, 24)
        XCTAssertEqual(Set(keys), Set(items.keys.map { "/items/\($0)" }))
    }

    #if os(Linux)
    func testStop_leavesNoThreadsOrDescriptorsBehind() throws {
        server.stop()
        let baselineDescriptors = openDescriptorCount()
        try runAndStopAServer()
        XCTAssertTrue(eventually { serverThreadCount() == 0 }, "server threads left: \(serverThreadCount())")
        XCTAssertTrue(eventually { openDescriptorCount() <= baselineDescriptors }, "descriptors: \(openDescriptorCount()) > \(baselineDescriptors)")
    }

    private func runAndStopAServer() throws {
        let other = try FirebaseTestServer()
        let port = other.port
        other.publishTemplate(["a": "1"])
        XCTAssertNotNil(rawExchange(port: port, "GET /a.json HTTP/1.1\r\n\r\n"))
        XCTAssertNotNil(rawExchange(port: port, "BROKEN\r\n\r\n"))
        let streaming = expectation(description: "raw stream ended")
        DispatchQueue.global().async {
            _ = rawExchange(port: port, "GET /a.json HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n")
            streaming.fulfill()
        }
        XCTAssertTrue(other.waitForOpenStreams(1, route: .database))
        XCTAssertGreaterThan(serverThreadCount(), 0)
        other.stop()
        wait(for: [streaming], timeout: networkTimeout)
    }
    #endif
}

/// Polls `condition` until it holds or a deadline passes (for OS resources that are released
/// asynchronously, such as exiting threads).
func eventually(timeout: TimeInterval = networkTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

#if os(Linux)
/// Threads of this process named like the server's (`FTSrv-accept`, `FTSrv-conn`).
func serverThreadCount() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.hasPrefix("FTSrv-")
    }.count
}

/// The number of open file descriptors of this process.
func openDescriptorCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}
#endif
