import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// Which failed realtime connections `configUpdates` retries (Firebase's Android SDK: HTTP 408,
/// 429, 502, 503, 504 and network errors) and which end it at once (403 as
/// `.realtimeDisabled`, any other status as `.httpError`).
final class RemoteConfigRealtimeRetryTests: XCTestCase {
    /// Google's answer when the project has not enabled the Realtime API.
    static let realtimeDisabledMessage =
        "Firebase Remote Config Realtime API has not been used in project 123456789 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/firebaseremoteconfigrealtime.googleapis.com/overview?project=123456789 then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry."

    static let retryable: [RemoteConfigBackendError] = [
        .http(statusCode: 408, message: "Request Timeout"),
        .rateLimited,
        .unavailable(statusCode: 502),
        .unavailable(statusCode: 503),
        .unavailable(statusCode: 504),
        .network(message: "offline"),
    ]

    /// A client that fetched and activated `{a: 1}` at 100 (template 1).
    private func makeActivatedClient(_ scheduler: TestScheduler, backend: InMemoryRemoteConfigBackend) -> RemoteConfig {
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
        _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetchAndActivate() }
        scheduler.advanceTo(150)
        return remoteConfig
    }

    // MARK: - Retried

    func testConfigUpdates_retryableFailuresReconnectAfterBackoff() {
        for error in Self.retryable {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
                let remoteConfig = makeActivatedClient(scheduler, backend: backend)
                scheduler.scheduleAt(300) {
                    backend.failNextRealtimeConnections(2, with: error)
                    backend.dropRealtimeStreams(with: error)
                }
                scheduler.scheduleAt(400) { backend.publish(["a": "2"]) }
                let res = scheduler.start { remoteConfig.configUpdates }

                // Failures at 301, 303, 306; reconnections 1, 2, 4 s later; the third is accepted.
                XCTAssertEqual(backend.realtimeConnectionTimes, [200, 302, 305, 310].map(at), "\(error)")
                XCTAssertEqual(res.events, [.next(403, RemoteConfigUpdate(updatedKeys: ["a"]))], "\(error): no error, live again")
                XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            }
        }
    }

    func testConfigUpdates_retryableFailuresShareOneBudgetThenStreamError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            let last = RemoteConfigBackendError.http(statusCode: 408, message: "Request Timeout")
            scheduler.scheduleAt(300) {
                backend.failNextRealtimeConnections(1, with: .rateLimited)
                for error in Self.retryable.reversed() { backend.failNextRealtimeConnections(1, with: error) }
                backend.dropRealtimeStreams()
            }
            let res = scheduler.start { remoteConfig.configUpdates }

            // 8 consecutive failures of every retryable kind (the last one 408): 7 reconnections.
            XCTAssertEqual(backend.realtimeConnectionTimes, [200, 302, 305, 310, 319, 336, 369, 434].map(at))
            XCTAssertEqual(res.events, [.error(436, RemoteConfigUpdateError.streamError(last.description))])
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: - Not retried

    func testConfigUpdates_403IsRealtimeDisabledAtOnce() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            backend.failNextRealtimeConnections(1, with: .http(statusCode: 403, message: Self.realtimeDisabledMessage))
            let res = scheduler.start { remoteConfig.configUpdates }

            XCTAssertEqual(res.events, [.error(202, RemoteConfigUpdateError.realtimeDisabled(message: Self.realtimeDisabledMessage))])
            XCTAssertEqual(backend.realtimeConnectionTimes, [at(200)], "no reconnection")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testConfigUpdates_otherStatusesAreHTTPErrorsAtOnce() {
        let cases: [(RemoteConfigBackendError, RemoteConfigUpdateError)] = [
            (.unavailable(statusCode: 500), .httpError(statusCode: 500, message: "service unavailable")),
            (.http(statusCode: 400, message: "bad request"), .httpError(statusCode: 400, message: "bad request")),
            (.http(statusCode: 401, message: "unauthenticated"), .httpError(statusCode: 401, message: "unauthenticated")),
            (.http(statusCode: 404, message: "no such project"), .httpError(statusCode: 404, message: "no such project")),
        ]
        for (failure, expected) in cases {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
                let remoteConfig = makeActivatedClient(scheduler, backend: backend)
                backend.failNextRealtimeConnections(1, with: failure)
                let res = scheduler.start { remoteConfig.configUpdates }

                XCTAssertEqual(res.events, [.error(202, expected)], "\(failure)")
                XCTAssertEqual(backend.realtimeConnectionCount, 1, "\(failure): no reconnection")
                XCTAssertNoPendingWork(scheduler)
            }
        }
    }

    func testConfigUpdates_403AfterRetriesEndsWithoutSpendingTheBudget() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) {
                backend.failNextRealtimeConnections(1, with: .unavailable(statusCode: 503))
                backend.failNextRealtimeConnections(1, with: .http(statusCode: 403, message: Self.realtimeDisabledMessage))
                backend.dropRealtimeStreams()
            }
            let res = scheduler.start { remoteConfig.configUpdates }

            // Dropped at 301 → 302 (503 at 303) → 305 (403 at 306): the error follows at once.
            XCTAssertEqual(backend.realtimeConnectionTimes, [200, 302, 305].map(at))
            XCTAssertEqual(res.events, [.error(307, RemoteConfigUpdateError.realtimeDisabled(message: Self.realtimeDisabledMessage))])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: - Through HTTPRemoteConfigBackend (the status and Google's body on the wire)

    private let wire = RemoteConfigWire(
        fetchBaseURL: URL(string: "https://rc.test")!,
        realtimeBaseURL: URL(string: "https://rt.test")!,
        project: "123456789",
        apiKey: "key",
        appID: "1:1:ios:1",
        appInstanceID: "instance",
        sdkVersion: "11.0.0",
        languageCode: "en"
    )

    /// A client over `HTTPRemoteConfigBackend` whose every realtime connection answers the next
    /// of `statuses` (the last one repeats) with Google's error body, recording when each opened.
    private func makeHTTPClient(_ scheduler: TestScheduler, statuses: [Int], message: String, opened: LockedState<[TestTime]>) -> RemoteConfig {
        let remaining = LockedState(statuses)
        let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
            opened.withLock { $0.append(scheduler.clock) }
            let status = remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            stream.open(status: status)
            guard status != 200 else { return }
            let text = #"{"error":{"code":\#(status),"message":"\#(message)","status":"PERMISSION_DENIED"}}"#
            stream.send(String(text.prefix(40)))  // the body arrives in chunks
            stream.send(String(text.dropFirst(40)))
            stream.complete()
        }
        let backend = HTTPRemoteConfigBackend(wire: wire, transport: transport)
        return RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
    }

    func testConfigUpdates_http403CarriesGooglesMessageAndIsNotRetried() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let remoteConfig = makeHTTPClient(scheduler, statuses: [403], message: Self.realtimeDisabledMessage, opened: opened)
            let res = scheduler.start { remoteConfig.configUpdates }
            // The connection fails at 200; the error is delivered by the next scheduler action.
            XCTAssertEqual(res.events, [.error(201, RemoteConfigUpdateError.realtimeDisabled(message: Self.realtimeDisabledMessage))])
            XCTAssertEqual(opened.withLock { $0 }, [200], "one connection attempt")
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testConfigUpdates_http408And502ToThe504AreRetriedUntilAccepted() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let remoteConfig = makeHTTPClient(scheduler, statuses: [408, 429, 502, 503, 504, 200], message: "try later", opened: opened)
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(opened.withLock { $0 }, [200, 201, 203, 207, 215, 231], "1, 2, 4, 8, 16 s")
        }
    }

    func testConfigUpdates_http500IsHTTPErrorAtOnce() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let remoteConfig = makeHTTPClient(scheduler, statuses: [500], message: "internal", opened: opened)
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.error(201, RemoteConfigUpdateError.httpError(statusCode: 500, message: "service unavailable"))])
            XCTAssertEqual(opened.withLock { $0 }, [200])
        }
    }
}
