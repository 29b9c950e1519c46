import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class RemoteConfigRealtimeTests: XCTestCase {
    private func update(_ keys: Set<String>) -> RemoteConfigUpdate { RemoteConfigUpdate(updatedKeys: keys) }

    /// A client that fetched and activated `{a: 1, b: 2}` at 100 (template 1).
    private func makeActivatedClient(_ scheduler: TestScheduler, backend: InMemoryRemoteConfigBackend) -> RemoteConfig {
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
        _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetchAndActivate() }
        scheduler.advanceTo(150)
        return remoteConfig
    }

    func testConfigUpdates_emitExactlyTheChangedKeys() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1", "b": "2"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            XCTAssertEqual(backend.fetchCount, 1)

            scheduler.scheduleAt(300) { backend.publish(["a": "1", "b": "3", "c": "4"]) }  // b changed, c added
            _ = scheduler.recordEvents(subscribed: 400) { remoteConfig.activate() }
            scheduler.scheduleAt(500) { backend.publish(["a": "1", "b": "3"]) }  // c removed
            _ = scheduler.recordEvents(subscribed: 550) { remoteConfig.activate() }
            scheduler.scheduleAt(600) { backend.publish(["a": "1", "b": "3"]) }  // new version, same values
            scheduler.scheduleAt(700) { backend.publish(["a": "9", "b": "3"]) }
            let res = scheduler.start { remoteConfig.configUpdates }

            XCTAssertEqual(
                res.events,
                [
                    .next(303, update(["b", "c"])),
                    .next(503, update(["c"])),
                    .next(703, update(["a"])),
                ])
            XCTAssertEqual(backend.fetchCount, 5, "one fetch per newer template, bypassing the 12 h interval")
            XCTAssertEqual(backend.fetchRequests.last?.fetchType, .realtime(attempt: 1))
            XCTAssertEqual(remoteConfig["a"].stringValue, "1", "the caller activates")
            XCTAssertEqual(remoteConfig.snapshot.fetched, ["a": "9", "b": "3"])
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }

    func testConfigUpdates_diffIsFetchedVersusActive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1", "b": "2"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.publish(["a": "2", "b": "2"]) }
            scheduler.scheduleAt(400) { backend.publish(["a": "2", "b": "5"]) }  // a is still not activated
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.next(303, update(["a"])), .next(403, update(["a", "b"]))])
        }
    }

    func testConfigUpdates_firstConnectionFetchesWhenNeverFetched() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1", "b": "2"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.next(203, update(["a", "b"]))])
            XCTAssertEqual(remoteConfig.fetchedTemplateVersion, 1)
            XCTAssertEqual(remoteConfig.lastFetchStatus, .success)
        }
    }

    func testConfigUpdates_shareOneConnectionAndCloseOnLastDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            let first = scheduler.recordEvents(subscribed: 200, disposed: 400) { remoteConfig.configUpdates }
            let second = scheduler.recordEvents(subscribed: 250, disposed: 500) { remoteConfig.configUpdates }
            let third = scheduler.recordEvents(subscribed: 600, disposed: 700) { remoteConfig.configUpdates }
            scheduler.scheduleAt(300) { backend.publish(["a": "2"]) }
            scheduler.scheduleAt(450) { backend.publish(["a": "3"]) }
            scheduler.scheduleAt(650) { backend.publish(["a": "4"]) }

            var counts: [Int: Int] = [:]
            for time in [199, 260, 399, 401, 499, 501, 601, 699, 701] {
                scheduler.scheduleAt(time) { counts[time] = backend.activeRealtimeStreamCount }
            }
            scheduler.start()

            XCTAssertEqual(first.events, [.next(303, update(["a"]))])
            XCTAssertEqual(second.events, [.next(303, update(["a"])), .next(453, update(["a"]))])
            XCTAssertEqual(third.events, [.next(653, update(["a"]))])
            XCTAssertEqual(counts, [199: 0, 260: 1, 399: 1, 401: 1, 499: 1, 501: 0, 601: 1, 699: 1, 701: 0])
            XCTAssertEqual(backend.realtimeConnectionCount, 2, "one connection for the first two subscribers, a new one for the third")
            XCTAssertEqual(backend.fetchCount, 4, "one fetch per update however many subscribers")
        }
    }

    func testConfigUpdates_reconnectAfterDroppedStreamAndCatchUp() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.dropRealtimeStreams() }  // error arrives at 301, reconnect after 1 s
            scheduler.scheduleAt(301) { backend.publish(["a": "2"]) }  // published while disconnected
            var counts: [Int: Int] = [:]
            for time in [299, 301, 303] { scheduler.scheduleAt(time) { counts[time] = backend.activeRealtimeStreamCount } }
            let res = scheduler.start { remoteConfig.configUpdates }

            XCTAssertEqual(res.events, [.next(305, update(["a"]))], "the new connection announces the missed version")
            XCTAssertEqual(backend.realtimeConnectionTimes, [at(200), at(302)])
            XCTAssertEqual(counts, [299: 1, 301: 0, 303: 1])
        }
    }

    func testConfigUpdates_reconnectBackoffThenStreamError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) {
                backend.failNextRealtimeConnections(7, with: .unavailable(statusCode: 503))
                backend.dropRealtimeStreams()
            }
            let res = scheduler.start { remoteConfig.configUpdates }

            // Drops at 301, 303, 306, 311, 320, 337, 370, 435; reconnections 1, 2, 4, …, 64 s later.
            XCTAssertEqual(backend.realtimeConnectionTimes, [200, 302, 305, 310, 319, 336, 369, 434].map(at))
            XCTAssertEqual(res.events, [.error(436, RemoteConfigUpdateError.streamError("service unavailable (HTTP 503)"))])
            XCTAssertEqual(backend.realtimeConnectionCount, 8)
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }

    func testConfigUpdates_messageResetsReconnectAttempts() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.dropRealtimeStreams() }  // reconnect at 302 (1 s)
            scheduler.scheduleAt(400) { backend.dropRealtimeStreams() }  // second drop in a row: 2 s → 403
            scheduler.scheduleAt(500) { backend.sendInvalidation(RemoteConfigInvalidation(latestTemplateVersion: 1)) }
            scheduler.scheduleAt(600) { backend.dropRealtimeStreams() }  // counter was reset: 1 s → 602
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(backend.realtimeConnectionTimes, [200, 302, 403, 602].map(at))
        }
    }

    func testConfigUpdates_serverRetryIntervalDelaysReconnect() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(250) { backend.sendInvalidation(RemoteConfigInvalidation(latestTemplateVersion: 1, retryInterval: 30)) }
            scheduler.scheduleAt(300) { backend.dropRealtimeStreams() }
            _ = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(backend.realtimeConnectionTimes, [200, 331].map(at), "30 s from the server instead of 1 s")
        }
    }

    func testConfigUpdates_featureDisabledIsUnavailableError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.disableRealtime() }
            let later = scheduler.recordEvents(subscribed: 400, disposed: 1_000) { remoteConfig.configUpdates }
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.error(302, RemoteConfigUpdateError.unavailable)])
            XCTAssertEqual(later.events, [.error(402, RemoteConfigUpdateError.unavailable)], "a later subscriber reconnects and is refused again")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }

    func testConfigUpdates_invalidMessageIsMessageInvalidError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.sendInvalidation(RemoteConfigInvalidation(latestTemplateVersion: -1)) }
            scheduler.scheduleAt(400) { backend.dropRealtimeStreams(with: .invalidResponse(message: "not JSON")) }
            let res = scheduler.start { remoteConfig.configUpdates }
            let next = scheduler.recordEvents(subscribed: 1_100, disposed: 1_300) { remoteConfig.configUpdates }
            scheduler.scheduleAt(1_200) { backend.dropRealtimeStreams(with: .invalidResponse(message: "not JSON")) }
            scheduler.start()
            XCTAssertEqual(res.events, [.error(302, RemoteConfigUpdateError.messageInvalid("negative template version -1"))])
            XCTAssertEqual(next.events, [.error(1_202, RemoteConfigUpdateError.messageInvalid("not JSON"))])
        }
    }

    func testConfigUpdates_fetchRetriesThenSucceeds() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) {
                backend.failNextFetches(1, with: .network(message: "offline"))
                backend.respondToNextFetches(1, with: .updated(entries: ["a": "1"], templateVersion: 1, eTag: "etag-1"))
                backend.publish(["a": "2"])
            }
            let res = scheduler.start { remoteConfig.configUpdates }
            // 301 invalidation → attempt 1 fails at 302 → +1 s → attempt 2 at 303 gets a stale
            // template at 304 → +2 s → attempt 3 at 306 gets version 2 at 307 → emitted at 308.
            XCTAssertEqual(res.events, [.next(308, update(["a"]))])
            XCTAssertEqual(backend.fetchRequests.suffix(3).map(\.fetchType), [.realtime(attempt: 1), .realtime(attempt: 2), .realtime(attempt: 3)])
        }
    }

    func testConfigUpdates_outOfFetchAttemptsIsNotFetchedError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) {
                backend.failNextFetches(3, with: .network(message: "offline"))
                backend.publish(["a": "2"])
            }
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [.error(308, RemoteConfigUpdateError.notFetched)])
            XCTAssertEqual(backend.fetchCount, 4)
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            XCTAssertEqual(remoteConfig["a"].stringValue, "1")
        }
    }

    func testConfigUpdates_noEmissionWhenFetchedEqualsActive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = makeActivatedClient(scheduler, backend: backend)
            scheduler.scheduleAt(300) { backend.publish(["a": "1"]) }
            scheduler.scheduleAt(400) { backend.sendInvalidation(RemoteConfigInvalidation(latestTemplateVersion: 1)) }
            let res = scheduler.start { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(backend.fetchCount, 2, "the old invalidation at 400 does not fetch")
        }
    }

    func testConfigUpdates_disposeMidFetchDropsResult() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(10), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            _ = scheduler.recordEvents(subscribed: 50) { remoteConfig.fetchAndActivate() }
            scheduler.scheduleAt(300) { backend.publish(["a": "2"]) }  // invalidation at 310, fetch answers at 320
            let res = scheduler.start(disposed: 315) { remoteConfig.configUpdates }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(remoteConfig.snapshot.fetched, ["a": "2"], "the started fetch still completed")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testConfigUpdates_releasedClientCompletes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            var remoteConfig: RemoteConfig? = RemoteConfig(backend: backend, scheduler: scheduler)
            let updates = remoteConfig!.configUpdates
            weak let weakClient = remoteConfig
            remoteConfig = nil
            XCTAssertNil(weakClient, "configUpdates does not keep the client alive")
            let res = scheduler.start { updates }
            XCTAssertEqual(res.events, [.completed(200)])
        }
    }
}
