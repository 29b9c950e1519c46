import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

final class FirebaseTestServerRemoteConfigTests: FirebaseTestServerTestCase {
    // MARK: Fetch

    func testFetch_noTemplate() throws {
        let result = try client.send(server.fetchRequest())
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json, ["state": "NO_TEMPLATE"])
        XCTAssertEqual(result.header("ETag"), "etag-demo-project-0")
        XCTAssertNil(server.templateVersion)
    }

    func testFetch_update() throws {
        XCTAssertEqual(server.publishTemplate(["welcome": "hi", "limit": "3"]), 1)
        let result = try client.send(server.fetchRequest())
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.text, #"{"entries":{"limit":"3","welcome":"hi"},"state":"UPDATE","templateVersion":"1"}"#)
        XCTAssertEqual(result.header("ETag"), "etag-demo-project-1")
        XCTAssertEqual(server.remoteConfigETag, "etag-demo-project-1")
        XCTAssertEqual(result.header("Content-Type"), "application/json; charset=utf-8")
    }

    func testFetch_emptyConfig() throws {
        server.publishTemplate([:])
        let result = try client.send(server.fetchRequest())
        XCTAssertEqual(result.json, ["state": "EMPTY_CONFIG", "templateVersion": "1"])
    }

    func testFetch_removeTemplateAnswersNoTemplateAndVersionsKeepIncreasing() throws {
        server.publishTemplate(["a": "1"])
        server.removeTemplate()
        XCTAssertEqual(try client.send(server.fetchRequest()).json, ["state": "NO_TEMPLATE"])
        XCTAssertEqual(server.publishTemplate(["a": "2"]), 2)
        XCTAssertEqual(server.templateVersion, 2)
        XCTAssertEqual(server.templateEntries, ["a": "2"])
    }

    func testFetch_matchingETagAnswers304() throws {
        server.publishTemplate(["a": "1"])
        let result = try client.send(server.fetchRequest(eTag: "etag-demo-project-1"))
        XCTAssertEqual(result.status, 304)
        XCTAssertEqual(result.body, Data())
        XCTAssertEqual(server.remoteConfigFetches.map(\.answeredState), ["NO_CHANGE"])
    }

    func testFetch_staleETagAnswersUpdate() throws {
        server.publishTemplate(["a": "1"])
        server.publishTemplate(["a": "2"])
        let result = try client.send(server.fetchRequest(eTag: "etag-demo-project-1"))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json?["entries"], ["a": "2"])
        XCTAssertEqual(result.json?["templateVersion"], "2")
    }

    func testFetch_matchingETagCanAnswerNoChangeBody() throws {
        server.publishTemplate(["a": "1"])
        server.remoteConfigNoChangeResponse = .noChangeState
        XCTAssertEqual(server.remoteConfigNoChangeResponse, .noChangeState)
        let result = try client.send(server.fetchRequest(eTag: "etag-demo-project-1"))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.text, #"{"state":"NO_CHANGE","templateVersion":"1"}"#)
        XCTAssertEqual(result.header("ETag"), "etag-demo-project-1")
    }

    func testFetch_wildcardETagIsNotAMatch() throws {
        server.publishTemplate(["a": "1"])
        XCTAssertEqual(try client.send(server.fetchRequest(eTag: "*")).status, 200)
    }

    func testFetch_recordsTheBody() throws {
        server.publishTemplate(["a": "1"])
        _ = try client.send(server.fetchRequest(eTag: "*"))
        let fetches = server.remoteConfigFetches
        XCTAssertEqual(fetches.count, 1)
        XCTAssertEqual(fetches[0].appInstanceID, "instance-1")
        XCTAssertEqual(fetches[0].appInstanceIDToken, "token-1")
        XCTAssertEqual(fetches[0].appID, "1:123:ios:abc")
        XCTAssertEqual(fetches[0].sdkVersion, "11.0.0")
        XCTAssertEqual(fetches[0].languageCode, "en-GB")
        XCTAssertEqual(fetches[0].customSignals, ["tier": "gold", "level": 3])
        XCTAssertEqual(fetches[0].ifNoneMatch, "*")
        XCTAssertEqual(fetches[0].fetchType, "BASE/1")
        XCTAssertEqual(fetches[0].answeredState, "UPDATE")
        let logged = server.requests(on: .remoteConfigFetch)
        XCTAssertEqual(logged.count, 1)
        XCTAssertEqual(logged[0].method, "POST")
        XCTAssertEqual(logged[0].path, "/v1/projects/demo-project/namespaces/firebase:fetch")
        XCTAssertEqual(logged[0].query, ["key": "test-api-key"])
        XCTAssertEqual(logged[0].header("x-firebase-rc-fetch-type"), "BASE/1")
        XCTAssertEqual(logged[0].bodyJSON?["app_id"], "1:123:ios:abc")
        XCTAssertFalse(logged[0].wasRedirected)
    }

    func testFetch_wrongKeyIs400() throws {
        let result = try client.send(server.fetchRequest(key: "wrong"))
        XCTAssertEqual(result.status, 400)
        XCTAssertEqual(result.json?["error"]?["code"], 400)
        XCTAssertEqual(result.json?["error"]?["status"], "INVALID_ARGUMENT")
        XCTAssertEqual(server.remoteConfigFetches, [])
    }

    func testFetch_missingKeyIs403() throws {
        let result = try client.send(server.fetchRequest(key: ""))
        XCTAssertEqual(result.status, 403)
        XCTAssertEqual(result.json?["error"]?["status"], "PERMISSION_DENIED")
    }

    func testFetch_wrongProjectIs403() throws {
        let result = try client.send(server.fetchRequest(project: "other-project"))
        XCTAssertEqual(result.status, 403)
        XCTAssertEqual(result.json?["error"]?["code"], 403)
        XCTAssertEqual(result.json?["error"]?["status"], "PERMISSION_DENIED")
        XCTAssertNotNil(result.json?["error"]?["message"]?.stringValue)
    }

    func testFetch_malformedBodyIs400() throws {
        for body in ["{not json", "[1,2]", "\"text\""] {
            let result = try client.send(server.fetchRequest(body: Data(body.utf8)))
            XCTAssertEqual(result.status, 400, body)
            XCTAssertEqual(result.json?["error"]?["status"], "INVALID_ARGUMENT", body)
        }
        XCTAssertEqual(server.remoteConfigFetches, [])
    }

    func testFetch_getIsRejected() throws {
        let result = try client.send("GET", server.remoteConfigFetchURL)
        XCTAssertEqual(result.status, 404)
    }

    func testServer_customProjectNamespaceAndKey() throws {
        let other = try FirebaseTestServer(project: "p2", namespace: "ns2", apiKey: "k2")
        defer { other.stop() }
        XCTAssertEqual(other.remoteConfigFetchURL.absoluteString, "http://127.0.0.1:\(other.port)/v1/projects/p2/namespaces/ns2:fetch?key=k2")
        other.publishTemplate(["x": "y"])
        let result = try client.send(other.fetchRequest())
        XCTAssertEqual(result.json?["entries"], ["x": "y"])
        XCTAssertEqual(result.header("ETag"), "etag-p2-1")
    }

    // MARK: Realtime

    func testRealtime_announcesANewerVersionAtOnce() throws {
        server.publishTemplate(["a": "1"])
        server.publishTemplate(["a": "2"])
        let stream = openRealtime(lastKnownVersion: 1)
        wait(for: [stream.expectMessages(1)], timeout: networkTimeout)
        XCTAssertEqual(stream.snapshot.text, #"[{"latestTemplateVersionNumber":"2"}"#)
        XCTAssertEqual(stream.snapshot.status, 200)
        XCTAssertEqual(server.remoteConfigRealtimeConnections.map(\.lastKnownVersionNumber), [1])
    }

    func testRealtime_upToDateClientGetsOnlyTheOpeningBracketThenPublications() throws {
        server.publishTemplate(["a": "1"])
        let stream = openRealtime(lastKnownVersion: 1)
        wait(for: [stream.expectation("[") { $0.text == "[" }], timeout: networkTimeout)
        XCTAssertEqual(server.publishTemplate(["a": "2"]), 2)
        wait(for: [stream.expectMessages(1)], timeout: networkTimeout)
        server.publishTemplate(["a": "3"])
        wait(for: [stream.expectMessages(2)], timeout: networkTimeout)
        XCTAssertEqual(stream.snapshot.text, #"[{"latestTemplateVersionNumber":"2"},{"latestTemplateVersionNumber":"3"}"#)
    }

    func testRealtime_customMessages() throws {
        server.publishTemplate(["a": "1"])
        let stream = openRealtime(lastKnownVersion: 0)
        wait(for: [stream.expectMessages(1)], timeout: networkTimeout)
        server.sendRealtimeMessage(featureDisabled: true)
        server.sendRealtimeMessage(latestTemplateVersion: 7, retryIntervalSeconds: 30)
        wait(for: [stream.expectMessages(3)], timeout: networkTimeout)
        let messages = stream.messages.map { try? JSONValue(parsing: $0) }
        XCTAssertEqual(
            messages,
            [
                ["latestTemplateVersionNumber": "1"],
                ["latestTemplateVersionNumber": "1", "featureDisabled": true],
                ["latestTemplateVersionNumber": "7", "retryIntervalSeconds": 30],
            ])
    }

    func testRealtime_malformedMessage() throws {
        let stream = openRealtime(lastKnownVersion: 0)
        server.sendMalformedRealtimeMessage()
        wait(for: [stream.expectMessages(1)], timeout: networkTimeout)
        XCTAssertThrowsError(try JSONValue(parsing: stream.messages[0]))
    }

    func testRealtime_numericLastKnownVersionAndEveryStreamGetsPublications() throws {
        var request = URLRequest(url: server.remoteConfigRealtimeURL)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"lastKnownVersionNumber": 4}"#.utf8)
        let first = track(StreamRecorder(request))
        let second = track(StreamRecorder(realtime: server, lastKnownVersion: 0))
        XCTAssertTrue(server.waitForOpenStreams(2, route: .remoteConfigRealtime))
        XCTAssertEqual(Set(server.remoteConfigRealtimeConnections.map(\.lastKnownVersionNumber)), [4, 0])
        server.publishTemplate(["a": "1"])
        wait(for: [first.expectMessages(1), second.expectMessages(1)], timeout: networkTimeout)
        XCTAssertEqual(first.messages, [#"{"latestTemplateVersionNumber":"1"}"#])
        XCTAssertEqual(second.messages, [#"{"latestTemplateVersionNumber":"1"}"#])
    }

    func testRealtime_wrongKeyIsRejectedWithoutAStream() throws {
        var request = URLRequest(url: URL(string: "\(server.baseURL)/v1/projects/demo-project/namespaces/firebase:streamFetchInvalidations?key=nope")!)
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        let result = try client.send(request)
        XCTAssertEqual(result.status, 400)
        XCTAssertEqual(server.openStreamCount(route: .remoteConfigRealtime), 0)
    }

    func testRealtime_malformedBodyIs400() throws {
        var request = URLRequest(url: server.remoteConfigRealtimeURL)
        request.httpMethod = "POST"
        request.httpBody = Data("{oops".utf8)
        XCTAssertEqual(try client.send(request).status, 400)
    }

    func testRealtime_clientDisconnectClosesTheStream() throws {
        let stream = openRealtime(lastKnownVersion: 0)
        stream.cancel()
        XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        server.publishTemplate(["a": "1"])  // nobody to tell; must not fail
    }
}
