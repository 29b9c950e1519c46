import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time example of the Features-GroupComments article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/Features-GroupComments.md, section "Semantics",
/// listen(_:)): the time-labelled timeline (`210: [g0,g1]`) and the first-emission sentence, run
/// and compared with the article's text. The membership lane drives the run.
final class FeaturesGroupCommentsArticleTests: XCTestCase {
    private let article = "Sources/ConfigFeatures/ConfigFeatures.docc/Features-GroupComments.md"

    /// `time: value` pairs of a time-labelled lane (`210: [g0,g1]       300: [g0,g1,g2]`).
    private func labelled(_ line: String) -> [(time: TestTime, value: String)] {
        let pattern = /(\d+): (.+?)(?=\s{2,}\d+:|\s*$)/
        return line.matches(of: pattern).map { (TestTime($0.1)!, String($0.2)) }
    }

    private func lane(_ label: String, in block: [String]) throws -> String {
        let line = try XCTUnwrap(block.first { $0.hasPrefix(label + ":") }, "no lane \(label):")
        return String(line.dropFirst(label.count + 1))
    }

    private func short(_ group: String) -> String { "g" + group.dropFirst("group".count) }

    func testListenTimeline() throws {
        let block = try Article(article, testFile: #filePath).codeBlock(containing: "membership is a hot observable")
        let membershipLane = labelled(try lane("membership", in: block))
        let scheduler = TestScheduler(initialClock: 0)
        let database = try SpyDatabase(scheduler: scheduler)
        let listener = GroupCommentsListener(database: database)
        var memberships: [Recorded<Event<[String]>>] = []
        for (time, value) in membershipLane {
            if value.hasPrefix("write ") {
                let path = String(value.dropFirst("write ".count))
                scheduleDatabaseWrite(scheduler, at: time) { try database.base.setValue("new", at: path) }
            } else {
                let groups = value.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
                memberships.append(.next(time, groups.map { "group" + $0.dropFirst() }))
            }
        }
        let membership = scheduler.createHotObservable(memberships)
        let seed = ["group0": GroupSeed.comments0, "group1": GroupSeed.comments1, "group2": GroupSeed.comments2]

        let res = scheduler.start { listener.listen(membership.asObservable()) }

        let drawn = res.events.compactMap { recorded -> (time: TestTime, value: String)? in
            guard case .next(let snapshot) = recorded.value else { return nil }
            let groups = snapshot.keys.sorted().map { short($0) + (snapshot[$0] == seed[$0] ? "" : "'") }
            return (recorded.time, "{" + groups.joined(separator: ",") + "}")
        }
        let documented = labelled(try lane("output", in: block))
        XCTAssertEqual(documented.count, 4)
        XCTAssertEqual(documented.map(\.time), drawn.map(\.time))
        XCTAssertEqual(documented.map(\.value), drawn.map(\.value))

        // observed:    g0 210-400 · g1 210-1000 (never re-attached) · g2 300-1000
        let observed = try lane("observed", in: block).matches(of: /g(\d+) (\d+)-(\d+)/)
        XCTAssertEqual(observed.count, 3)
        for match in observed {
            XCTAssertEqual(database.subscriptions("Groups/group\(match.1)"), [Subscription(TestTime(match.2)!, TestTime(match.3)!)], "g\(match.1)")
        }

        let first = try XCTUnwrap(drawn.first?.time)
        XCTAssertTrue(
            try Article(article, testFile: #filePath).says("a membership at \(memberships[0].time) gives the first snapshot at \(first)."))
    }

    func testListenUser_firstSnapshot() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let database = try SpyDatabase(scheduler: scheduler)
        let listener = GroupCommentsListener(database: database)
        let res = scheduler.start { listener.listen(user: "user1") }
        let first = try XCTUnwrap(res.events.first?.time)
        XCTAssertTrue(
            try Article(article, testFile: #filePath).says(
                "A membership read with `membership(ofUser:)` arrives one tick after subscription, so the first snapshot is at \(first)."))
    }

    // MARK: - Posting and offline

    /// group0's comments as a lane draws them: `[c0]` for the seed's three, then the posts.
    private func drawn(_ comments: [String]) -> String {
        let seed = GroupSeed.comments0
        guard comments.starts(with: seed) else { return "\(comments)" }
        return "[" + (["c0"] + comments.dropFirst(seed.count)).joined(separator: ",") + "]"
    }

    /// Runs a posting timeline: the `poster` lane's actions (`goOffline`, `goOnline`,
    /// `post <text>`) on `poster`, user1 listening through it and user2 through `server`, both
    /// subscribed at 200; then compares the `poster sees`, `other sees` and `posts` lanes.
    private func checkPostingTimeline(
        containing anchor: String, server: InMemoryRealtimeDatabase, poster: LocalFirstRealtimeDatabase, scheduler: TestScheduler
    ) throws {
        let block = try Article(article, testFile: #filePath).codeBlock(containing: anchor)
        let postingListener = GroupCommentsListener(database: poster)
        var posts: [(time: TestTime, value: String)] = []
        let actions = labelled(try lane("poster", in: block))
        XCTAssertFalse(actions.isEmpty)
        for (time, action) in actions {
            switch action {
            case "goOffline": scheduler.scheduleAt(time) { poster.goOffline() }
            case "goOnline": scheduler.scheduleAt(time) { poster.goOnline() }
            default:
                let text = try XCTUnwrap(action.hasPrefix("post ") ? String(action.dropFirst("post ".count)) : nil, "unknown action \(action)")
                scheduler.scheduleAt(time) {
                    _ = postingListener.post(text, to: "group0").subscribe(
                        onCompleted: { posts.append((scheduler.clock, "\(text) done")) },
                        onError: { _ in posts.append((scheduler.clock, "\(text) failed")) })
                }
            }
        }
        let mine = scheduler.createObserver([String].self)
        let others = scheduler.createObserver([String].self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) {
            _ = subscriptions.insert(postingListener.listen(user: "user1").map { $0["group0"] ?? [] }.subscribe(mine))
            _ = subscriptions.insert(GroupCommentsListener(database: server).listen(user: "user2").map { $0["group0"] ?? [] }.subscribe(others))
        }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()

        func drawnLane(of observer: TestableObserver<[String]>) -> [String] {
            observer.events.compactMap { recorded in recorded.value.element.map { "\(recorded.time): \(drawn($0))" } }
        }
        func documented(_ label: String) throws -> [String] {
            labelled(try self.lane(label, in: block)).map { "\($0.time): \($0.value)" }
        }
        XCTAssertEqual(try documented("poster sees"), drawnLane(of: mine))
        XCTAssertEqual(try documented("other sees"), drawnLane(of: others))
        XCTAssertEqual(try documented("posts"), posts.map { "\($0.time): \($0.value)" })
    }

    func testPostingOfflineTimeline() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: GroupSeed.databaseWithUser2)
        let poster = LocalFirstRealtimeDatabase(remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50), scheduler: scheduler)
        try checkPostingTimeline(containing: "uplink of 50 ticks; user2 reads the server", server: server, poster: poster, scheduler: scheduler)
        let stored = try XCTUnwrap(try server.value(at: "Groups/group0").objectValue).values.compactMap(\.stringValue)
        XCTAssertEqual(stored.sorted(), ["comment0-0", "comment0-1", "comment0-2", "first", "second"], "each post once")
    }

    func testRejectedPostTimeline() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: GroupSeed.databaseWithUser2)
        server.connectivity = .rejectingWrites()
        let poster = LocalFirstRealtimeDatabase(remote: server, scheduler: scheduler)
        try checkPostingTimeline(containing: "the server refuses writes", server: server, poster: poster, scheduler: scheduler)
        XCTAssertEqual(try server.value(at: "Groups/group0"), ["comment0-0", "comment0-1", "comment0-2"])
    }

    // MARK: - At launch with no network

    func testRelaunchOfflineTimeline() throws {
        let article = try Article(article, testFile: #filePath)
        let block = try article.codeBlock(containing: "with .file persistence, retries after 10, 20, 40, 40 ticks")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FeaturesGroupCommentsArticleTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try RelaunchScenario.run(directory: directory)
        let sent = try XCTUnwrap(run.attempts.last)

        // The scripted lanes are the scenario's (RelaunchScenario).
        func pairs(_ label: String) throws -> [String] { labelled(try lane(label, in: block)).map { "\($0.time): \($0.value)" } }
        XCTAssertEqual(try pairs("launch 1"), ["200: listen", "250: goOffline", "260: post on my way", "300: closed"])
        XCTAssertEqual(try pairs("server"), ["300: c3 written", "400: offline", "600: online"])
        XCTAssertEqual(try pairs("launch 2"), ["500: opened on the same folder, listen (the post is sent: failing until \(sent))"])

        // The observed lanes are what the listeners emitted.
        func drawn(_ comments: [String]) -> String {
            let seed = GroupSeed.comments0
            guard comments.starts(with: seed) else { return "\(comments)" }
            let rest = comments.dropFirst(seed.count).map { $0 == "comment0-3" ? "c3" : $0 }
            return "[" + (["c0"] + rest).joined(separator: ",") + "]"
        }
        func drawnLane(_ events: [Recorded<Event<[String]>>]) -> [String] {
            events.compactMap { recorded in recorded.value.element.map { "\(recorded.time): \(drawn($0))" } }
        }
        XCTAssertEqual(try pairs("launch 1 sees"), drawnLane(run.firstLaunch))
        XCTAssertEqual(try pairs("launch 2 sees"), drawnLane(run.relaunch))
        XCTAssertEqual(try pairs("other sees"), drawnLane(run.other))

        // The prose under the timeline.
        let cached = try XCTUnwrap(run.relaunch.first?.time), fresh = try XCTUnwrap(run.relaunch.last?.time)
        let other = try XCTUnwrap(run.other.last?.time)
        XCTAssertTrue(article.says("shows the cached comments and its pending post at \(cached), with the server unreachable"))
        XCTAssertTrue(article.says("Its retries reach the server at \(sent)"))
        XCTAssertTrue(article.says("so at \(fresh) the app shows `c3`"))
        XCTAssertTrue(article.says("gets the post at \(other), once"))
    }
}
