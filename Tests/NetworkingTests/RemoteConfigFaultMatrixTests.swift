import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// The Remote Config fault matrix (issue #7): `RemoteConfig` over `HTTPRemoteConfigBackend`
/// (the real `URLSessionTransport`), with `configUpdates` (realtime) and `fetchAndActivate`,
/// against the loopback server, under every fault the server can inject.
///
/// After each fault the client's active config (once activated) must equal the server's
/// template, entries and version; the update listener must report each change once; faults the
/// client does not retry end with a typed error, after which a new subscription or fetch
/// catches up. The client runs on a `TimeScaledScheduler` (×50) with a constant random source,
/// so its fixed backoffs (realtime 1 s…, fetch retries 1 s…, throttling 2 min) take
/// milliseconds; `minimumFetchInterval` is 0.
final class RemoteConfigFaultMatrixTests: FirebaseTestServerTestCase {
    /// Client seconds per real second.
    static let timeScale = 50.0

    static let firstTemplate = ["greeting": "hi", "limit": "3", "color": "red"]

    private var publications = 0

    /// Ends a scenario whose set-up failed (the failure is already recorded).
    struct ScenarioFailure: Error {}

    private func makeRemoteConfig() -> (RemoteConfig, TimeScaledScheduler) {
        let backend = HTTPRemoteConfigBackend(
            project: server.project,
            apiKey: server.apiKey,
            appID: "1:1234:ios:abcd",
            appInstanceID: "instance-1",
            fetchBaseURL: server.remoteConfigBaseURL,
            realtimeBaseURL: server.remoteConfigBaseURL,
            fetchTimeout: networkTimeout
        )
        let scheduler = TimeScaledScheduler(factor: Self.timeScale, name: "fault-matrix-remote-config")
        let remoteConfig = RemoteConfig(
            backend: backend,
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: networkTimeout * Self.timeScale),
            scheduler: scheduler,
            randomSource: { 0 }
        )
        return (remoteConfig, scheduler)
    }

    private func fetchAndActivate(_ remoteConfig: RemoteConfig) -> MaterializedSequenceResult<RemoteConfigFetchAndActivateStatus> {
        remoteConfig.fetchAndActivate().asObservable().toBlocking(timeout: networkTimeout).materialize()
    }

    @discardableResult
    private func activate(_ remoteConfig: RemoteConfig, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try XCTUnwrap(try remoteConfig.activate().asObservable().toBlocking(timeout: networkTimeout).single(), file: file, line: line)
    }

    /// The client's active config equals the server's template (entries, values, version).
    private func assertConverged(_ remoteConfig: RemoteConfig, _ scenario: String, file: StaticString = #filePath, line: UInt = #line) {
        let entries = server.templateEntries
        XCTAssertEqual(remoteConfig.snapshot.active, entries, "\(scenario): active entries", file: file, line: line)
        XCTAssertEqual(remoteConfig.activeTemplateVersion, server.templateVersion, "\(scenario): active version", file: file, line: line)
        XCTAssertEqual(remoteConfig.fetchedTemplateVersion, server.templateVersion, "\(scenario): fetched version", file: file, line: line)
        XCTAssertEqual(remoteConfig.allKeys(from: .remote), entries.keys.sorted(), file: file, line: line)
        for (key, value) in entries {
            XCTAssertEqual(remoteConfig[key].stringValue, value, "\(scenario): \(key)", file: file, line: line)
            XCTAssertEqual(remoteConfig[key].source, .remote, file: file, line: line)
        }
    }

    /// Publishes a new template that changes, removes and adds keys; returns the changed keys.
    @discardableResult
    private func publishChange() -> Set<String> {
        publications += 1
        let old = server.templateEntries
        var new = old
        new["greeting"] = "hi \(publications)"
        if new["color"] == nil { new["color"] = "blue \(publications)" } else { new["color"] = nil }
        new["key\(publications)"] = "\(publications)"
        server.publishTemplate(new)
        return changedKeys(from: old, to: new)
    }

    /// The keys added, changed or removed from `old` to `new`.
    private func changedKeys(from old: [String: String], to new: [String: String]) -> Set<String> {
        var keys = Set<String>()
        for (key, value) in new where old[key] != value { keys.insert(key) }
        for key in old.keys where new[key] == nil { keys.insert(key) }
        return keys
    }

    /// A client that fetched and activated the server's template, listening to realtime
    /// updates on an open stream.
    private func startListening(file: StaticString = #filePath, line: UInt = #line) throws -> (
        RemoteConfig, TimeScaledScheduler, EventRecorder<RemoteConfigUpdate>
    ) {
        if server.templateVersion == nil { server.publishTemplate(Self.firstTemplate) }
        let (remoteConfig, scheduler) = makeRemoteConfig()
        guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else {
            XCTFail("the first fetch failed", file: file, line: line)
            throw ScenarioFailure()
        }
        assertConverged(remoteConfig, "start", file: file, line: line)
        let open = server.openStreamCount(route: .remoteConfigRealtime)
        let updates = EventRecorder(remoteConfig.configUpdates)
        XCTAssertTrue(server.waitForOpenStreams(open + 1, route: .remoteConfigRealtime), file: file, line: line)
        return (remoteConfig, scheduler, updates)
    }

    /// The fetch types (`BASE/1`, `REALTIME/2`, …) of the fetch requests after the first `count`.
    private func fetchTypes(after count: Int) -> [String?] {
        server.requests(on: .remoteConfigFetch).dropFirst(count).map { $0.header("X-Firebase-RC-Fetch-Type") }
    }

    /// Sends the current version again on the realtime stream, drops it, and waits until the
    /// client reconnected (so it has read the message).
    private func reannounceAndReconnect(file: StaticString = #filePath, line: UInt = #line) {
        let before = server.requests(on: .remoteConfigRealtime).count
        server.sendRealtimeMessage()
        server.dropStreams(route: .remoteConfigRealtime)
        XCTAssertTrue(server.waitForRequests(before + 1, route: .remoteConfigRealtime), file: file, line: line)
        XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime), file: file, line: line)
    }

    private func realtimeUpdateError(_ updates: EventRecorder<RemoteConfigUpdate>) -> RemoteConfigUpdateError? {
        updates.error as? RemoteConfigUpdateError
    }

    // MARK: - Realtime stream faults (recovering)

    /// A template is published while the realtime stream is down under `faults`: the client
    /// reconnects with exactly `reconnectRequests` requests, announcing the version it has,
    /// fetches the new one once, and reports its keys once; then it stays live.
    private func assertRealtimeRecovers(
        _ scenario: String,
        faults: [FirebaseTestServer.Fault] = [],
        midMessage: Bool = false,
        reconnectRequests: Int = 1,
        holdReconnect: Bool = false,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try XCTAssertNoLeaksEventually(scenario, file: file, line: line) {
            server.clearFaults()
            let (remoteConfig, _, updates) = try startListening(file: file, line: line)
            let known = try XCTUnwrap(server.templateVersion)
            let before = server.requests(on: .remoteConfigRealtime).count
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            let activeBefore = remoteConfig.snapshot.active

            if holdReconnect { server.inject(.delay(0.3, route: .remoteConfigRealtime)) }
            faults.forEach(server.inject)
            server.dropStreams(midMessage: midMessage, route: .remoteConfigRealtime)
            if holdReconnect {
                XCTAssertTrue(server.waitForRequests(before + 1, route: .remoteConfigRealtime), file: file, line: line)
                XCTAssertEqual(server.openStreamCount(route: .remoteConfigRealtime), 0, "down while the server holds the reconnection", file: file, line: line)
            }
            let keys = publishChange()

            XCTAssertTrue(updates.waitForElements(1), "\(scenario): \(updates.events)", file: file, line: line)
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys)], "\(scenario)", file: file, line: line)
            XCTAssertEqual(
                server.requests(on: .remoteConfigRealtime).count, before + reconnectRequests, "\(scenario): reconnection requests", file: file, line: line)
            XCTAssertEqual(
                server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, known, "\(scenario): reconnected with the version it had", file: file,
                line: line)
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1"], "\(scenario): one fetch", file: file, line: line)
            XCTAssertEqual(remoteConfig.snapshot.active, activeBefore, "nothing is active before activate()", file: file, line: line)
            XCTAssertTrue(try activate(remoteConfig, file: file, line: line))
            assertConverged(remoteConfig, scenario, file: file, line: line)

            // Live again: the next publication arrives on the new stream, reported once.
            let next = publishChange()
            XCTAssertTrue(updates.waitForElements(2), "\(scenario): \(updates.events)", file: file, line: line)
            XCTAssertEqual(
                updates.elements, [RemoteConfigUpdate(updatedKeys: keys), RemoteConfigUpdate(updatedKeys: next)], "\(scenario): each change reported once",
                file: file, line: line)
            XCTAssertTrue(try activate(remoteConfig, file: file, line: line))
            assertConverged(remoteConfig, "\(scenario), then live", file: file, line: line)
            XCTAssertFalse(updates.isTerminated, file: file, line: line)
            XCTAssertEqual(server.pendingFaults, [], "\(scenario): every fault was used", file: file, line: line)
            XCTAssertEqual(
                server.requests(on: .remoteConfigRealtime).count, before + reconnectRequests, "\(scenario): no extra connection", file: file, line: line)

            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime), "the stream closed after dispose", file: file, line: line)
        }
    }

    func testFaultMatrix_realtimeDroppedCleanly() throws {
        try assertRealtimeRecovers("clean drop")
    }

    func testFaultMatrix_realtimeDroppedMidMessage() throws {
        try assertRealtimeRecovers("mid-message drop", midMessage: true)
    }

    func testFaultMatrix_realtimeTemplatePublishedWhileDown() throws {
        try assertRealtimeRecovers("published while down", holdReconnect: true)
    }

    func testFaultMatrix_realtime503BurstOnReconnect() throws {
        try assertRealtimeRecovers("3×503 then OK", faults: [.status(503, count: 3, route: .remoteConfigRealtime)], reconnectRequests: 4, holdReconnect: true)
    }

    func testFaultMatrix_realtime429BurstOnReconnect() throws {
        try assertRealtimeRecovers("3×429 then OK", faults: [.status(429, count: 3, route: .remoteConfigRealtime)], midMessage: true, reconnectRequests: 4)
    }

    func testFaultMatrix_realtimeDisconnect307AndSlowReconnect() throws {
        try assertRealtimeRecovers(
            "disconnect, 307, slow",
            faults: [.disconnect(route: .remoteConfigRealtime), .redirect307(route: .remoteConfigRealtime), .delay(0.2, route: .remoteConfigRealtime)],
            reconnectRequests: 3)
        XCTAssertEqual(server.requests(on: .remoteConfigRealtime).last?.wasRedirected, true)
    }

    func testFaultMatrix_realtimeSixFailedReconnectionsStillRecover() throws {
        // The seventh consecutive attempt is still allowed (1 s, 2 s, … 32 s × 0.5 here).
        try assertRealtimeRecovers("6×503 then OK", faults: [.status(503, count: 6, route: .remoteConfigRealtime)], reconnectRequests: 7)
    }

    func testFaultMatrix_realtimeTwoPublicationsWhileDownAreOneUpdate() throws {
        // Versions v+1 and v+2 are published while the stream is down: the reconnection
        // announces only the latest, the client fetches once and reports the keys that differ
        // from its active config once.
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let active = remoteConfig.snapshot.active
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            let before = server.requests(on: .remoteConfigRealtime).count
            server.inject(.delay(0.3, route: .remoteConfigRealtime))
            server.dropStreams(route: .remoteConfigRealtime)
            XCTAssertTrue(server.waitForRequests(before + 1, route: .remoteConfigRealtime))
            publishChange()
            publishChange()
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1"])
            XCTAssertTrue(try activate(remoteConfig))
            assertConverged(remoteConfig, "two publications while down")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: changedKeys(from: active, to: server.templateEntries))])
            // A barrier: the next publication is the second update, so none came in between.
            let next = publishChange()
            XCTAssertTrue(updates.waitForElements(2), "\(updates.events)")
            XCTAssertEqual(updates.elements.last, RemoteConfigUpdate(updatedKeys: next))
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    func testFaultMatrix_realtimeDroppedWhileTheFollowUpFetchRuns() throws {
        // The stream drops while the fetch for v+1 is held on the server: the reconnection
        // (still announcing v) hears v+1 again, which the client already fetches, so there is
        // one fetch and one update.
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let known = try XCTUnwrap(server.templateVersion)
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            let before = server.requests(on: .remoteConfigRealtime).count
            server.inject(.delay(0.4, route: .remoteConfigFetch))
            let keys = publishChange()
            XCTAssertTrue(server.waitForRequests(fetchesBefore + 1, route: .remoteConfigFetch), "the follow-up fetch is held")
            server.dropStreams(midMessage: true, route: .remoteConfigRealtime)
            XCTAssertTrue(server.waitForRequests(before + 1, route: .remoteConfigRealtime))
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime))
            XCTAssertEqual(server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, known, "reconnected before the fetch finished")
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys)])
            XCTAssertTrue(try activate(remoteConfig))
            assertConverged(remoteConfig, "drop during the follow-up fetch")
            let next = publishChange()
            XCTAssertTrue(updates.waitForElements(2), "\(updates.events)")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys), RemoteConfigUpdate(updatedKeys: next)])
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1", "REALTIME/1"], "one fetch per version")
            XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, before + 1)
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    func testFaultMatrix_fetchAndActivateJoinsTheRealtimeFetch() throws {
        // The app fetches while the realtime follow-up fetch is held: both share one request;
        // the listener reports the keys once and the app's activation applies them.
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            server.inject(.delay(0.3, route: .remoteConfigFetch))
            let keys = publishChange()
            XCTAssertTrue(server.waitForRequests(fetchesBefore + 1, route: .remoteConfigFetch))
            guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else { return XCTFail("joined fetch") }
            assertConverged(remoteConfig, "joined fetch")
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys)])
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1"], "one request for both")
            XCTAssertFalse(try activate(remoteConfig), "already active")
            let next = publishChange()
            XCTAssertTrue(updates.waitForElements(2), "\(updates.events)")
            XCTAssertEqual(updates.elements.last, RemoteConfigUpdate(updatedKeys: next))
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    // MARK: - Realtime stream faults that end configUpdates (typed), then a new subscription

    /// `configUpdates` failed with a typed error: the stream is closed, and a new subscription
    /// announces the version the client has, fetches what was published meanwhile and reports it once.
    private func assertResubscribeCatchesUp(
        _ remoteConfig: RemoteConfig, _ scenario: String, expectedKeys: Set<String>, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime), "\(scenario): no stream left", file: file, line: line)
        let fetched = remoteConfig.fetchedTemplateVersion
        let updates = EventRecorder(remoteConfig.configUpdates)
        XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime), file: file, line: line)
        XCTAssertEqual(server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, fetched, file: file, line: line)
        XCTAssertTrue(updates.waitForElements(1), "\(scenario): \(updates.events)", file: file, line: line)
        XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: expectedKeys)], "\(scenario), resubscribed", file: file, line: line)
        XCTAssertTrue(try activate(remoteConfig, file: file, line: line))
        assertConverged(remoteConfig, "\(scenario), resubscribed", file: file, line: line)
        XCTAssertFalse(updates.isTerminated, file: file, line: line)
        updates.dispose()
        XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime), file: file, line: line)
    }

    func testFaultMatrix_realtimeSevenFailedReconnectionsFailTyped() throws {
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let before = server.requests(on: .remoteConfigRealtime).count
            server.inject(.status(503, count: 7, route: .remoteConfigRealtime))
            server.dropStreams(route: .remoteConfigRealtime)
            let keys = publishChange()
            XCTAssertTrue(updates.waitForTermination(), "\(updates.events)")
            guard case .streamError(let message)? = realtimeUpdateError(updates) else { return XCTFail("\(updates.events)") }
            XCTAssertTrue(message.contains("503"), message)
            XCTAssertEqual(updates.elements, [], "nothing reported")
            XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, before + 7)
            XCTAssertEqual(server.pendingFaults, [])
            XCTAssertEqual(remoteConfig["greeting"].stringValue, "hi")
            try assertResubscribeCatchesUp(remoteConfig, "7×503", expectedKeys: keys)
        }
    }

    func testFaultMatrix_realtimeMalformedMessageOnReconnectFailsTyped() throws {
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            server.inject(.malformedJSON(route: .remoteConfigRealtime))
            server.dropStreams(midMessage: true, route: .remoteConfigRealtime)
            let keys = publishChange()
            XCTAssertTrue(updates.waitForTermination(), "\(updates.events)")
            guard case .messageInvalid? = realtimeUpdateError(updates) else { return XCTFail("\(updates.events)") }
            XCTAssertEqual(updates.elements, [])
            try assertResubscribeCatchesUp(remoteConfig, "malformed realtime message", expectedKeys: keys)
        }
    }

    // MARK: - Faults on the realtime follow-up fetch

    /// A 429/503 burst on the fetch an invalidation triggers: the first answer starts the
    /// throttling backoff, so the other attempts fail fast without reaching the server and
    /// `configUpdates` fails with `.notFetched`; `fetchAndActivate` fails with `.throttled`
    /// until the backoff ends, then converges; a new subscription goes on.
    private func assertThrottledRealtimeFetchRecovers(status: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try XCTAssertNoLeaksEventually("\(status) on the realtime fetch", file: file, line: line) {
            server.clearFaults()
            let (remoteConfig, scheduler, updates) = try startListening(file: file, line: line)
            let old = server.templateEntries
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            server.inject(.status(status, count: 3, route: .remoteConfigFetch))
            publishChange()

            XCTAssertTrue(updates.waitForTermination(), "\(updates.events)", file: file, line: line)
            XCTAssertEqual(realtimeUpdateError(updates), .notFetched, "\(updates.events)", file: file, line: line)
            XCTAssertEqual(updates.elements, [], file: file, line: line)
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1"], "attempts 2 and 3 were throttled by the client", file: file, line: line)
            XCTAssertEqual(server.pendingFaults, [.status(status, count: 2, route: .remoteConfigFetch)], file: file, line: line)
            server.clearFaults()
            XCTAssertEqual(remoteConfig.lastFetchStatus, .throttled, file: file, line: line)
            let until = try XCTUnwrap(remoteConfig.throttledUntil, file: file, line: line)

            // While throttled (60 client seconds: 1.2 s here), fetches fail fast and typed.
            let throttled = fetchAndActivate(remoteConfig)
            guard case .failed(_, RemoteConfigError.throttled(until)) = throttled else {
                return XCTFail("expected .throttled(until: \(until)), got \(throttled)", file: file, line: line)
            }
            XCTAssertEqual(remoteConfig.snapshot.active, old, "nothing activated", file: file, line: line)
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1"], file: file, line: line)

            XCTAssertTrue(waitUntil { scheduler.now >= until }, "the backoff ends", file: file, line: line)
            guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else {
                return XCTFail("the fetch after the backoff failed", file: file, line: line)
            }
            assertConverged(remoteConfig, "\(status) on the realtime fetch", file: file, line: line)
            XCTAssertNil(remoteConfig.throttledUntil, file: file, line: line)

            try assertResubscribeCatchesUp(remoteConfig, "\(status) on the realtime fetch", expectedKeys: publishChange(), file: file, line: line)
        }
    }

    func testFaultMatrix_realtimeFetch503Burst() throws {
        try assertThrottledRealtimeFetchRecovers(status: 503)
    }

    func testFaultMatrix_realtimeFetch429Burst() throws {
        try assertThrottledRealtimeFetchRecovers(status: 429)
    }

    /// A fault that is not a throttling signal on the realtime follow-up fetch: the second
    /// attempt gets the template, and the change is reported once.
    func testFaultMatrix_realtimeFetchRetriedAfterNonThrottlingFaults() throws {
        let faults: [FirebaseTestServer.Fault] = [
            .malformedJSON(route: .remoteConfigFetch),
            .disconnect(route: .remoteConfigFetch),
            .status(403, route: .remoteConfigFetch),
        ]
        for fault in faults {
            try XCTAssertNoLeaksEventually(fault.label) {
                let (remoteConfig, _, updates) = try startListening()
                let fetchesBefore = server.requests(on: .remoteConfigFetch).count
                server.inject(fault)
                let keys = publishChange()
                XCTAssertTrue(updates.waitForElements(1), "\(fault.label): \(updates.events)")
                XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys)], fault.label)
                XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1", "REALTIME/2"], fault.label)
                XCTAssertEqual(remoteConfig.lastFetchStatus, .success)
                XCTAssertTrue(try activate(remoteConfig))
                assertConverged(remoteConfig, fault.label)
                let next = publishChange()
                XCTAssertTrue(updates.waitForElements(2), "\(fault.label): \(updates.events)")
                XCTAssertEqual(updates.elements.last, RemoteConfigUpdate(updatedKeys: next))
                XCTAssertTrue(try activate(remoteConfig))
                assertConverged(remoteConfig, "\(fault.label), then live")
                updates.dispose()
                XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
            }
        }
    }

    func testFaultMatrix_realtimeFetchSlowAnd307StillConverge() throws {
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let fetchesBefore = server.requests(on: .remoteConfigFetch).count
            server.inject(.delay(0.3, route: .remoteConfigFetch))
            server.inject(.redirect307(route: .remoteConfigFetch))
            let keys = publishChange()
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: keys)])
            XCTAssertEqual(fetchTypes(after: fetchesBefore), ["REALTIME/1", "REALTIME/1"], "one attempt, redirected")
            XCTAssertEqual(server.requests(on: .remoteConfigFetch).last?.wasRedirected, true)
            XCTAssertTrue(try activate(remoteConfig))
            assertConverged(remoteConfig, "slow 307")
            XCTAssertEqual(server.pendingFaults, [])
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    // MARK: - fetchAndActivate faults

    func testFaultMatrix_malformedFetchBodyThenRecovery() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(Self.firstTemplate)
            let (remoteConfig, _) = makeRemoteConfig()
            for round in 1...2 {
                let active = remoteConfig.snapshot.active
                let activeVersion = remoteConfig.activeTemplateVersion
                server.inject(.malformedJSON(route: .remoteConfigFetch))
                let failed = fetchAndActivate(remoteConfig)
                guard case .failed(_, RemoteConfigError.backend(.invalidResponse)) = failed else {
                    return XCTFail("round \(round): \(failed)")
                }
                XCTAssertEqual(remoteConfig.lastFetchStatus, .failure)
                XCTAssertNil(remoteConfig.throttledUntil, "not a throttling signal")
                XCTAssertEqual(remoteConfig.snapshot.active, active, "round \(round): nothing activated")
                XCTAssertEqual(remoteConfig.activeTemplateVersion, activeVersion)
                guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else { return XCTFail("round \(round): recovery") }
                assertConverged(remoteConfig, "malformed body, round \(round)")
                publishChange()
            }
            XCTAssertEqual(server.remoteConfigFetches.map(\.answeredState), ["UPDATE", "UPDATE"], "the malformed answers are faults, not fetches")
        }
    }

    func testFaultMatrix_fetch503BurstThenRecovery() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(Self.firstTemplate)
            let (remoteConfig, scheduler) = makeRemoteConfig()
            server.inject(.status(503, count: 3, route: .remoteConfigFetch))
            guard case .failed(_, RemoteConfigError.throttled(let until)) = fetchAndActivate(remoteConfig) else { return XCTFail("503") }
            XCTAssertEqual(remoteConfig.snapshot.active, [:])
            XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, 1)
            server.clearFaults()
            XCTAssertTrue(waitUntil { scheduler.now >= until })
            guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else { return XCTFail("recovery") }
            assertConverged(remoteConfig, "503 burst on fetchAndActivate")
        }
    }

    // MARK: - 304 / NO_CHANGE

    func testFaultMatrix_noChangeAnswersKeepTheActiveConfig() throws {
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let fetchesBefore = server.remoteConfigFetches.count
            for mode in [FirebaseTestServer.NoChangeResponse.notModified, .noChangeState] {
                server.remoteConfigNoChangeResponse = mode
                guard case .completed([.successFetchedFromRemote]) = fetchAndActivate(remoteConfig) else { return XCTFail("\(mode)") }
                XCTAssertFalse(try activate(remoteConfig), "\(mode): nothing new to activate")
                assertConverged(remoteConfig, "\(mode)")
            }
            XCTAssertEqual(server.remoteConfigFetches.dropFirst(fetchesBefore).map(\.answeredState), ["NO_CHANGE", "NO_CHANGE"])
            XCTAssertEqual(server.remoteConfigFetches.dropFirst(fetchesBefore).map(\.ifNoneMatch), [server.remoteConfigETag, server.remoteConfigETag])

            // The realtime stream re-announces the version the client has (then drops, so the
            // client has read it by the time it reconnects): no fetch. A publication with the
            // same values is fetched but reports no key; activating it moves only the version.
            let active = remoteConfig.snapshot.active
            reannounceAndReconnect()
            server.publishTemplate(server.templateEntries)
            XCTAssertTrue(waitUntil { remoteConfig.fetchedTemplateVersion == server.templateVersion })
            XCTAssertFalse(try activate(remoteConfig), "same values")
            assertConverged(remoteConfig, "same values, new version")
            XCTAssertEqual(remoteConfig.snapshot.active, active)

            // A change is reported once; re-announcing its version before the app activates it
            // reports nothing again; the next change is reported with every key still pending.
            let keys = publishChange()
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            reannounceAndReconnect()
            publishChange()
            XCTAssertTrue(updates.waitForElements(2), "\(updates.events)")
            XCTAssertEqual(
                updates.elements,
                [
                    RemoteConfigUpdate(updatedKeys: keys),
                    RemoteConfigUpdate(updatedKeys: changedKeys(from: active, to: server.templateEntries)),
                ], "no update for the version without changes, none for a re-announcement")
            XCTAssertEqual(
                server.remoteConfigFetches.dropFirst(fetchesBefore + 2).map(\.fetchType), ["REALTIME/1", "REALTIME/1", "REALTIME/1"],
                "none for the re-announcements")
            XCTAssertTrue(try activate(remoteConfig))
            assertConverged(remoteConfig, "after NO_CHANGE")
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }

    func testFaultMatrix_realtimeAnnouncementNeverFetchedFailsTyped() throws {
        // The stream announces a version the fetches never deliver (304 each time): three
        // attempts, then `.notFetched`; a new subscription goes on with real publications.
        try XCTAssertNoLeaksEventually {
            let (remoteConfig, _, updates) = try startListening()
            let fetchesBefore = server.remoteConfigFetches.count
            let current = try XCTUnwrap(server.templateVersion)
            server.sendRealtimeMessage(latestTemplateVersion: current + 5)
            XCTAssertTrue(updates.waitForTermination(), "\(updates.events)")
            XCTAssertEqual(realtimeUpdateError(updates), .notFetched)
            let answered = server.remoteConfigFetches.dropFirst(fetchesBefore)
            XCTAssertEqual(answered.map(\.fetchType), ["REALTIME/1", "REALTIME/2", "REALTIME/3"])
            XCTAssertEqual(answered.map(\.answeredState), ["NO_CHANGE", "NO_CHANGE", "NO_CHANGE"])
            assertConverged(remoteConfig, "304 on every attempt")
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
            let fetched = remoteConfig.fetchedTemplateVersion
            let resubscribed = EventRecorder(remoteConfig.configUpdates)
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime))
            XCTAssertEqual(server.remoteConfigRealtimeConnections.last?.lastKnownVersionNumber, fetched)
            let keys = publishChange()
            XCTAssertTrue(resubscribed.waitForElements(1), "\(resubscribed.events)")
            XCTAssertEqual(resubscribed.elements, [RemoteConfigUpdate(updatedKeys: keys)])
            XCTAssertTrue(try activate(remoteConfig))
            assertConverged(remoteConfig, "resubscribed after .notFetched")
            resubscribed.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }
}
