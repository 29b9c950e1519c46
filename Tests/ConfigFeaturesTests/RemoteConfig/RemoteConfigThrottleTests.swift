import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class RemoteConfigThrottleTests: XCTestCase {
    /// 2 min, doubling, capped at 4 h; with `r = 0.5` the jitter factor `0.5 + r` is exactly 1.
    func testThrottle_backoffTimelineDoublesToFourHourCap() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(1), scheduler: scheduler)
            let storage = InMemoryRemoteConfigStorage()
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), storage: storage, scheduler: scheduler, randomSource: { 0.5 })
            backend.failNextFetches(20, with: .rateLimited)

            var start = 100
            let expectedIntervals = [120, 240, 480, 960, 1_920, 3_840, 7_680, 14_400, 14_400]
            for (attempt, interval) in expectedIntervals.enumerated() {
                let end = start + 1 + interval
                let failed = scheduler.recordEvents(subscribed: start) { remoteConfig.fetch() }
                let fastFail = scheduler.recordEvents(subscribed: start + 10) { remoteConfig.fetch(withExpirationDuration: 0) }
                let lastMoment = scheduler.recordEvents(subscribed: end - 1) { remoteConfig.fetch() }
                scheduler.advanceTo(end)

                XCTAssertEqual(failed.events, [.error(start + 2, RemoteConfigError.throttled(until: at(end)))], "attempt \(attempt + 1)")
                XCTAssertEqual(fastFail.events, [.error(start + 11, RemoteConfigError.throttled(until: at(end)))], "attempt \(attempt + 1)")
                XCTAssertEqual(lastMoment.events, [.error(end, RemoteConfigError.throttled(until: at(end)))], "attempt \(attempt + 1)")
                XCTAssertEqual(backend.fetchCount, attempt + 1, "throttled fetches make no backend call")
                XCTAssertEqual(remoteConfig.lastFetchStatus, .throttled)
                XCTAssertEqual(remoteConfig.throttledUntil, at(end))
                XCTAssertEqual(remoteConfig.snapshot.metadata.throttleAttempts, attempt + 1)
                XCTAssertEqual(storage.snapshot?.metadata.throttleEndTime, at(end), "persisted")
                start = end + 5
            }
            XCTAssertEqual(storage.saveCount, expectedIntervals.count, "one save per failure; failing fast changes nothing to save")
        }
    }

    func testThrottle_jitterFormula() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let random = ScriptedRandom([0.0, 0.75, 0.25])
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), scheduler: scheduler, randomSource: { random.next() })
            backend.failNextFetches(3, with: .unavailable(503))
            // interval = min(120 × 2^(n−1), 14 400) × (0.5 + r)
            let first = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch() }  // 120 × 0.5 = 60 → until 161
            let second = scheduler.recordEvents(subscribed: 161) { remoteConfig.fetch() }  // 240 × 1.25 = 300 → until 462
            let third = scheduler.recordEvents(subscribed: 462) { remoteConfig.fetch() }  // 480 × 0.75 = 360 → until 823
            scheduler.start()
            XCTAssertEqual(first.events, [.error(102, RemoteConfigError.throttled(until: at(161)))])
            XCTAssertEqual(second.events, [.error(163, RemoteConfigError.throttled(until: at(462)))])
            XCTAssertEqual(third.events, [.error(464, RemoteConfigError.throttled(until: at(823)))])
        }
    }

    func testThrottle_outOfRangeRandomIsClamped() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), scheduler: scheduler, randomSource: { -3 })
            backend.failNextFetches(1, with: .rateLimited)
            let res = scheduler.start { remoteConfig.fetch() }
            XCTAssertEqual(res.events, [.error(202, RemoteConfigError.throttled(until: at(201 + 60)))])
        }
    }

    func testThrottle_successResetsBackoff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), scheduler: scheduler, randomSource: { 0.5 })
            backend.failNextFetches(2, with: .rateLimited)
            let first = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch() }  // until 221
            let second = scheduler.recordEvents(subscribed: 221) { remoteConfig.fetch() }  // until 222 + 240
            let success = scheduler.recordEvents(subscribed: 462) { remoteConfig.fetch() }
            scheduler.scheduleAt(500) { backend.failNextFetches(1, with: .unavailable(statusCode: 504)) }
            let again = scheduler.recordEvents(subscribed: 600) { remoteConfig.fetch() }  // first attempt again: 120
            scheduler.start()
            XCTAssertEqual(first.events, [.error(102, RemoteConfigError.throttled(until: at(221)))])
            XCTAssertEqual(second.events, [.error(223, RemoteConfigError.throttled(until: at(462)))])
            XCTAssertEqual(success.events, [.next(464, .success), .completed(464)])
            XCTAssertEqual(again.events, [.error(602, RemoteConfigError.throttled(until: at(721)))])
            XCTAssertEqual(backend.fetchCount, 4)
        }
    }

    func testThrottle_nonServerFailuresDoNotBackOff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), scheduler: scheduler)
            backend.failNextFetches(3, with: .network(message: "offline"))
            let results = (0..<4).map { index in scheduler.recordEvents(subscribed: 100 + 10 * index) { remoteConfig.fetch() } }
            scheduler.start()
            for index in 0..<3 {
                XCTAssertEqual(results[index].events, [.error(102 + 10 * index, RemoteConfigError.backend(.network(message: "offline")))])
            }
            XCTAssertEqual(results[3].events, [.next(132, .success), .completed(132)])
            XCTAssertEqual(backend.fetchCount, 4)
            XCTAssertNil(remoteConfig.throttledUntil)
        }
    }

    func testThrottle_cachedFetchStillServedDuringBackoff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetchAndActivate() }
            scheduler.scheduleAt(150) { backend.failNextFetches(1, with: .rateLimited) }
            let forced = scheduler.recordEvents(subscribed: 200) { remoteConfig.fetch(withExpirationDuration: 0) }
            let cached = scheduler.recordEvents(subscribed: 210) { remoteConfig.fetch() }
            let forcedAgain = scheduler.recordEvents(subscribed: 220) { remoteConfig.fetch(withExpirationDuration: 0) }
            scheduler.start()
            XCTAssertEqual(forced.events, [.error(202, RemoteConfigError.throttled(until: at(321)))])
            XCTAssertEqual(cached.events, [.next(211, .success), .completed(211)], "the last successful fetch is still fresh")
            XCTAssertEqual(forcedAgain.events, [.error(221, RemoteConfigError.throttled(until: at(321)))])
            XCTAssertEqual(backend.fetchCount, 2)
            XCTAssertEqual(remoteConfig["a"].stringValue, "1")
        }
    }

    func testBackendError_throttlingSignals() {
        XCTAssertTrue(RemoteConfigBackendError.rateLimited.isThrottlingSignal)
        XCTAssertTrue(RemoteConfigBackendError.unavailable(statusCode: 500).isThrottlingSignal)
        XCTAssertTrue(RemoteConfigBackendError.unavailable(503).isThrottlingSignal)
        XCTAssertFalse(RemoteConfigBackendError.network("x").isThrottlingSignal)
        XCTAssertFalse(RemoteConfigBackendError.http(statusCode: 400, message: "bad").isThrottlingSignal)
        XCTAssertFalse(RemoteConfigBackendError.invalidResponse("x").isThrottlingSignal)
        XCTAssertEqual(RemoteConfigBackendError.unavailable(503), .unavailable(statusCode: 503))
    }
}
