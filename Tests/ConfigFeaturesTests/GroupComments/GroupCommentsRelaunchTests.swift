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
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("GroupCommentsRelaunchTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testRelaunch_withNoNetwork_showsTheLastCommentsAtOnce_thenTheServers_andSendsTheOfflinePostOnce() throws {
        try XCTAssertNoLeaks {
            let run = try RelaunchScenario.run(directory: directory)

            XCTAssertEqual(run.firstLaunch, [.next(206, comments0), .next(261, comments0 + ["on my way"])])
            XCTAssertEqual(run.firstPost, [], "not acknowledged: the app was offline")
            XCTAssertTrue(run.firstLaunchReleased, "the first launch's database is gone before the relaunch")
            XCTAssertNil(run.persistenceError)
            XCTAssertEqual(
                run.relaunch,
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
            XCTAssertEqual(run.connected, [.next(501, true), .next(502, false), .next(616, true)])
            XCTAssertEqual(run.pending, [.next(501, 1), .next(616, 0)])
            // The post was sent at the relaunch and with each retry (backoff 10, 20, 40, 40
            // ticks, each a tick after the failure); the server refused all but the last.
            XCTAssertEqual(run.attempts, [500, 511, 532, 573, 614])
            XCTAssertEqual(run.sent.count, 5, "\(run.sent)")
            XCTAssertTrue(run.sent.allSatisfy { $0 == run.sent[0] }, "the same write, under the push ID drawn at the first launch")
            // user2 (local-first too): the comment written at 300, then the network cut from 400
            // to 600; its own retry reaches the server at 639 and brings the post, once.
            XCTAssertEqual(
                run.other, [.next(206, comments0), .next(302, comments0 + ["comment0-3"]), .next(639, comments0 + ["comment0-3", "on my way"])])
            let stored = try XCTUnwrap(run.stored.objectValue)
            XCTAssertEqual(stored.values.filter { $0 == "on my way" }.count, 1, "\(stored)")
            XCTAssertEqual(stored.count, 5, "\(stored)")
        }
    }
}

/// The relaunch timeline, shared by `GroupCommentsRelaunchTests` and the article's checked
/// timeline (`FeaturesGroupCommentsArticleTests`).
///
///     launch 1:  200: listen   250: goOffline   260: post "on my way"   300: closed (released)
///     server:    300: comment0-3 written   400: offline   600: online
///     launch 2:  500: a new database on the same folder, listen
///     user2:     200-1000: listens through a local-first client (no persistence)
enum RelaunchScenario {
    /// What one run recorded.
    struct Run {
        var firstLaunch: [Recorded<Event<[String]>>]
        /// The first launch's post (not acknowledged: the app was offline).
        var firstPost: [Recorded<Event<Never>>]
        var firstLaunchReleased: Bool
        var relaunch: [Recorded<Event<[String]>>]
        var connected: [Recorded<Event<JSONValue>>]
        var pending: [Recorded<Event<Int>>]
        var other: [Recorded<Event<[String]>>]
        /// When the relaunched app sent a write, and what.
        var attempts: [TestTime]
        var sent: [RealtimeDatabaseWrite]
        var persistenceError: RealtimeDatabasePersistenceError?
        /// The server's group0 at the end.
        var stored: JSONValue
    }

    /// A retry policy without jitter: 10, 20, 40, 40… ticks.
    static let backoff = BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0)

    /// Runs the timeline with the app's files in `directory` (which the caller removes).
    static func run(directory: URL) throws -> Run {
        let scheduler = TestScheduler(initialClock: 0)
        let server = try InMemoryRealtimeDatabase(
            scheduler: scheduler, value: GroupSeed.databaseWithUser2, pushIDGenerator: PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 31)))
        func makeApp(_ remote: any RealtimeDatabase) -> LocalFirstRealtimeDatabase {
            LocalFirstRealtimeDatabase(
                remote: remote, persistence: .file(directory: directory, maximumCacheSize: 1_000_000), scheduler: scheduler,
                reconnectBackoff: backoff, random: { 0.5 })
        }
        func group0(_ database: RealtimeDatabase, user: String, at time: TestTime, until disposed: TestTime) -> TestableObserver<[String]> {
            scheduler.recordEvents(subscribed: time, disposed: disposed) {
                GroupCommentsListener(database: database).listen(user: user).map { $0["group0"] ?? [] }
            }
        }
        let other = LocalFirstRealtimeDatabase(remote: server, scheduler: scheduler, reconnectBackoff: backoff, random: { 0.5 })
        let others = group0(other, user: "user2", at: 200, until: 1000)

        // The first launch, closed at 300 with its post not sent.
        var app: LocalFirstRealtimeDatabase? = makeApp(server)
        weak let released = app
        let firstLaunch: TestableObserver<[String]>, firstPost: TestableObserver<Never>
        do {
            firstLaunch = group0(app!, user: "user1", at: 200, until: 300)
            scheduler.scheduleAt(250) { app?.goOffline() }
            let listener = GroupCommentsListener(database: app!)
            firstPost = scheduler.recordEvents(subscribed: 260, disposed: 300) { listener.post("on my way", to: "group0").asObservable() }
            scheduler.advanceTo(300)
        }
        app = nil
        let firstLaunchReleased = released == nil

        try server.setValue("comment0-3", at: "Groups/group0/3")
        scheduler.scheduleAt(400) { server.connectivity = .offline }
        scheduler.scheduleAt(600) { server.connectivity = .online }

        // The relaunch at 500.
        scheduler.advanceTo(500)
        let remote = RecordingDatabase(base: server)
        var attempts: [TestTime] = []
        remote.beforeSend = { _ in attempts.append(scheduler.clock) }
        let relaunched = makeApp(remote)
        let connected = scheduler.recordEvents(subscribed: 500, disposed: 1000) { relaunched.observeValue(at: ".info/connected") }
        let pending = scheduler.recordEvents(subscribed: 500, disposed: 1000) { relaunched.pendingWriteCount }
        let relaunch = group0(relaunched, user: "user1", at: 500, until: 1000)
        scheduler.start()
        XCTAssertNoPendingWork(scheduler)

        return Run(
            firstLaunch: firstLaunch.events, firstPost: firstPost.events, firstLaunchReleased: firstLaunchReleased,
            relaunch: relaunch.events, connected: connected.events, pending: pending.events, other: others.events,
            attempts: attempts, sent: remote.sent, persistenceError: relaunched.persistenceError,
            stored: try server.value(at: "Groups/group0"))
    }
}
