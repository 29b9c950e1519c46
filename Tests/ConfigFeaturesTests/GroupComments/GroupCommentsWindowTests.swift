import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// The chat-scale mode of `GroupCommentsListener`: the last N comments of each group through a
/// query, as snapshots and as row changes, on virtual time.
final class GroupCommentsWindowTests: XCTestCase {
    private func comment(_ text: String, _ time: Int) -> JSONValue { ["text": .string(text), "time": .number(Double(time))] }

    private func chatDatabase(_ scheduler: TestScheduler) throws -> InMemoryRealtimeDatabase {
        try InMemoryRealtimeDatabase(
            scheduler: scheduler,
            value: [
                "Groups": [
                    "g0": ["a": comment("a", 1), "b": comment("b", 2), "c": comment("c", 3), "d": comment("d", 4)],
                    "g1": ["x": comment("x", 10), "y": comment("y", 11)],
                ],
                "Users": ["user1": ["g0": true, "g1": true]],
            ])
    }

    private let byTime = GroupCommentsWindow(last: 3, orderedBy: .child("time"))

    func testListenWindow_followsTheLastCommentsOfEachGroup() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try chatDatabase(scheduler)
            let listener = GroupCommentsListener(database: database)
            scheduleDatabaseWrite(scheduler, at: 300) { try database.setValue(self.comment("e", 5), at: "Groups/g0/e") }  // b leaves
            scheduleDatabaseWrite(scheduler, at: 400) { try database.setValue("old, edited", at: "Groups/g0/a/text") }  // outside
            scheduleDatabaseWrite(scheduler, at: 500) { try database.setValue("C", at: "Groups/g0/c/text") }  // inside
            scheduleDatabaseWrite(scheduler, at: 600) { try database.removeValue(at: "Groups/g0/e") }  // b returns
            scheduleDatabaseWrite(scheduler, at: 700) { try database.removeValue(at: "Users/user1/g1") }  // leaves g1
            let res = scheduler.start { listener.listen(user: "user1", window: self.byTime) }
            XCTAssertEqual(
                res.events,
                [
                    .next(202, ["g0": ["b", "c", "d"], "g1": ["x", "y"]]),
                    .next(301, ["g0": ["c", "d", "e"], "g1": ["x", "y"]]),
                    .next(501, ["g0": ["C", "d", "e"], "g1": ["x", "y"]]),
                    .next(601, ["g0": ["b", "C", "d"], "g1": ["x", "y"]]),
                    .next(701, ["g0": ["b", "C", "d"]]),
                ])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testListenChanges_rowChangesPerWrite() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try chatDatabase(scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.next(210, ["g0"]), .next(800, [])])
            scheduleDatabaseWrite(scheduler, at: 300) { try database.setValue(self.comment("e", 5), at: "Groups/g0/e") }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.setValue("C", at: "Groups/g0/c/text") }
            scheduleDatabaseWrite(scheduler, at: 500) { try database.setValue(0, at: "Groups/g0/d/time") }  // d sinks out
            scheduleDatabaseWrite(scheduler, at: 600) { try database.setValue(6, at: "Groups/g0/c/time") }  // c moves last
            let res = scheduler.start { listener.listenChanges(membership.asObservable(), window: self.byTime).map(\.description) }
            XCTAssertEqual(
                res.events,
                [
                    .next(211, "joined g0: 3 comments"),
                    .next(301, "removed g0[0]: b: b"),
                    .next(301, "inserted g0[2]: e: e"),
                    .next(401, "updated g0[0]: c: C"),
                    .next(501, "removed g0[1]: d: d"),
                    .next(501, "inserted g0[0]: b: b"),
                    .next(601, "moved g0[1 -> 2]: c: C"),
                    .next(800, "left g0"),
                ])
        }
    }

    /// Applying the changes in order gives every snapshot of `listen(_:window:)`, for random
    /// writes (new comments, edits, deletions, reorderings, whole-group rewrites).
    func testChangesApplyToTheSnapshots() throws {
        for seed in UInt64(1)...4 { try checkChangesApplyToTheSnapshots(seed: seed) }
    }

    private func checkChangesApplyToTheSnapshots(seed: UInt64) throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try chatDatabase(scheduler)
            let listener = GroupCommentsListener(database: database)
            var random = DeterministicRandom(seed: seed)
            let keys = ["a", "b", "c", "d", "e", "f", "g"]
            for step in 0..<150 {
                let group = ["g0", "g1"][step % 2]
                let key = keys.randomElement(using: &random)!
                let time = Int.random(in: 0...20, using: &random)
                let kind = Int.random(in: 0..<6, using: &random)
                scheduleDatabaseWrite(scheduler, at: TestTime(300 + 10 * step)) {
                    switch kind {
                    case 0, 1: try database.setValue(self.comment("\(key)\(time)", time), at: "Groups/\(group)/\(key)")
                    case 2: try database.removeValue(at: "Groups/\(group)/\(key)")
                    case 3: try database.setValue(.number(Double(time)), at: "Groups/\(group)/\(key)/time")
                    case 4: try database.setValue(.string("edit\(time)"), at: "Groups/\(group)/\(key)/text")
                    default: try database.setValue(["p": self.comment("p", time), "q": self.comment("q", time + 1)], at: "Groups/\(group)")
                    }
                }
            }
            let changes = scheduler.createObserver(GroupCommentsChange.self)
            let snapshots = scheduler.createObserver([String: [String]].self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(listener.listenChanges(listener.membership(ofUser: "user1"), window: self.byTime).subscribe(changes))
                subscriptions.append(listener.listen(user: "user1", window: self.byTime).subscribe(snapshots))
            }
            scheduler.scheduleAt(5_000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertGreaterThan(snapshots.events.count, 20, "seed \(seed)")
            var groups: [String: [GroupComment]] = [:]
            var applied = 0
            for snapshot in snapshots.events {
                while applied < changes.events.count, changes.events[applied].time <= snapshot.time {
                    let change = changes.events[applied].value.element!
                    XCTAssertTrue(change.apply(to: &groups), "seed \(seed): \(change) does not fit \(groups)")
                    applied += 1
                }
                XCTAssertEqual(groups.mapValues { $0.map(\.text) }, snapshot.value.element, "seed \(seed) at \(snapshot.time)")
            }
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    /// Seed 004 at chat scale: a group of 10,000 comments; one new comment is one row out and
    /// one row in, whatever the history.
    func testLongHistory_aNewCommentIsOneRowOutAndOneIn() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            var history: [String: JSONValue] = [:]
            for index in 0..<10_000 { history[String(format: "c%05d", index)] = .string("comment \(index)") }
            try database.setValue(["g0": .object(history)], at: "Groups")
            let listener = GroupCommentsListener(database: database)
            scheduleDatabaseWrite(scheduler, at: 300) { try database.setValue("comment 10000", at: "Groups/g0/c10000") }
            let res = scheduler.start {
                listener.listenChanges(Observable.just(["g0"]), window: GroupCommentsWindow(last: 50)).map(\.description)
            }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, "joined g0: 50 comments"),
                    .next(301, "removed g0[0]: c09950: comment 9950"),
                    .next(301, "inserted g0[49]: c10000: comment 10000"),
                ])
        }
    }

    func testMalformedChildrenAreLeftOutAndReported() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["Groups": ["g0": ["a": "hi", "b": 42, "c": ["time": 1]]]])
            let listener = GroupCommentsListener(database: database)
            let diagnostics = scheduler.createObserver(GroupCommentsDiagnostic.self)
            let diagnosticsSubscription = listener.diagnostics.subscribe(diagnostics)
            let res = scheduler.start { listener.listen(Observable.just(["g0"]), window: GroupCommentsWindow(last: 10)) }
            XCTAssertEqual(res.events, [.next(201, ["g0": ["hi"]])])
            XCTAssertEqual(
                diagnostics.events,
                [
                    .next(201, .malformedComments(groupID: "g0", value: 42)),
                    .next(201, .malformedComments(groupID: "g0", value: ["time": 1])),
                ])
            diagnosticsSubscription.dispose()
        }
    }

    func testInvalidWindowFailsAtOnce() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let listener = GroupCommentsListener(database: InMemoryRealtimeDatabase(scheduler: scheduler))
            for window in [GroupCommentsWindow(last: 0), GroupCommentsWindow(last: 5, orderedBy: .child("a/../b#"))] {
                let res = scheduler.start { listener.listen(Observable.just(["g0"]), window: window) }
                guard case .error(let error)? = res.events.first?.value, case RealtimeDatabaseError.invalidQuery = error else {
                    return XCTFail("expected invalidQuery for \(window), got \(res.events)")
                }
                XCTAssertEqual(res.events.count, 1)
            }
        }
    }

    func testChanges_movesUpdatesAndMisfits() {
        func comments(_ keys: String) -> [GroupComment] { keys.map { GroupComment(key: String($0), text: String($0)) } }
        let old = comments("abcd")
        let new = [GroupComment(key: "b", text: "B")] + comments("dac")
        var groups = ["g": old]
        XCTAssertTrue(GroupCommentsChange.joined(groupID: "g", comments: old).apply(to: &groups))
        let changes = GroupCommentsChange.changes(in: "g", from: old, to: new)
        for change in changes { XCTAssertTrue(change.apply(to: &groups), "\(change)") }
        XCTAssertEqual(groups["g"], new)
        XCTAssertEqual(GroupCommentsChange.changes(in: "g", from: new, to: new), [])
        XCTAssertFalse(GroupCommentsChange.removed(groupID: "g", comment: GroupComment(key: "zz", text: ""), index: 0).apply(to: &groups))
        XCTAssertFalse(GroupCommentsChange.inserted(groupID: "nope", comment: GroupComment(key: "z", text: ""), index: 0).apply(to: &groups))
        XCTAssertFalse(GroupCommentsChange.updated(groupID: "g", comment: GroupComment(key: "b", text: ""), index: 9).apply(to: &groups))
        XCTAssertEqual(groups["g"], new, "a misfit changes nothing")
    }
}
