@testable import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `URLSessionTransport` against the loopback `FirebaseTestServer`.
final class URLSessionTransportTests: FirebaseTestServerTestCase {
    private func databaseRequest(_ path: String, method: WireRequest.Method = .get, body: JSONValue? = nil, stream: Bool = false) -> WireRequest {
        WireRequest(
            method: method,
            url: server.databaseURL.appendingPathComponent(path + ".json"),
            headers: stream ? ["Accept": "text/event-stream"] : ["Content-Type": "application/json"],
            body: body?.data()
        )
    }

    private func fetchRequest(body: JSONValue = ["app_id": "1:1:ios:1", "app_instance_id": "instance"]) -> WireRequest {
        WireRequest(method: .post, url: server.remoteConfigFetchURL, headers: ["Content-Type": "application/json", "If-None-Match": "*"], body: body.data())
    }

    // MARK: - send

    func testURLSessionTransport_sendReturnsStatusHeadersAndBody() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["a": 1, "b": "two"], at: "items")
            let response = try URLSessionTransport().send(databaseRequest("items"), timeout: networkTimeout).toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(try JSONValue(parsing: response.body), ["a": 1, "b": "two"])
            XCTAssertNotNil(response.header("content-type"))
        }
    }

    func testURLSessionTransport_sendFailsInsteadOfBufferingABodyPastItsLimit() throws {
        try XCTAssertNoLeaksEventually {
            // About 200 kB of JSON against a 64 KiB limit: typed error, the exchange cancelled.
            let big = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("k\($0)", JSONValue.string(String(repeating: "x", count: 100))) }))
            try server.setDatabaseValue(big, at: "big")
            let limited = URLSessionTransport(maximumResponseSize: 64 << 10)
            let result = limited.send(databaseRequest("big"), timeout: networkTimeout).toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(let elements, let error) = result else { return XCTFail("\(result)") }
            XCTAssertTrue(elements.isEmpty)
            XCTAssertEqual(error as? HTTPTransportError, .responseTooLarge(limit: 64 << 10))
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
            // Under the limit the same body arrives whole.
            let response = try URLSessionTransport(maximumResponseSize: 1 << 20).send(databaseRequest("big"), timeout: networkTimeout).toBlocking(
                timeout: networkTimeout
            ).single()
            XCTAssertEqual(try JSONValue(parsing: response.body), big)
            XCTAssertEqual(URLSessionTransport().maximumResponseSize, 16 << 20)
        }
    }

    func testHTTPRemoteConfigBackend_reportsAnOversizedFetchAsMessageTooLarge() {
        XCTAssertEqual(HTTPRemoteConfigBackend.backendError(HTTPTransportError.responseTooLarge(limit: 16 << 20)), .messageTooLarge(limit: 16 << 20))
    }

    func testURLSessionTransport_sendSendsMethodHeadersAndBody() throws {
        try XCTAssertNoLeaksEventually {
            let transport = URLSessionTransport()
            let put = try transport.send(databaseRequest("x/y", method: .put, body: ["z": true]), timeout: networkTimeout).toBlocking(timeout: networkTimeout)
                .single()
            XCTAssertEqual(put.statusCode, 200)
            XCTAssertEqual(try server.databaseValue(at: "x"), ["y": ["z": true]])
            _ = try transport.send(fetchRequest(), timeout: networkTimeout).toBlocking(timeout: networkTimeout).single()
            let recorded = try XCTUnwrap(server.requests(on: .remoteConfigFetch).last)
            XCTAssertEqual(recorded.method, "POST")
            XCTAssertEqual(recorded.header("If-None-Match"), "*")
            XCTAssertEqual(recorded.bodyJSON, ["app_id": "1:1:ios:1", "app_instance_id": "instance"])
        }
    }

    func testURLSessionTransport_sendReportsErrorStatusesAsResponses() throws {
        try XCTAssertNoLeaksEventually {
            server.inject(.status(503, route: .remoteConfigFetch))
            let response = try URLSessionTransport().send(fetchRequest(), timeout: networkTimeout).toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(response.statusCode, 503)
            XCTAssertFalse(response.body.isEmpty, "the error body is kept")
        }
    }

    func testURLSessionTransport_sendFollows307KeepingMethodBodyAndHeaders() throws {
        try XCTAssertNoLeaksEventually {
            server.inject(.redirect307(route: .remoteConfigFetch))
            let body: JSONValue = ["app_id": "1:1:ios:1", "app_instance_id": "after-redirect"]
            let response = try URLSessionTransport().send(fetchRequest(body: body), timeout: networkTimeout).toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(response.statusCode, 200)
            let requests = server.requests(on: .remoteConfigFetch)
            XCTAssertEqual(requests.map(\.wasRedirected), [false, true])
            XCTAssertEqual(requests.last?.method, "POST")
            XCTAssertEqual(requests.last?.bodyJSON, body)
            XCTAssertEqual(requests.last?.header("If-None-Match"), "*")
        }
    }

    func testURLSessionTransport_sendTimesOut() throws {
        XCTAssertNoLeaksEventually {
            server.inject(.delay(3, route: .remoteConfigFetch))
            let result = URLSessionTransport().send(fetchRequest(), timeout: 0.3).toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(_, let error) = result, case HTTPTransportError.timedOut = error else {
                return XCTFail("expected a timeout, got \(result)")
            }
        }
    }

    func testURLSessionTransport_sendCannotConnectToAStoppedServer() throws {
        let url = server.remoteConfigFetchURL
        server.stop()
        XCTAssertNoLeaksEventually {
            let request = WireRequest(method: .post, url: url, body: Data("{}".utf8))
            let result = URLSessionTransport().send(request, timeout: networkTimeout).toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(_, let error) = result, case HTTPTransportError.cannotConnect = error else {
                return XCTFail("expected cannotConnect, got \(result)")
            }
        }
    }

    func testURLSessionTransport_sendReportsAConnectionClosedWithoutAnswer() throws {
        XCTAssertNoLeaksEventually {
            server.inject(.disconnect(route: .remoteConfigFetch))
            let result = URLSessionTransport().send(fetchRequest(), timeout: networkTimeout).toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(_, let error as HTTPTransportError) = result else {
                return XCTFail("expected a transport error, got \(result)")
            }
            switch error {
            case .connectionLost, .failed: break
            case .timedOut, .cannotConnect, .responseTooLarge: XCTFail("unexpected \(error)")
            }
        }
    }

    func testURLSessionTransport_disposingSendCancelsIt() throws {
        XCTAssertNoLeaksEventually {
            server.inject(.delay(1, route: .remoteConfigFetch))
            let recorder = EventRecorder(URLSessionTransport().send(fetchRequest(), timeout: networkTimeout))
            XCTAssertTrue(server.waitForRequests(1, route: .remoteConfigFetch))
            recorder.dispose()
            XCTAssertFalse(recorder.wait(timeout: 1.5) { !$0.isEmpty }, "a disposed request reports nothing, even after the server answers")
        }
    }

    // MARK: - stream

    func testURLSessionTransport_streamDeliversResponseThenChunksUntilTheServerCloses() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["a": 1], at: "feed")
            let recorder = EventRecorder(URLSessionTransport().stream(databaseRequest("feed", stream: true)))
            XCTAssertTrue(recorder.wait { streamedText($0).contains("event: put") })
            guard case .next(.response(200, let headers))? = recorder.events.first else {
                return XCTFail("the response comes first: \(recorder.events)")
            }
            XCTAssertEqual(WireHeaders.value(of: "content-type", in: headers)?.hasPrefix("text/event-stream"), true)
            try server.setDatabaseValue(2, at: "feed/b")
            XCTAssertTrue(recorder.wait { streamedText($0).contains(#""path":"/b""#) })
            server.dropStreams(route: .database)
            XCTAssertTrue(recorder.waitForTermination())
            guard case .completed? = recorder.events.last else { return XCTFail("\(recorder.events)") }
            XCTAssertEqual(recorder.events.dropFirst().filter { if case .next(.response) = $0 { return true } else { return false } }.count, 0)
        }
    }

    func testURLSessionTransport_streamFollows307() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue("v", at: "r")
            server.inject(.redirect307(route: .database))
            let recorder = EventRecorder(URLSessionTransport().stream(databaseRequest("r", stream: true)))
            XCTAssertTrue(recorder.wait { streamedText($0).contains(#""data":"v""#) })
            XCTAssertEqual(server.requests(on: .database).map(\.wasRedirected), [false, true])
            XCTAssertEqual(server.requests(on: .database).last?.header("Accept"), "text/event-stream")
            recorder.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testURLSessionTransport_disposingAStreamClosesTheConnection() throws {
        try XCTAssertNoLeaksEventually {
            let recorder = EventRecorder(URLSessionTransport().stream(databaseRequest("s", stream: true)))
            XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
            XCTAssertTrue(recorder.wait { streamedText($0).contains("event: put") })
            recorder.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
            let count = recorder.events.count
            try server.setDatabaseValue(1, at: "s")
            XCTAssertFalse(recorder.isTerminated, "a disposed stream reports nothing")
            XCTAssertEqual(recorder.events.count, count)
        }
    }

    func testURLSessionTransport_streamTimesOutWhenIdle() throws {
        XCTAssertNoLeaksEventually {
            let transport = URLSessionTransport(streamIdleTimeout: 0.5)
            let recorder = EventRecorder(transport.stream(databaseRequest("quiet", stream: true)))
            XCTAssertTrue(recorder.waitForTermination())
            guard case .error(HTTPTransportError.timedOut)? = recorder.events.last else {
                return XCTFail("expected a timeout, got \(recorder.events)")
            }
        }
    }

    func testURLSessionTransport_streamIdleTimeoutRestartsWithEveryChunk() throws {
        XCTAssertNoLeaksEventually {
            server.databaseKeepAliveInterval = 0.05
            let transport = URLSessionTransport(streamIdleTimeout: 0.5)
            let recorder = EventRecorder(transport.stream(databaseRequest("alive", stream: true)))
            // 20 keep-alives take at least 1 s, twice the idle timeout.
            XCTAssertTrue(recorder.wait { streamedText($0).components(separatedBy: "event: keep-alive").count > 20 || ($0.last?.isStopEvent ?? false) })
            XCTAssertFalse(recorder.isTerminated, "\(recorder.events.last.map { "\($0)" } ?? "")")
            recorder.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testURLSessionTransport_streamReportsErrorStatusWithItsBody() throws {
        XCTAssertNoLeaksEventually {
            server.requireDatabaseAuth(validTokens: ["good"])
            let recorder = EventRecorder(URLSessionTransport().stream(databaseRequest("secret", stream: true)))
            XCTAssertTrue(recorder.waitForTermination())
            guard case .next(.response(401, _))? = recorder.events.first else { return XCTFail("\(recorder.events)") }
            XCTAssertTrue(streamedText(recorder.events).contains("error"))
            guard case .completed? = recorder.events.last else { return XCTFail("\(recorder.events)") }
        }
    }

    // MARK: - Mapping

    func testURLSessionTransport_mapsURLErrors() {
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.timedOut)).kind, "timedOut")
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.cannotConnectToHost)).kind, "cannotConnect")
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.cannotFindHost)).kind, "cannotConnect")
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.notConnectedToInternet)).kind, "cannotConnect")
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.networkConnectionLost)).kind, "connectionLost")
        XCTAssertEqual(URLSessionTransport.transportError(for: URLError(.badServerResponse)).kind, "failed")
        XCTAssertEqual(URLSessionTransport.transportError(for: CocoaError(.fileNoSuchFile)).kind, "failed")
    }
}

extension HTTPTransportError {
    /// The case name (for assertions that ignore the message).
    var kind: String {
        switch self {
        case .timedOut: return "timedOut"
        case .cannotConnect: return "cannotConnect"
        case .connectionLost: return "connectionLost"
        case .failed: return "failed"
        case .responseTooLarge: return "responseTooLarge"
        }
    }
}
