import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class InMemoryRemoteConfigBackendTests: XCTestCase {
    func testFetch_answersAfterLatencyFollowingTheProtocol() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(3), scheduler: scheduler)
            XCTAssertEqual(backend.templateVersion, 1)
            XCTAssertEqual(backend.eTag, "etag-1")
            let updated = scheduler.recordEvents(subscribed: 200) { backend.fetch(RemoteConfigFetchRequest()) }
            let unchanged = scheduler.recordEvents(subscribed: 300) { backend.fetch(RemoteConfigFetchRequest(eTag: "etag-1")) }
            scheduler.scheduleAt(350) { backend.publish([:]) }
            let empty = scheduler.recordEvents(subscribed: 400) { backend.fetch(RemoteConfigFetchRequest(eTag: "etag-1")) }
            scheduler.start()
            XCTAssertEqual(updated.events, [.next(203, .updated(entries: ["a": "1"], templateVersion: 1, eTag: "etag-1")), .completed(203)])
            XCTAssertEqual(unchanged.events, [.next(303, .noChange(templateVersion: 1, eTag: "etag-1")), .completed(303)])
            XCTAssertEqual(empty.events, [.next(403, .emptyConfig(templateVersion: 2, eTag: "etag-2")), .completed(403)])
            XCTAssertEqual(backend.fetchCount, 3)
            XCTAssertEqual(backend.fetchRequests.map(\.eTag), [nil, "etag-1", "etag-1"])
        }
    }

    func testFetch_injectedFailuresThenScriptedResponsesInOrder() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            backend.failNextFetches(2, with: .rateLimited)
            backend.respondToNextFetches(1, with: .noTemplate(eTag: nil))
            let results = (0..<4).map { index in scheduler.recordEvents(subscribed: 200 + 10 * index) { backend.fetch(RemoteConfigFetchRequest()) } }
            scheduler.start()
            XCTAssertEqual(results[0].events, [.error(201, RemoteConfigBackendError.rateLimited)])
            XCTAssertEqual(results[1].events, [.error(211, RemoteConfigBackendError.rateLimited)])
            XCTAssertEqual(results[2].events, [.next(221, .noTemplate(eTag: nil)), .completed(221)])
            XCTAssertEqual(results[3].events, [.next(231, .updated(entries: ["a": "1"], templateVersion: 1, eTag: "etag-1")), .completed(231)])
        }
    }

    func testFetch_disposeCancelsTheResponse() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(10), scheduler: scheduler)
            var open: [Int] = []
            scheduler.scheduleAt(201) { open.append(backend.openFetchCount) }
            scheduler.scheduleAt(206) { open.append(backend.openFetchCount) }
            let res = scheduler.start(disposed: 205) { backend.fetch(RemoteConfigFetchRequest()) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(open, [1, 0])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testRealtime_announcesNewerVersionsAndPublications() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(2), scheduler: scheduler)
            let neverFetched = scheduler.recordEvents(subscribed: 200, disposed: 500) { backend.realtimeInvalidations(lastKnownTemplateVersion: nil) }
            let upToDate = scheduler.recordEvents(subscribed: 200, disposed: 500) { backend.realtimeInvalidations(lastKnownTemplateVersion: 1) }
            scheduler.scheduleAt(300) { backend.publish(["a": "2"]) }
            scheduler.scheduleAt(400) { backend.sendInvalidation(RemoteConfigInvalidation(latestTemplateVersion: 2, retryInterval: 5)) }
            var counts: [Int] = []
            for time in [199, 250, 501] { scheduler.scheduleAt(time) { counts.append(backend.activeRealtimeStreamCount) } }
            scheduler.start()
            XCTAssertEqual(
                neverFetched.events,
                [
                    .next(202, RemoteConfigInvalidation(latestTemplateVersion: 1)),
                    .next(302, RemoteConfigInvalidation(latestTemplateVersion: 2)),
                    .next(402, RemoteConfigInvalidation(latestTemplateVersion: 2, retryInterval: 5)),
                ])
            XCTAssertEqual(
                upToDate.events,
                [
                    .next(302, RemoteConfigInvalidation(latestTemplateVersion: 2)),
                    .next(402, RemoteConfigInvalidation(latestTemplateVersion: 2, retryInterval: 5)),
                ])
            XCTAssertEqual(counts, [0, 2, 0])
        }
    }

    func testRealtime_dropsFailuresAndDisable() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let dropped = scheduler.recordEvents(subscribed: 200, disposed: 1_000) { backend.realtimeInvalidations(lastKnownTemplateVersion: 1) }
            scheduler.scheduleAt(300) { backend.dropRealtimeStreams() }
            scheduler.scheduleAt(350) { backend.failNextRealtimeConnections(1, with: .unavailable(503)) }
            let refused = scheduler.recordEvents(subscribed: 400, disposed: 1_000) { backend.realtimeInvalidations(lastKnownTemplateVersion: 1) }
            let disabled = scheduler.recordEvents(subscribed: 500, disposed: 1_000) { backend.realtimeInvalidations(lastKnownTemplateVersion: 1) }
            scheduler.scheduleAt(600) { backend.disableRealtime() }
            let later = scheduler.recordEvents(subscribed: 700, disposed: 1_000) { backend.realtimeInvalidations(lastKnownTemplateVersion: 1) }
            scheduler.start()
            XCTAssertEqual(dropped.events, [.error(301, RemoteConfigBackendError.network(message: "connection reset"))])
            XCTAssertEqual(refused.events, [.error(401, RemoteConfigBackendError.unavailable(statusCode: 503))])
            XCTAssertEqual(disabled.events, [.next(601, RemoteConfigInvalidation(latestTemplateVersion: 1, featureDisabled: true))])
            XCTAssertEqual(later.events, [.next(701, RemoteConfigInvalidation(latestTemplateVersion: 1, featureDisabled: true))])
            XCTAssertEqual(backend.realtimeConnectionCount, 4)
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }
}
