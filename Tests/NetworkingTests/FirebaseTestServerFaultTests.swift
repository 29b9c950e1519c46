import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

final class FirebaseTestServerFaultTests: FirebaseTestServerTestCase {
    // MARK: Status

    func testStatus_burstOnOneRouteThenNormal() throws {
        server.publishTemplate(["a": "1"])
        server.inject(.status(503, count: 2, route: .remoteConfigFetch))
        XCTAssertEqual(server.pendingFaults, [.status(503, count: 2, route: .remoteConfigFetch)])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)  // other route
        let first = try client.send(server.fetchRequest())
        XCTAssertEqual(first.status, 503)
        XCTAssertEqual(first.json?["error"]?["code"], 503)
        XCTAssertEqual(first.json?["error"]?["status"], "UNAVAILABLE")
        XCTAssertEqual(server.pendingFaults, [.status(503, count: 1, route: .remoteConfigFetch)])
        XCTAssertEqual(try client.send(server.fetchRequest()).status, 503)
        XCTAssertEqual(server.pendingFaults, [])
        XCTAssertEqual(try client.send(server.fetchRequest()).status, 200)
        XCTAssertEqual(server.remoteConfigFetches.count, 1)
    }

    func testStatus_databaseFormatAndAnyRoute() throws {
        server.inject(.status(429))
        let result = try client.send("GET", server.databaseURL("/a"))
        XCTAssertEqual(result.status, 429)
        XCTAssertEqual(result.json, ["error": "Too Many Requests"])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
    }

    func testStatus_refusesAStream() throws {
        server.inject(.status(503, route: .remoteConfigRealtime))
        var request = URLRequest(url: server.remoteConfigRealtimeURL)
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        let result = try client.send(request)
        XCTAssertEqual(result.status, 503)
        XCTAssertEqual(result.json?["error"]?["status"], "UNAVAILABLE")
        XCTAssertEqual(server.openStreamCount(), 0)
    }

    func testFaults_areUsedInOrderAndCanBeCleared() throws {
        server.inject(.status(500, route: .database))
        server.inject(.status(504, route: .database))
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 500)
        server.inject(.status(502, route: .database))
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 504)
        server.clearFaults()
        XCTAssertEqual(server.pendingFaults, [])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
        server.inject(.status(500, count: 0))
        XCTAssertEqual(server.pendingFaults, [])
    }

    // MARK: Malformed JSON

    func testMalformedJSON_fetchAndDatabase() throws {
        server.publishTemplate(["a": "1"])
        server.inject(.malformedJSON(route: .remoteConfigFetch))
        server.inject(.malformedJSON(route: .database))
        let fetch = try client.send(server.fetchRequest())
        XCTAssertEqual(fetch.status, 200)
        XCTAssertFalse(fetch.body.isEmpty)
        XCTAssertNil(fetch.json)
        let get = try client.send("GET", server.databaseURL("/a"))
        XCTAssertEqual(get.status, 200)
        XCTAssertNil(get.json)
        XCTAssertEqual(try client.send(server.fetchRequest()).json?["state"], "UPDATE")
    }

    func testMalformedJSON_sseStreamStartsWithAMalformedPut() throws {
        try server.setDatabaseValue(1, at: "a")
        server.inject(.malformedJSON(route: .database))
        let stream = track(StreamRecorder(sse: server.databaseURL("/a")))
        wait(for: [stream.expectEvents(2)], timeout: networkTimeout)
        XCTAssertEqual(stream.events[0].event, "put")
        XCTAssertNil(stream.events[0].json)
        XCTAssertEqual(stream.events[1].json, ["path": "/", "data": 1])
    }

    func testMalformedJSON_realtimeStreamStartsWithAMalformedMessage() throws {
        server.publishTemplate(["a": "1"])
        server.inject(.malformedJSON(route: .remoteConfigRealtime))
        let stream = openRealtime(lastKnownVersion: 0)
        wait(for: [stream.expectMessages(2)], timeout: networkTimeout)
        XCTAssertThrowsError(try JSONValue(parsing: stream.messages[0]))
        XCTAssertEqual(stream.snapshot.text, #"[{"latestTemplateVersionNumber": not-a-number},{"latestTemplateVersionNumber":"1"}"#)
    }

    // MARK: Delay

    func testDelay_makesAShortClientTimeOutAndTheRequestStillHappens() throws {
        // The client gives up a second after sending (long enough for the request to reach the
        // server on a loaded machine, even under strace); the server answers two seconds later.
        server.inject(.delay(3, route: .database))
        let impatient = HTTPClient(timeout: 1)
        defer { impatient.invalidate() }
        XCTAssertThrowsError(try impatient.send("PUT", server.databaseURL("/late"), json: 1))
        XCTAssertTrue(server.waitForRequests(1, route: .database))
        XCTAssertTrue(eventually { (try? self.server.databaseValue(at: "late")) == 1 })
    }

    func testDelay_combinesWithAStatus() throws {
        server.inject(.delay(0.05, route: .database))
        server.inject(.status(503, route: .database))
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/a"), json: 1).status, 503)
        XCTAssertEqual(server.pendingFaults, [])
        XCTAssertEqual(try server.databaseValue(at: "a"), nil)
    }

    func testDelay_thenNormalAnswer() throws {
        server.inject(.delay(0.05))
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/a"), json: 1).status, 200)
        XCTAssertEqual(try server.databaseValue(at: "a"), 1)
    }

    // MARK: Redirect

    func testRedirect_getIsFollowed() throws {
        try server.setDatabaseValue("v", at: "a")
        server.inject(.redirect307(route: .database))
        let result = try client.send("GET", server.databaseURL("/a", query: ["auth": "x"]))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json, "v")
        let logged = server.requests(on: .database)
        XCTAssertEqual(logged.map(\.wasRedirected), [false, true])
        XCTAssertEqual(logged.map(\.path), ["/a.json", "/a.json"])
        XCTAssertEqual(logged.map(\.query), [["auth": "x"], ["auth": "x"]])
    }

    func testRedirect_rawLocationHeader() throws {
        server.inject(.redirect307())
        let response = try XCTUnwrap(rawExchange(port: server.port, "GET /a.json?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 307 Temporary Redirect\r\n"), response)
        XCTAssertTrue(response.contains("Location: http://127.0.0.1:\(server.port)/__redirected/a.json?x=1\r\n"), response)
    }

    func testRedirect_sseStreamIsFollowed() throws {
        try server.setDatabaseValue(1, at: "a")
        server.inject(.redirect307(route: .database))
        let stream = openSSE("/a")
        XCTAssertEqual(stream.events.first?.json, ["path": "/", "data": 1])
        XCTAssertEqual(server.requests.map(\.wasRedirected), [false, true])
    }

    func testRedirect_postIsFollowedAsAPost() throws {
        server.publishTemplate(["a": "1"])
        server.inject(.redirect307(route: .remoteConfigFetch))
        let result = try client.send(server.fetchRequest())
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json?["state"], "UPDATE")
        XCTAssertEqual(server.requests.map(\.method), ["POST", "POST"])
        XCTAssertEqual(server.requests.map(\.wasRedirected), [false, true])
        // (swift-corelibs-foundation's URLSession re-sends a 307'd POST without its body, which
        // the server accepts as `{}`; Darwin's keeps it. The next test shows the body is used.)
    }

    func testRedirect_redirectedPathCarriesTheBody() throws {
        server.publishTemplate(["a": "1"])
        let body = #"{"app_id":"app-1"}"#
        let request =
            "POST /__redirected/v1/projects/demo-project/namespaces/firebase:fetch?key=test-api-key HTTP/1.1\r\n"
            + "Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let response = try XCTUnwrap(rawExchange(port: server.port, request))
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        XCTAssertEqual(server.remoteConfigFetches.map(\.appID), ["app-1"])
        XCTAssertEqual(server.requests.first?.wasRedirected, true)
    }

    // MARK: Disconnect

    func testDisconnect_clientSeesANetworkError() throws {
        server.inject(.disconnect(route: .database))
        XCTAssertThrowsError(try client.send("GET", server.databaseURL("/a")))
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
    }

    // MARK: Dropping streams

    func testDropStreams_closesEveryStream() throws {
        server.publishTemplate(["a": "1"])
        let sse = openSSE("/a")
        let realtime = openRealtime(lastKnownVersion: 0)
        XCTAssertEqual(server.openStreamCount(), 2)
        server.dropStreams()
        XCTAssertEqual(server.openStreamCount(), 0)
        wait(for: [sse.expectFinished(), realtime.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(sse.events.count, 1)
        XCTAssertTrue(sse.snapshot.text.hasSuffix("\n\n"))
    }

    func testDropStreams_midMessage() throws {
        server.publishTemplate(["a": "1"])
        let sse = openSSE("/a")
        let realtime = openRealtime(lastKnownVersion: 0)
        wait(for: [realtime.expectMessages(1)], timeout: networkTimeout)
        server.dropStreams(midMessage: true)
        wait(for: [sse.expectFinished(), realtime.expectFinished()], timeout: networkTimeout)
        XCTAssertTrue(sse.snapshot.text.hasSuffix("\n\nevent: put\ndata: {\"path\":\"/\",\"da"), sse.snapshot.text)
        XCTAssertEqual(sse.events.count, 1)
        XCTAssertEqual(realtime.snapshot.text, #"[{"latestTemplateVersionNumber":"1"},{"latestTemplateVersionNumber": ""#)
    }

    func testDropStreams_onlyOneRoute() throws {
        let sse = openSSE("/a")
        let realtime = openRealtime(lastKnownVersion: 0)
        server.dropStreams(route: .remoteConfigRealtime)
        wait(for: [realtime.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(server.openStreamCount(route: .database), 1)
        XCTAssertFalse(sse.snapshot.isFinished)
        try server.setDatabaseValue(2, at: "a")
        wait(for: [sse.expectEvents(2)], timeout: networkTimeout)
    }

    func testDropStreams_clientCanReconnect() throws {
        let first = openSSE("/a")
        server.dropStreams()
        wait(for: [first.expectFinished()], timeout: networkTimeout)
        try server.setDatabaseValue(3, at: "a")
        let second = openSSE("/a")
        XCTAssertEqual(second.events.first?.json, ["path": "/", "data": 3])
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
    }
}
