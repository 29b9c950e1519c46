import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

final class HTTPRemoteConfigBackendTests: XCTestCase {
    private let wire = RemoteConfigWire(
        fetchBaseURL: URL(string: "https://rc.test")!,
        realtimeBaseURL: URL(string: "https://rt.test")!,
        project: "proj",
        apiKey: "key",
        appID: "1:1:ios:1",
        appInstanceID: "instance",
        sdkVersion: "11.0.0",
        languageCode: "en"
    )

    private func backend(_ transport: FakeHTTPTransport, fetchTimeout: TimeInterval = 60) -> HTTPRemoteConfigBackend {
        HTTPRemoteConfigBackend(wire: wire, fetchTimeout: fetchTimeout, transport: transport)
    }

    private let update: JSONValue = ["entries": ["a": "1"], "state": "UPDATE", "templateVersion": "3"]

    // MARK: - fetch

    func testHTTPRemoteConfigBackend_fetchPostsTheWireRequestAndDecodesTheResponse() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(update, headers: ["ETag": "e3"]))
            let request = RemoteConfigFetchRequest(eTag: "e2", lastKnownTemplateVersion: 2, customSignals: ["tier": "gold"], fetchType: .realtime(attempt: 2))
            let res = scheduler.start { self.backend(transport, fetchTimeout: 7).fetch(request) }
            XCTAssertEqual(res.events, [.next(201, .updated(entries: ["a": "1"], templateVersion: 3, eTag: "e3")), .completed(201)])
            let sent = try XCTUnwrap(transport.sentRequests.first)
            XCTAssertEqual(sent.request, wire.fetchRequest(request))
            XCTAssertEqual(sent.request.header("If-None-Match"), "e2")
            XCTAssertEqual(sent.request.header("X-Firebase-RC-Fetch-Type"), "REALTIME/2")
            XCTAssertEqual(sent.timeout, 7, "fetchTimeout bounds the request")
            XCTAssertTrue(sent.isDisposed)
        }
    }

    func testHTTPRemoteConfigBackend_fetch304IsNoChange() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.status(304))
            let res = scheduler.start { self.backend(transport).fetch(RemoteConfigFetchRequest(eTag: "e5", lastKnownTemplateVersion: 5)) }
            XCTAssertEqual(res.events, [.next(201, .noChange(templateVersion: 5, eTag: "e5")), .completed(201)])
        }
    }

    func testHTTPRemoteConfigBackend_fetchMapsEveryStatus() {
        let cases: [(Int, String, RemoteConfigBackendError)] = [
            (429, "", .rateLimited),
            (500, "", .unavailable(500)),
            (503, "", .unavailable(503)),
            (504, "", .unavailable(504)),
            (502, "", .http(statusCode: 502, message: "no details")),
            (400, #"{"error":{"code":400,"message":"bad key","status":"INVALID_ARGUMENT"}}"#, .http(statusCode: 400, message: "bad key")),
            (403, #"{"error":{"message":"forbidden"}}"#, .http(statusCode: 403, message: "forbidden")),
            (302, "", .invalidResponse("unexpected HTTP status 302")),
        ]
        for (status, body, expected) in cases {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                transport.reply(.status(status, body))
                let res = scheduler.start { self.backend(transport).fetch(RemoteConfigFetchRequest()) }
                XCTAssertEqual(res.events, [.error(201, expected)], "HTTP \(status)")
            }
        }
    }

    func testHTTPRemoteConfigBackend_fetchRejectsMalformedJSON() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.status(200, "{\"state\": "))
            let res = scheduler.start { self.backend(transport).fetch(RemoteConfigFetchRequest()) }
            guard case .error(let error)? = res.events.first?.value, case .invalidResponse? = error as? RemoteConfigBackendError else {
                return XCTFail("\(res.events)")
            }
            XCTAssertEqual(res.events.count, 1)
        }
    }

    func testHTTPRemoteConfigBackend_fetchReportsTransportFailuresAsNetworkErrors() {
        let failures: [HTTPTransportError] = [
            .timedOut(message: "no complete response within 60.0 s"),
            .cannotConnect(message: "refused"),
            .connectionLost(message: "reset"),
            .failed(message: "TLS"),
        ]
        for failure in failures {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                transport.reply(.failure(failure))
                let res = scheduler.start { self.backend(transport).fetch(RemoteConfigFetchRequest()) }
                XCTAssertEqual(res.events, [.error(201, RemoteConfigBackendError.network(message: failure.description))])
            }
        }
    }

    func testHTTPRemoteConfigBackend_disposingAFetchCancelsTheRequest() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler, latency: .seconds(100))
            transport.reply(.json(update))
            let res = scheduler.start(disposed: 250) { self.backend(transport).fetch(RemoteConfigFetchRequest()) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(transport.sentRequests.map(\.isDisposed), [true])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testHTTPRemoteConfigBackend_throttlingStatusesStartRemoteConfigsBackoff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.status(429), .status(503))
            let remoteConfig = RemoteConfig(backend: backend(transport), settings: settings(interval: 0), scheduler: scheduler, randomSource: { 0.5 })
            let first = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch() }
            let throttled = scheduler.recordEvents(subscribed: 200) { remoteConfig.fetch() }
            let second = scheduler.recordEvents(subscribed: 221) { remoteConfig.fetch() }  // after the 120 s backoff
            scheduler.start()
            XCTAssertEqual(first.events, [.error(102, RemoteConfigError.throttled(until: at(221)))])
            XCTAssertEqual(throttled.events, [.error(201, RemoteConfigError.throttled(until: at(221)))])
            XCTAssertEqual(second.events, [.error(223, RemoteConfigError.throttled(until: at(462)))])
            XCTAssertEqual(transport.sentRequests.count, 2, "no request while throttled")
        }
    }

    // MARK: - realtime

    func testHTTPRemoteConfigBackend_realtimeSendsTheWireRequestAndDecodesMessagesSplitAnywhere() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            scheduler.scheduleAt(300) { transport.streams[0].open() }
            scheduler.scheduleAt(310) { transport.streams[0].send("[{\"latestTemplateVersionNumber\": \"5\"") }
            scheduler.scheduleAt(320) { transport.streams[0].send("}, {\"latestTemplateVersionNumber\": 6, \"retryIntervalSeconds\": 30}\n,{\"latestTemplate") }
            scheduler.scheduleAt(330) { transport.streams[0].send("VersionNumber\":7,\"featureDisabled\":true}") }
            let res = scheduler.start { self.backend(transport).realtimeInvalidations(lastKnownTemplateVersion: 4) }
            XCTAssertEqual(
                res.events,
                [
                    .next(320, RemoteConfigInvalidation(latestTemplateVersion: 5)),  // its "}" arrives at 320
                    .next(320, RemoteConfigInvalidation(latestTemplateVersion: 6, retryInterval: 30)),
                    .next(330, RemoteConfigInvalidation(latestTemplateVersion: 7, featureDisabled: true)),
                ])
            let request = try XCTUnwrap(transport.streams.first?.request)
            XCTAssertEqual(request, wire.realtimeRequest(lastKnownTemplateVersion: 4))
            XCTAssertEqual(request.bodyJSON?["lastKnownVersionNumber"], "4")
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true], "disposing closes the stream")
        }
    }

    func testHTTPRemoteConfigBackend_realtimeEndOfAnEstablishedStreamIsACompletion() {
        for end in ["complete", "fail"] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                scheduler.scheduleAt(300) { transport.streams[0].open() }
                scheduler.scheduleAt(310) { transport.streams[0].send("[{\"latestTemplateVersionNumber\":5}") }
                scheduler.scheduleAt(400) {
                    if end == "complete" { transport.streams[0].complete() } else { transport.streams[0].fail(HTTPTransportError.timedOut(message: "idle")) }
                }
                let res = scheduler.start { self.backend(transport).realtimeInvalidations(lastKnownTemplateVersion: 4) }
                XCTAssertEqual(res.events, [.next(310, RemoteConfigInvalidation(latestTemplateVersion: 5)), .completed(400)], end)
            }
        }
    }

    func testHTTPRemoteConfigBackend_realtimeFailsWhenTheConnectionCannotBeEstablished() {
        let cases: [(status: Int?, body: String, expected: RemoteConfigBackendError)] = [
            (429, "", .rateLimited),
            (502, "", .unavailable(502)),
            (503, "", .unavailable(503)),
            (403, #"{"error":{"message":"API key not valid"}}"#, .http(statusCode: 403, message: "API key not valid")),
            (nil, "", .network(message: HTTPTransportError.cannotConnect(message: "refused").description)),
        ]
        for (status, body, expected) in cases {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                scheduler.scheduleAt(300) {
                    guard let status else { return transport.streams[0].fail(HTTPTransportError.cannotConnect(message: "refused")) }
                    transport.streams[0].open(status: status)
                    transport.streams[0].send(String(body.prefix(10)))
                    transport.streams[0].send(String(body.dropFirst(10)))
                    transport.streams[0].complete()
                }
                let res = scheduler.start { self.backend(transport).realtimeInvalidations(lastKnownTemplateVersion: nil) }
                XCTAssertEqual(res.events, [.error(300, expected)], "\(String(describing: status))")
            }
        }
    }

    func testHTTPRemoteConfigBackend_realtimeMessageCutOffByTheEndOfTheConnectionIsDropped() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send("[{\"latestTemplateVersionNumber\": 5},{\"latestTemplateVers")
                transport.streams[0].complete()
            }
            let res = scheduler.start { self.backend(transport).realtimeInvalidations(lastKnownTemplateVersion: nil) }
            XCTAssertEqual(res.events, [.next(300, RemoteConfigInvalidation(latestTemplateVersion: 5)), .completed(300)])
        }
    }

    func testHTTPRemoteConfigBackend_realtimeMalformedMessagesAreInvalidResponses() {
        for script in [["[{\"latestTemplateVersionNumber\": }"], ["[{\"latestTemplateVersionNumber\": 5}, 7"], ["x"]] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                scheduler.scheduleAt(300) {
                    transport.streams[0].open()
                    for chunk in script { transport.streams[0].send(chunk) }
                }
                let res = scheduler.start { self.backend(transport).realtimeInvalidations(lastKnownTemplateVersion: nil) }
                guard case .error(let error)? = res.events.last?.value, case .invalidResponse? = error as? RemoteConfigBackendError else {
                    return XCTFail("\(script): \(res.events)")
                }
                XCTAssertTrue(transport.streams[0].isDisposed)
            }
        }
    }

    // MARK: - With RemoteConfig.configUpdates

    /// A client over a scripted transport whose fetches answer `values` (template `version`).
    private func fetchReply(_ values: [String: String], version: Int) -> FakeHTTPTransport.Reply {
        .json(
            ["entries": .object(values.mapValues(JSONValue.string)), "state": "UPDATE", "templateVersion": .string(String(version))],
            headers: ["ETag": "e\(version)"])
    }

    func testHTTPRemoteConfigBackend_configUpdatesFetchAnnouncedVersions() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(fetchReply(["a": "1"], version: 1), fetchReply(["a": "2"], version: 2))
            let remoteConfig = RemoteConfig(backend: backend(transport), scheduler: scheduler, randomSource: { 0.5 })
            _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetchAndActivate() }
            scheduler.scheduleAt(300) { transport.streams[0].open() }
            scheduler.scheduleAt(310) { transport.streams[0].send("[{\"latestTemplateVersionNumber\":\"1\"}") }
            scheduler.scheduleAt(400) { transport.streams[0].send(",{\"latestTemplateVersionNumber\":\"2\"}") }
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.next(402, RemoteConfigUpdate(updatedKeys: ["a"]))])
            XCTAssertEqual(transport.streams.first?.request.bodyJSON?["lastKnownVersionNumber"], "1")
            XCTAssertEqual(transport.sentRequests.map { $0.request.header("X-Firebase-RC-Fetch-Type") }, ["BASE/1", "REALTIME/1"])
            XCTAssertEqual(remoteConfig.snapshot.fetched, ["a": "2"])
            XCTAssertEqual(transport.openStreams.count, 0)
        }
    }

    func testHTTPRemoteConfigBackend_configUpdatesReconnectAfterACleanCloseWithAFreshBackoff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            // Every connection is accepted and closed by the server at once, 12 times in a row.
            let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
                opened.withLock { $0.append(scheduler.clock) }
                stream.open()
                stream.send("[")
                stream.complete()
            }
            let remoteConfig = RemoteConfig(backend: backend(transport), scheduler: scheduler, randomSource: { 0.5 })
            let res = scheduler.start(disposed: 212) { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [], "clean closes never exhaust the reconnection budget")
            XCTAssertEqual(opened.withLock { $0 }, Array(200...211), "each reconnection waits the first backoff step (1 s)")
        }
    }

    func testHTTPRemoteConfigBackend_configUpdatesGiveUpAfterSevenFailedReconnections() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
                opened.withLock { $0.append(scheduler.clock) }
                stream.open(status: 503)
                stream.complete()
            }
            let remoteConfig = RemoteConfig(backend: backend(transport), scheduler: scheduler, randomSource: { 0.5 })
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(opened.withLock { $0 }, [200, 201, 203, 207, 215, 231, 263, 327], "1, 2, 4, … 64 s")
            XCTAssertEqual(res.events, [.error(328, RemoteConfigUpdateError.streamError(RemoteConfigBackendError.unavailable(503).description))])
        }
    }

    func testHTTPRemoteConfigBackend_configUpdatesHonourRetryIntervalAndFeatureDisabled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let transport = FakeHTTPTransport(scheduler: scheduler) { _ in opened.withLock { $0.append(scheduler.clock) } }
            transport.reply(fetchReply(["a": "1"], version: 1))
            let remoteConfig = RemoteConfig(backend: backend(transport), scheduler: scheduler, randomSource: { 0.5 })
            _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch() }
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send("[{\"latestTemplateVersionNumber\":1,\"retryIntervalSeconds\":30}")
                transport.streams[0].fail(HTTPTransportError.connectionLost(message: "reset"))
            }
            scheduler.scheduleAt(400) {
                transport.streams[1].open()
                transport.streams[1].send("[{\"featureDisabled\":true}")
            }
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(opened.withLock { $0 }, [200, 330], "the server's 30 s retry interval, not the 1 s backoff")
            XCTAssertEqual(res.events, [.error(401, RemoteConfigUpdateError.unavailable)])
            XCTAssertTrue(transport.streams.allSatisfy(\.isDisposed))
        }
    }

    func testHTTPRemoteConfigBackend_configUpdatesReportMalformedMessages() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send("[{\"latestTemplateVersionNumber\":true}")
            }
            let remoteConfig = RemoteConfig(backend: backend(transport), scheduler: scheduler, randomSource: { 0.5 })
            let res = scheduler.start { remoteConfig.configUpdates }
            guard res.events.count == 1, case .error(let error) = res.events[0].value, case .messageInvalid? = error as? RemoteConfigUpdateError else {
                return XCTFail("\(res.events)")
            }
        }
    }

    func testHTTPRemoteConfigBackend_defaults() throws {
        let backend = HTTPRemoteConfigBackend(project: "p", apiKey: "k", appID: "a")
        XCTAssertEqual(backend.wire.fetchBaseURL, RemoteConfigWire.defaultFetchBaseURL)
        XCTAssertEqual(backend.wire.realtimeBaseURL, RemoteConfigWire.defaultRealtimeBaseURL)
        XCTAssertEqual(backend.wire.namespace, "firebase")
        // The identity comes from Firebase Installations, kept in the user's files, as the SDKs.
        let installations = try XCTUnwrap(backend.installations)
        XCTAssertEqual(installations.wire.baseURL, FirebaseInstallations.defaultBaseURL)
        XCTAssertEqual(installations.wire.project, "p")
        XCTAssertEqual(installations.wire.apiKey, "k")
        XCTAssertEqual(installations.wire.appID, "a")
        XCTAssertEqual(installations.wire.sdkVersion, "i:11.0.0")
        XCTAssertEqual((installations.storage as? FileFirebaseInstallationsStorage)?.fileURL, FileFirebaseInstallationsStorage.standard(appID: "a").fileURL)
        XCTAssertEqual(backend.wire.appInfo, RemoteConfigAppInfo.current)
        // An explicit instance ID replaces it.
        let fixed = HTTPRemoteConfigBackend(
            project: "p", apiKey: "k", appID: "a", appInstanceID: HTTPRemoteConfigBackend.processAppInstanceID, appInstanceIDToken: "t")
        XCTAssertNil(fixed.installations)
        XCTAssertEqual(fixed.wire.appInstanceID, HTTPRemoteConfigBackend.processAppInstanceID)
        XCTAssertEqual(fixed.wire.appInstanceIDToken, "t")
        XCTAssertNotNil(UUID(uuidString: HTTPRemoteConfigBackend.processAppInstanceID))
        XCTAssertEqual(backend.fetchTimeout, 60)
        XCTAssertTrue(backend.transport is URLSessionTransport)
    }
}
