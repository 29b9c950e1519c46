import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// Issue #31 item 5, "at launch with persistence and no network, the last comments show at
/// once": user1's app reads and writes through a `LocalFirstRealtimeDatabase` with file
/// persistence in a temporary folder; a "relaunch" is a new database on the same folder after
/// the first one was released. The server is an `InMemoryRealtimeDatabase`, cut with its
/// `connectivity`; user2 follows group0 through a local-first client of its own (no
/// persistence), which reconnects by itself. Virtual time (1 tick = 1 second).
final class GroupCommentsRelaunchTests: XCTestCase {
    private let comments0 = GroupSeed.comments0
    /// A retry policy without jitter: 10, 20, 40, 40… ticks.
    private let backoff = BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0)
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("GroupCommentsRelaunchTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeServer(_ scheduler: TestScheduler) throws -> InMemoryRealtimeDatabase {
        try InMemoryRealtimeDatabase(
            scheduler: scheduler, value: GroupSeed.databaseWithUser2, pushIDGenerator: PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 31)))
    }

    /// The app's database: local-first, its cache and pending writes in `directory`.
    private func makeApp(_ scheduler: TestScheduler, remote: any RealtimeDatabase) -> LocalFirstRealtimeDatabase {
        LocalFirstRealtimeDatabase(
            remote: remote, persistence: .file(directory: directory, maximumCacheSize: 1_000_000), scheduler: scheduler,
            reconnectBackoff: backoff, random: { 0.5 })
    }

    /// group0's comments as `listener` shows them to `user`, from `time` to `disposed`.
    private func group0(
        _ scheduler: TestScheduler, _ listener: GroupCommentsListener, user: String, at time: TestTime, until disposed: TestTime
    ) -> TestableObserver<[String]> {
        scheduler.record(at: time, disposeAt: disposed) { listener.listen(user: user).map { $0["group0"] ?? [] } }
    }

    /// The first launch, 0-300: user1's app shows group0 from the server (206), goes offline at
    /// 250, posts "on my way" at 260 (shown at 261, on disk, not sent), and is closed at 300.
    /// Returns what the app showed; the app's database has been released.
    private func firstLaunch(_ scheduler: TestScheduler, server: InMemoryRealtimeDatabase) -> [Recorded<Event<[String]>>] {
        var app: LocalFirstRealtimeDatabase? = makeApp(scheduler, remote: server)
        weak let released = app
        let shown: TestableObserver<[String]>
        do {
            let listener = GroupCommentsListener(database: app!)
            shown = group0(scheduler, listener, user: "user1", at: 200, until: 300)
            scheduler.scheduleAt(250) { app?.goOffline() }
            let post = scheduler.record(at: 260, disposeAt: 300) { listener.post("on my way", to: "group0").asObservable() }
            scheduler.advanceTo(300)
            XCTAssertEqual(post.events, [], "not acknowledged: the app was offline")
        }
        app = nil
        XCTAssertNil(released, "the first launch's database is gone")
        return shown.events
    }

    func testRelaunch_withNoNetwork_showsTheLastCommentsAtOnce_thenTheServers_andSendsTheOfflinePostOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try makeServer(scheduler)
            let other = LocalFirstRealtimeDatabase(remote: server, scheduler: scheduler, reconnectBackoff: backoff, random: { 0.5 })
            let others = group0(scheduler, GroupCommentsListener(database: other), user: "user2", at: 200, until: 1000)

            let firstRun = firstLaunch(scheduler, server: server)
            XCTAssertEqual(firstRun, [.next(206, comments0), .next(261, comments0 + ["on my way"])])

            // At 300, the app closed, user2's comment reaches the server; the network is down from
            // 400 to 600.
            try server.setValue("comment0-3", at: "Groups/group0/3")
            scheduler.scheduleAt(400) { server.connectivity = .offline }
            scheduler.scheduleAt(600) { server.connectivity = .online }

            // The relaunch at 500, with no network: the cached comments and the pending post.
            scheduler.advanceTo(500)
            let remote = RecordingDatabase(base: server)
            var attempts: [TestTime] = []
            remote.beforeSend = { _ in attempts.append(scheduler.clock) }
            let app = makeApp(scheduler, remote: remote)
            let connected = scheduler.record(at: 500, disposeAt: 1000) { app.observeValue(at: ".info/connected") }
            let pending = scheduler.record(at: 500, disposeAt: 1000) { app.pendingWriteCount }
            let shown = group0(scheduler, GroupCommentsListener(database: app), user: "user1", at: 500, until: 1000)
            scheduler.start()

            XCTAssertNil(app.persistenceError)
            XCTAssertEqual(
                shown.events,
                [
                    // At once, from the files, with the server unreachable: what the app showed
                    // when it was closed, its own offline post included (the membership at 502,
                    // the groups two ticks later, as from a synced cache).
                    .next(504, comments0 + ["on my way"]),
                    // The server is back at 600; the app's retry at 614 reaches it, and the
                    // observations read the server's data at 616: user2's comment, with the post.
                    .next(616, comments0 + ["comment0-3", "on my way"]),
                ])
            // Connected until the first request fails (the post, sent at the launch).
            XCTAssertEqual(connected.events, [.next(501, true), .next(502, false), .next(616, true)])
            XCTAssertEqual(pending.events, [.next(501, 1), .next(616, 0)])
            // The post was sent at the relaunch and with each retry (backoff 10, 20, 40, 40
            // ticks, each a tick after the failure); the server refused all but the last.
            XCTAssertEqual(attempts, [500, 511, 532, 573, 614])
            XCTAssertEqual(remote.sent.count, 5, "\(remote.sent)")
            XCTAssertTrue(remote.sent.allSatisfy { $0 == remote.sent[0] }, "the same write, under the push ID drawn at the first launch")
            // user2 (local-first too): the comment written at 300, then the network cut from 400
            // to 600; its own retry reaches the server at 639 and brings the post, once.
            XCTAssertEqual(
                others.events,
                [.next(206, comments0), .next(302, comments0 + ["comment0-3"]), .next(639, comments0 + ["comment0-3", "on my way"])])
            let stored = try XCTUnwrap(try server.value(at: "Groups/group0").objectValue)
            XCTAssertEqual(stored.values.filter { $0 == "on my way" }.count, 1, "\(stored)")
            XCTAssertEqual(stored.count, 5, "\(stored)")
            XCTAssertNoPendingWork(scheduler)
        }
    }
}
