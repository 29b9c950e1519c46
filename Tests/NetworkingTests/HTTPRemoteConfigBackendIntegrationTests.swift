import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `HTTPRemoteConfigBackend` (over the real `URLSessionTransport`) and `RemoteConfig` against
/// the loopback `FirebaseTestServer`.
final class HTTPRemoteConfigBackendIntegrationTests: FirebaseTestServerTestCase {
    private func makeBackend(fetchTimeout: TimeInterval = networkTimeout) -> HTTPRemoteConfigBackend {
        HTTPRemoteConfigBackend(
            project: server.project,
            apiKey: server.apiKey,
            appID: "1:1234:ios:abcd",
            appInstanceID: "instance-1",
            fetchBaseURL: server.remoteConfigBaseURL,
            realtimeBaseURL: server.remoteConfigBaseURL,
            sdkVersion: "11.0.0",
            languageCode: "en-GB",
            fetchTimeout: fetchTimeout
        )
    }

    private func makeClient(_ backend: HTTPRemoteConfigBackend, interval: TimeInterval = 0, timeout: TimeInterval = networkTimeout) -> RemoteConfig {
        RemoteConfig(
            backend: backend,
            settings: RemoteConfigSettings(minimumFetchInterval: interval, fetchTimeout: timeout),
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "remote-config"),
            randomSource: { 0.5 }
        )
    }

    private func fetch(_ backend: HTTPRemoteConfigBackend, _ request: RemoteConfigFetchRequest = RemoteConfigFetchRequest()) -> MaterializedSequenceResult<
        RemoteConfigFetchResponse
    > {
        backend.fetch(request).toBlocking(timeout: networkTimeout).materialize()
    }

    private func backendError(_ result: MaterializedSequenceResult<RemoteConfigFetchResponse>) -> RemoteConfigBackendError? {
        if case .failed(_, let error) = result { return error as? RemoteConfigBackendError }
        return nil
    }

    // MARK: - Fetch

    func testHTTPRemoteConfigBackend_fetchesTheTemplate() throws {
        try XCTAssertNoLeaksEventually {
            let version = server.publishTemplate(["welcome": "hi", "max": "3"])
            let response = try makeBackend().fetch(RemoteConfigFetchRequest(customSignals: ["tier": "gold"])).toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(response, .updated(entries: ["welcome": "hi", "max": "3"], templateVersion: version, eTag: server.remoteConfigETag))
            let record = try XCTUnwrap(server.remoteConfigFetches.last)
            XCTAssertEqual(record.appInstanceID, "instance-1")
            XCTAssertEqual(record.appID, "1:1234:ios:abcd")
            XCTAssertEqual(record.languageCode, "en-GB")
            XCTAssertEqual(record.customSignals, ["tier": "gold"])
            XCTAssertEqual(record.ifNoneMatch, "*")
            XCTAssertEqual(record.fetchType, "BASE/1")
        }
    }

    func testHTTPRemoteConfigBackend_matchingETagIsNoChange() throws {
        try XCTAssertNoLeaksEventually {
            let version = server.publishTemplate(["a": "1"])
            let eTag = server.remoteConfigETag
            let request = RemoteConfigFetchRequest(eTag: eTag, lastKnownTemplateVersion: version)
            for mode in [FirebaseTestServer.NoChangeResponse.notModified, .noChangeState] {
                server.remoteConfigNoChangeResponse = mode
                let response = try makeBackend().fetch(request).toBlocking(timeout: networkTimeout).single()
                XCTAssertEqual(response, .noChange(templateVersion: version, eTag: eTag), "\(mode)")
            }
            XCTAssertEqual(server.remoteConfigFetches.map(\.ifNoneMatch), [eTag, eTag])
        }
    }

    func testHTTPRemoteConfigBackend_errorStatusesAndMalformedBodies() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1"])
            let backend = makeBackend()
            server.inject(.status(429, route: .remoteConfigFetch))
            XCTAssertEqual(backendError(fetch(backend)), .rateLimited)
            server.inject(.status(503, route: .remoteConfigFetch))
            XCTAssertEqual(backendError(fetch(backend)), .unavailable(503))
            server.inject(.status(403, route: .remoteConfigFetch))
            guard case .http(403, _)? = backendError(fetch(backend)) else { return XCTFail("403") }
            server.inject(.malformedJSON(route: .remoteConfigFetch))
            guard case .invalidResponse? = backendError(fetch(backend)) else { return XCTFail("malformed JSON") }
            server.inject(.disconnect(route: .remoteConfigFetch))
            guard case .network? = backendError(fetch(backend)) else { return XCTFail("disconnect") }
        }
    }

    func testHTTPRemoteConfigBackend_slowResponseTimesOut() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1"])
            server.inject(.delay(2, route: .remoteConfigFetch))
            guard case .network(let message)? = backendError(fetch(makeBackend(fetchTimeout: 0.3))) else { return XCTFail("expected a network error") }
            XCTAssertTrue(message.contains("timed out"), message)
        }
    }

    func testHTTPRemoteConfigBackend_follows307() {
        XCTAssertNoLeaksEventually {
            let version = server.publishTemplate(["a": "1"])
            server.inject(.redirect307(route: .remoteConfigFetch))
            guard case .completed(let elements) = fetch(makeBackend()) else { return XCTFail("the fetch failed") }
            XCTAssertEqual(elements, [.updated(entries: ["a": "1"], templateVersion: version, eTag: server.remoteConfigETag)])
            XCTAssertEqual(server.requests(on: .remoteConfigFetch).map(\.wasRedirected), [false, true])
            XCTAssertEqual(server.remoteConfigFetches.last?.appInstanceID, "instance-1", "the body survived the redirect")
        }
    }

    // MARK: - Through RemoteConfig

    func testRemoteConfigOverHTTP_fetchAndActivate() throws {
        try XCTAssertNoLeaksEventually {
            server.publishTemplate(["welcome": "hi"])
            let remoteConfig = makeClient(makeBackend())
            remoteConfig.setDefaults(["welcome": "default", "other": "d"])
            let status = try remoteConfig.fetchAndActivate().asObservable().toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(status, .successFetchedFromRemote)
            XCTAssertEqual(remoteConfig["welcome"].stringValue, "hi")
            XCTAssertEqual(remoteConfig["other"].stringValue, "d")
            // The stored ETag makes the next fetch a 304.
            _ = try remoteConfig.fetch().asObservable().toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(server.remoteConfigFetches.map(\.answeredState), ["UPDATE", "NO_CHANGE"])
            XCTAssertEqual(server.remoteConfigFetches.last?.ifNoneMatch, server.remoteConfigETag)
        }
    }

    func testRemoteConfigOverHTTP_throttlingStatusesStartTheBackoff() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1"])
            for status in [429, 503] {
                let remoteConfig = makeClient(makeBackend())
                server.inject(.status(status, route: .remoteConfigFetch))
                let result = remoteConfig.fetch(withExpirationDuration: 0).asObservable().toBlocking(timeout: networkTimeout).materialize()
                guard case .failed(_, let error) = result, case .throttled? = error as? RemoteConfigError else {
                    return XCTFail("HTTP \(status): \(result)")
                }
                XCTAssertEqual(remoteConfig.lastFetchStatus, .throttled)
                // While throttled, fetches fail fast without a request.
                let requests = server.requests(on: .remoteConfigFetch).count
                let again = remoteConfig.fetch(withExpirationDuration: 0).asObservable().toBlocking(timeout: networkTimeout).materialize()
                guard case .failed(_, RemoteConfigError.throttled) = again else { return XCTFail("\(again)") }
                XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, requests)
            }
        }
    }

    func testRemoteConfigOverHTTP_slowResponseIsATimeout() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1"])
            server.inject(.delay(2, route: .remoteConfigFetch))
            let remoteConfig = makeClient(makeBackend(), timeout: 0.3)
            let result = remoteConfig.fetch().asObservable().toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(_, RemoteConfigError.timeout) = result else { return XCTFail("\(result)") }
            XCTAssertEqual(remoteConfig.lastFetchStatus, .failure)
        }
    }

    // MARK: - Realtime

    func testRemoteConfigOverHTTP_realtimeInvalidationFetchesTheNewTemplate() throws {
        try XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1", "b": "1"])
            let remoteConfig = makeClient(makeBackend(), interval: 43_200)
            _ = try remoteConfig.fetchAndActivate().asObservable().toBlocking(timeout: networkTimeout).single()
            let updates = EventRecorder(remoteConfig.configUpdates)
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime))
            XCTAssertEqual(server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, 1)

            server.publishTemplate(["a": "2", "b": "1"])
            XCTAssertTrue(updates.waitForElements(1))
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: ["a"])])
            XCTAssertEqual(remoteConfig.snapshot.fetched, ["a": "2", "b": "1"])
            XCTAssertEqual(server.remoteConfigFetches.last?.fetchType, "REALTIME/1")
            XCTAssertEqual(remoteConfig["a"].stringValue, "1", "the caller activates")

            // The server drops the stream in the middle of a message: the client reconnects
            // (announcing the version it has) and hears about the next publication.
            server.dropStreams(midMessage: true, route: .remoteConfigRealtime)
            XCTAssertTrue(waitUntil { server.remoteConfigRealtimeConnections.count == 2 && server.openStreamCount(route: .remoteConfigRealtime) == 1 })
            XCTAssertEqual(server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, 2)
            server.publishTemplate(["a": "2", "b": "3"])
            XCTAssertTrue(updates.waitForElements(2))
            XCTAssertEqual(updates.elements.last, RemoteConfigUpdate(updatedKeys: ["a", "b"]))
            XCTAssertFalse(updates.isTerminated)

            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    func testRemoteConfigOverHTTP_realtimeFeatureDisabledAndMalformedMessagesEndTheUpdates() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["a": "1"])
            for malformed in [false, true] {
                let remoteConfig = makeClient(makeBackend())
                let updates = EventRecorder(remoteConfig.configUpdates)
                XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime))
                if malformed { server.sendMalformedRealtimeMessage() } else { server.sendRealtimeMessage(featureDisabled: true) }
                XCTAssertTrue(updates.waitForTermination())
                if malformed {
                    guard case .messageInvalid? = updates.error as? RemoteConfigUpdateError else { return XCTFail("\(updates.events)") }
                } else {
                    XCTAssertEqual(updates.error as? RemoteConfigUpdateError, .unavailable)
                }
                XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
            }
        }
    }
}
