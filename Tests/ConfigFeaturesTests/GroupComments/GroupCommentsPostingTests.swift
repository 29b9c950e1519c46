import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// `GroupCommentsListener.post(_:to:)` on a `LocalFirstRealtimeDatabase`: the poster (user1)
/// reads and writes through its local-first client, another member of group0 (user2) listens
/// to the same server. The server is an `InMemoryRealtimeDatabase`; its `connectivity` or the
/// poster's `goOffline()` cuts the network, in virtual time (1 tick = 1 second).
final class GroupCommentsPostingTests: XCTestCase {
    private let comments0 = GroupSeed.comments0
    /// A retry policy without jitter: 10, 20, 40, 40… ticks.
    private let backoff = BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0)

    /// The server, its push IDs drawn from a known sequence (`keys` draws the same ones).
    private func makeServer(_ scheduler: TestScheduler) throws -> InMemoryRealtimeDatabase {
        try InMemoryRealtimeDatabase(
            scheduler: scheduler, value: GroupSeed.databaseWithUser2, pushIDGenerator: PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 31)))
    }

    /// The push IDs the server draws for posts made at `times`, in that order.
    private func keys(at times: [TestTime]) -> [String] {
        let twin = PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 31))
        return times.map { twin.next(at: Date(timeIntervalSince1970: TimeInterval($0))) }
    }

    private func makeLocalFirst(_ scheduler: TestScheduler, remote: any RealtimeDatabase) -> LocalFirstRealtimeDatabase {
        LocalFirstRealtimeDatabase(remote: remote, scheduler: scheduler, reconnectBackoff: backoff, random: { 0.5 })
    }

    /// group0's comments as `listener` shows them to `user`, subscribed at 200, disposed at 1000.
    private func group0(_ scheduler: TestScheduler, _ listener: GroupCommentsListener, user: String) -> TestableObserver<[String]> {
        record(scheduler) { listener.listen(user: user).map { $0["group0"] ?? [] } }
    }

    /// Posts `text` to group0 at `time`; the post's events.
    private func post(_ scheduler: TestScheduler, _ listener: GroupCommentsListener, _ text: String, at time: TestTime) -> TestableObserver<Never> {
        record(scheduler, at: time) { listener.post(text, to: "group0").asObservable() }
    }

    func testPost_online_isVisibleAtOnceLocallyAndAtTheOtherClientWhenTheServerStoresIt() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            let poster = makeLocalFirst(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let mine = group0(scheduler, GroupCommentsListener(database: poster), user: "user1")
            let others = group0(scheduler, GroupCommentsListener(database: server), user: "user2")
            let posted = post(scheduler, GroupCommentsListener(database: poster), "hi", at: 300)
            scheduler.start()

            // 206: the poster's first snapshot (membership synced at 203, its groups at 206);
            // 301: its own comment, before the server has it; the server stores it at 350 and
            // tells the other client at 351; it acknowledges at 351, the post completes at 352.
            XCTAssertEqual(mine.events, [.next(206, comments0), .next(301, comments0 + ["hi"])])
            XCTAssertEqual(others.events, [.next(202, comments0), .next(351, comments0 + ["hi"])])
            XCTAssertEqual(posted.events, [.completed(352)])
            let key = keys(at: [300])[0]
            XCTAssertEqual(try server.value(at: "Groups/group0"), ["0": "comment0-0", "1": "comment0-1", "2": "comment0-2", key: "hi"])
            XCTAssertEqual(server.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testPost_offline_isVisibleAtOnceLocallyThenReachesTheOtherClientInOrderExactlyOnceOnReconnect() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            let poster = makeLocalFirst(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let listener = GroupCommentsListener(database: poster)
            let mine = group0(scheduler, listener, user: "user1")
            let others = group0(scheduler, GroupCommentsListener(database: server), user: "user2")
            let pending = record(scheduler) { poster.pendingWriteCount }
            scheduler.scheduleAt(250) { poster.goOffline() }
            let first = post(scheduler, listener, "first", at: 300)
            let second = post(scheduler, listener, "second", at: 310)
            scheduler.scheduleAt(390) { XCTAssertEqual(try? server.value(at: "Groups/group0"), ["comment0-0", "comment0-1", "comment0-2"]) }
            scheduler.scheduleAt(400) { poster.goOnline() }
            scheduler.start()

            // Offline 250-400: both posts show at once (301, 311) and wait. Back online, they are
            // sent one at a time over the 50-tick uplink: stored at 450 and 501, seen by the
            // other client a tick later, acknowledged (and the posts completed) at 452 and 503.
            XCTAssertEqual(mine.events, [.next(206, comments0), .next(301, comments0 + ["first"]), .next(311, comments0 + ["first", "second"])])
            XCTAssertEqual(others.events, [.next(202, comments0), .next(451, comments0 + ["first"]), .next(502, comments0 + ["first", "second"])])
            XCTAssertEqual(first.events, [.completed(452)])
            XCTAssertEqual(second.events, [.completed(503)])
            XCTAssertEqual(pending.events, [.next(201, 0), .next(301, 1), .next(311, 2), .next(452, 1), .next(503, 0)])
            let keys = keys(at: [300, 310])
            XCTAssertEqual(
                try server.value(at: "Groups/group0"),
                ["0": "comment0-0", "1": "comment0-1", "2": "comment0-2", keys[0]: "first", keys[1]: "second"])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testPost_whileTheServerIsDown_isDeliveredWhenConnectivityReturns() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            // Both clients are local-first: they lose the server at 250 and reconnect by themselves.
            let poster = makeLocalFirst(scheduler, remote: server)
            let other = makeLocalFirst(scheduler, remote: server)
            let mine = group0(scheduler, GroupCommentsListener(database: poster), user: "user1")
            let others = group0(scheduler, GroupCommentsListener(database: other), user: "user2")
            scheduler.scheduleAt(250) { server.connectivity = .offline }
            let posted = post(scheduler, GroupCommentsListener(database: poster), "hi", at: 300)
            scheduler.scheduleAt(400) { server.connectivity = .online }
            scheduler.start()

            // The observations fail at 251 and are retried at 261, 282, 323, 364 and 405; the
            // first value after 400 (406) marks the server reachable, the post is sent and
            // stored, and the other client sees it, and the poster its acknowledgement, at 407.
            XCTAssertEqual(mine.events, [.next(206, comments0), .next(301, comments0 + ["hi"])])
            XCTAssertEqual(others.events, [.next(206, comments0), .next(407, comments0 + ["hi"])])
            XCTAssertEqual(posted.events, [.completed(407)])
            XCTAssertEqual(try server.value(at: "Groups/group0/\(keys(at: [300])[0])"), "hi")
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testPost_rejected_disappearsFromThePostersListAndFailsWithTheServersError() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            server.connectivity = .rejectingWrites()
            let poster = makeLocalFirst(scheduler, remote: server)
            let mine = group0(scheduler, GroupCommentsListener(database: poster), user: "user1")
            let others = group0(scheduler, GroupCommentsListener(database: server), user: "user2")
            let posted = post(scheduler, GroupCommentsListener(database: poster), "hi", at: 300)
            scheduler.start()

            // Shown at 301, refused by the server at 301, gone at 302 when the post fails.
            XCTAssertEqual(mine.events, [.next(206, comments0), .next(301, comments0 + ["hi"]), .next(302, comments0)])
            XCTAssertEqual(others.events, [.next(202, comments0)])
            XCTAssertEqual(posted.events, [.error(302, RealtimeDatabaseError.permissionDenied(path: "/Groups/group0/\(keys(at: [300])[0])"))])
            XCTAssertEqual(try server.value(at: "Groups/group0"), ["comment0-0", "comment0-1", "comment0-2"])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testPost_invalidGroupID_failsAtOnceAndWritesNothing() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            let listener = GroupCommentsListener(database: makeLocalFirst(scheduler, remote: server))
            let slash = record(scheduler, at: 300) { listener.post("hi", to: "group0/x").asObservable() }
            let dot = record(scheduler, at: 300) { listener.post("hi", to: "a.b").asObservable() }
            scheduler.start()

            XCTAssertEqual(slash.events, [.error(300, RealtimeDatabaseError.invalidPath("Groups/group0/x", reason: "invalid group ID: contains \"/\""))])
            XCTAssertEqual(dot.events.map(\.time), [300])
            guard case .invalidPath("Groups/a.b", _)? = dot.events.first?.value.error as? RealtimeDatabaseError else {
                return XCTFail("expected invalidPath, got \(dot.events)")
            }
            XCTAssertEqual(try server.value(at: "/"), GroupSeed.databaseWithUser2)
        }
    }
}

extension Event {
    fileprivate var error: Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}
