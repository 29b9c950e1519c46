import XCTest
import ConfigFeatures
import Streams
import StreamsTest

private struct TestError: Error, Equatable {}

private let c0 = GroupSeed.comments0
private let c1 = GroupSeed.comments1
private let c2 = GroupSeed.comments2

/// Records `database.activeObserverCount` at each of `times`.
private func recordObserverCounts(_ scheduler: TestScheduler, _ database: SpyDatabase, at times: [TestTime]) -> LockedState<[TestTime: Int]> {
    let counts = LockedState<[TestTime: Int]>([:])
    for time in times {
        scheduler.scheduleAt(time) { counts.withLock { $0[time] = database.activeObserverCount } }
    }
    return counts
}

/// Subscribes a recording observer to `listener.diagnostics`; dispose the result at the end.
private func recordDiagnostics(_ scheduler: TestScheduler, _ listener: GroupCommentsListener) -> (TestableObserver<GroupCommentsDiagnostic>, Disposable) {
    let observer = scheduler.createObserver(GroupCommentsDiagnostic.self)
    return (observer, listener.diagnostics.subscribe(observer))
}

final class GroupCommentsListenerTests: XCTestCase {
    // MARK: - The seed, end to end

    /// The seed's scenario with the membership read from `Users/user1`: comments arrive, the
    /// user joins group2, then leaves group0 and group1. Listeners of kept groups are never
    /// re-attached, and left groups disappear from the dictionary.
    func testListen_seedTimelineFollowsTheUsersMembership() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let counts = recordObserverCounts(scheduler, database, at: [250, 450, 550, 1050])
            scheduleDatabaseWrite(scheduler, at: 300) { try database.base.setValue("comment0-3", at: "Groups/group0/3") }
            scheduleDatabaseWrite(scheduler, at: 350) { try database.base.setValue("ignored", at: "Groups/group2/3") }  // not a member yet
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue("group2", at: "Users/user1/2") }  // joins group2
            scheduleDatabaseWrite(scheduler, at: 500) { try database.base.setValue(["group2"], at: "Users/user1") }  // leaves 0 and 1
            scheduleDatabaseWrite(scheduler, at: 600) { try database.base.setValue("nobody listens", at: "Groups/group0/4") }

            let res = scheduler.start { listener.listen(user: "user1") }

            XCTAssertEqual(
                res.events,
                [
                    .next(202, ["group0": c0, "group1": c1]),
                    .next(301, ["group0": c0 + ["comment0-3"], "group1": c1]),
                    .next(402, ["group0": c0 + ["comment0-3"], "group1": c1, "group2": c2 + ["ignored"]]),
                    .next(501, ["group2": c2 + ["ignored"]]),
                ])
            XCTAssertEqual(database.subscriptions("Users/user1"), [Subscription(200, 1000)])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(201, 501)])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(201, 501)])
            XCTAssertEqual(database.subscriptions("Groups/group2"), [Subscription(401, 1000)])
            XCTAssertEqual(counts.withLock { $0 }, [250: 3, 450: 4, 550: 2, 1050: 0])
            XCTAssertEqual(diagnostics.events, [])
            diagnosticsSubscription.dispose()
        }
    }

    // MARK: - The seed's bugs (regressions)

    /// Seed bug 1: every membership change tore down and re-attached every listener.
    func testListen_keepsTheObservationsOfGroupsThatStay() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(300, ["group0", "group1", "group2"]),
                .next(400, ["group1", "group2"]),
            ])
            let counts = recordObserverCounts(scheduler, database, at: [250, 350, 450, 1050])
            scheduleDatabaseWrite(scheduler, at: 500) { try database.base.setValue("new", at: "Groups/group1/3") }
            scheduleDatabaseWrite(scheduler, at: 600) { try database.base.setValue("gone", at: "Groups/group0/3") }

            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(301, ["group0": c0, "group1": c1, "group2": c2]),
                    .next(400, ["group1": c1, "group2": c2]),
                    .next(501, ["group1": c1 + ["new"], "group2": c2]),
                ])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 400)])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(210, 1000)], "kept: observed once")
            XCTAssertEqual(database.subscriptions("Groups/group2"), [Subscription(300, 1000)], "only the new group is attached")
            XCTAssertEqual(counts.withLock { $0 }, [250: 2, 350: 3, 450: 2, 1050: 0])
            XCTAssertEqual(membership.subscriptions, [Subscription(200, 1000)])
        }
    }

    /// Seed bug 2: `scan` only added groups, so a left group's comments stayed in the dictionary.
    func testListen_removesGroupsThatLeftFromTheDictionary() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(300, ["group1"]),
                .next(400, ["group0"]),
            ])
            scheduleDatabaseWrite(scheduler, at: 350) { try database.base.setValue("while away", at: "Groups/group0/3") }
            scheduleDatabaseWrite(scheduler, at: 450) { try database.base.setValue("left", at: "Groups/group1/3") }

            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(300, ["group1": c1]),
                    .next(401, ["group0": c0 + ["while away"]]),
                ])
        }
    }

    /// Seed bug 3: each membership change added another undisposed subscription.
    func testListen_repeatedMembershipChangesLeaveNoObservationBehind() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let changes: [Recorded<Event<[String]>>] = (0..<20).map { index in
                .next(210 + index * 10, index.isMultiple(of: 2) ? ["group0", "group1"] : ["group1", "group2"])
            }
            let membership = scheduler.createHotObservable(changes)
            let counts = recordObserverCounts(scheduler, database, at: (0..<20).map { 215 + $0 * 10 } + [1050])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events.count, 20)
            XCTAssertEqual(res.events.last, .next(401, ["group1": c1, "group2": c2]))
            var expected = Dictionary(uniqueKeysWithValues: (0..<20).map { (215 + $0 * 10, 2) })
            expected[1050] = 0
            XCTAssertEqual(counts.withLock { $0 }, expected, "never more observers than member groups")
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(210, 1000)])
            XCTAssertEqual(database.subscriptions("Groups/group0").count, 10)
            XCTAssertEqual(database.subscriptions("Groups/group2").count, 10)
            XCTAssertFalse(database.allSubscriptions.values.joined().contains { $0.unsubscribe == Subscription.infinity })
        }
    }

    // MARK: - Membership changes

    func testListen_ignoresDuplicateGroupIDs() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group0", "group1", "group0"]),
                .next(300, ["group1", "group1"]),
            ])
            let counts = recordObserverCounts(scheduler, database, at: [250, 350])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(300, ["group1": c1]),
                ])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 300)])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(210, 1000)])
            XCTAssertEqual(counts.withLock { $0 }, [250: 2, 350: 1])
        }
    }

    func testListen_emptyMembershipEmitsAnEmptyDictionaryAtOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, []),
                .next(300, ["group0"]),
                .next(400, []),
                .next(500, []),
            ])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(210, [:]),
                    .next(301, ["group0": c0]),
                    .next(400, [:]),
                ])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(300, 400)])
        }
    }

    func testListen_sameSnapshotIsNotEmittedTwice() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(300, ["group1", "group0"]),  // same groups, other order
                .next(400, ["group0", "group1", "group1"]),
            ])
            // The same comments stored as an object: the database notifies, the comments are equal.
            scheduleDatabaseWrite(scheduler, at: 500) {
                try database.base.setValue(["0": "comment0-0", "1": "comment0-1", "2": "comment0-2"], at: "Groups/group0")
            }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [.next(211, ["group0": c0, "group1": c1])])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 1000)])
        }
    }

    func testListen_groupThatLeavesAndRejoinsIsObservedAgain() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0"]),
                .next(300, []),
                .next(400, ["group0"]),
            ])
            scheduleDatabaseWrite(scheduler, at: 350) { try database.base.setValue("meanwhile", at: "Groups/group0/3") }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0]),
                    .next(300, [:]),
                    .next(401, ["group0": c0 + ["meanwhile"]]),
                ])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 300), Subscription(400, 1000)])
        }
    }

    // MARK: - First emission and consistency

    /// The first snapshot waits for every group; a group joining later delays the next snapshot
    /// until its first value, and kept groups' changes meanwhile are folded into it.
    func testListen_snapshotWaitsForEveryMemberGroupsFirstValue() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler, latencies: ["Groups/group1": 50])
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(400, ["group0"]),
                .next(500, ["group0", "group1"]),
            ])
            scheduleDatabaseWrite(scheduler, at: 230) { try database.base.setValue("comment0-3", at: "Groups/group0/3") }
            scheduleDatabaseWrite(scheduler, at: 520) { try database.base.setValue("comment0-4", at: "Groups/group0/4") }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(261, ["group0": c0 + ["comment0-3"], "group1": c1]),
                    .next(400, ["group0": c0 + ["comment0-3"]]),
                    .next(551, ["group0": c0 + ["comment0-3", "comment0-4"], "group1": c1]),
                ])
        }
    }

    func testListen_commentChangesInAKeptGroup() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([.next(210, ["group0", "group1"])])
            scheduleDatabaseWrite(scheduler, at: 300) { try database.base.setValue("comment1-3", at: "Groups/group1/3") }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue("comment1-3", at: "Groups/group1/3") }  // no change
            scheduleDatabaseWrite(scheduler, at: 500) { try database.base.setValue(["only"], at: "Groups/group1") }
            scheduleDatabaseWrite(scheduler, at: 600) { try database.base.removeValue(at: "Groups/group1/0") }  // last comment
            scheduleDatabaseWrite(scheduler, at: 700) { try database.base.push("pushed", at: "Groups/group1") }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(301, ["group0": c0, "group1": c1 + ["comment1-3"]]),
                    .next(501, ["group0": c0, "group1": ["only"]]),
                    .next(601, ["group0": c0, "group1": []]),
                    .next(701, ["group0": c0, "group1": ["pushed"]]),
                ])
            XCTAssertEqual(diagnostics.events, [.next(601, .groupNotFound(groupID: "group1"))])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(210, 1000)])
            diagnosticsSubscription.dispose()
        }
    }

    // MARK: - Stored formats

    /// Comments added with `push` are an object keyed by push ID: read in key (= creation)
    /// order. Integer keys come first, numerically; holes left in arrays are skipped.
    func testListen_readsPushedObjectsInKeyOrderAndSkipsArrayHoles() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.next(210, ["group0", "feed", "numbered"])])
            scheduleDatabaseWrite(scheduler, at: 300) { try database.base.push("first", at: "Groups/feed") }
            scheduleDatabaseWrite(scheduler, at: 310) { try database.base.push("second", at: "Groups/feed") }
            scheduleDatabaseWrite(scheduler, at: 320) { try database.base.push("third", at: "Groups/feed") }
            scheduleDatabaseWrite(scheduler, at: 400) {
                try database.base.setValue(["b": "y", "10": "k", "a": "x", "2": "c", "0": "a"], at: "Groups/numbered")
            }
            scheduleDatabaseWrite(scheduler, at: 500) { try database.base.removeValue(at: "Groups/group0/1") }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "feed": [], "numbered": []]),
                    .next(301, ["group0": c0, "feed": ["first"], "numbered": []]),
                    .next(311, ["group0": c0, "feed": ["first", "second"], "numbered": []]),
                    .next(321, ["group0": c0, "feed": ["first", "second", "third"], "numbered": []]),
                    .next(401, ["group0": c0, "feed": ["first", "second", "third"], "numbered": ["a", "c", "k", "x", "y"]]),
                    .next(501, ["group0": ["comment0-0", "comment0-2"], "feed": ["first", "second", "third"], "numbered": ["a", "c", "k", "x", "y"]]),
                ])
        }
    }

    // MARK: - Bad values, bad IDs, errors

    func testListen_valuesThatAreNotCommentsAreShownEmptyWithADiagnostic() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let groups: JSONValue = [
                "object": ["a": 1],
                "number": 42,
                "string": "hi",
                "mixed": ["a", 3],
                "bool": true,
                "nested": [["a"]],
                "good": ["ok"],
            ]
            let database = try SpyDatabase(scheduler: scheduler, value: ["Groups": groups])
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([
                .next(210, ["object", "number", "string", "mixed", "bool", "nested", "missing", "good"])
            ])
            scheduleDatabaseWrite(scheduler, at: 300) { try database.base.setValue(["fixed"], at: "Groups/number") }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue(["x": false], at: "Groups/number") }
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            let empty: [String: [String]] = [
                "object": [], "number": [], "string": [], "mixed": [], "bool": [], "nested": [], "missing": [], "good": ["ok"],
            ]
            var fixed = empty
            fixed["number"] = ["fixed"]
            XCTAssertEqual(res.events, [.next(211, empty), .next(301, fixed), .next(401, empty)])
            XCTAssertEqual(
                diagnostics.events,
                [
                    .next(211, .malformedComments(groupID: "object", value: ["a": 1])),
                    .next(211, .malformedComments(groupID: "number", value: 42)),
                    .next(211, .malformedComments(groupID: "string", value: "hi")),
                    .next(211, .malformedComments(groupID: "mixed", value: ["a", 3])),
                    .next(211, .malformedComments(groupID: "bool", value: true)),
                    .next(211, .malformedComments(groupID: "nested", value: [["a"]])),
                    .next(211, .groupNotFound(groupID: "missing")),
                    .next(401, .malformedComments(groupID: "number", value: ["x": false])),
                ])
            diagnosticsSubscription.dispose()
        }
    }

    /// An ID that is not one valid key (`"a.b"` would make Firebase throw; `"x/y"` would read
    /// another path) is shown empty and never observed; the other groups are unaffected.
    func testListen_invalidGroupIDsAreShownEmptyAndNotObserved() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([
                .next(210, ["a.b", "", "x/y", "group0", "ok#", "/group1", "$"]),
                .next(300, ["group0", "a.b"]),
            ])
            let counts = recordObserverCounts(scheduler, database, at: [250])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["a.b": [], "": [], "x/y": [], "group0": c0, "ok#": [], "/group1": [], "$": []]),
                    .next(300, ["group0": c0, "a.b": []]),
                ])
            XCTAssertEqual(
                diagnostics.events,
                [
                    .next(210, .invalidGroupID("a.b", reason: "segment \"a.b\" contains \".\"")),
                    .next(210, .invalidGroupID("", reason: "empty")),
                    .next(210, .invalidGroupID("x/y", reason: "contains \"/\"")),
                    .next(210, .invalidGroupID("ok#", reason: "segment \"ok#\" contains \"#\"")),
                    .next(210, .invalidGroupID("/group1", reason: "contains \"/\"")),
                    .next(210, .invalidGroupID("$", reason: "segment \"$\" contains \"$\"")),
                ])
            XCTAssertEqual(Array(database.allSubscriptions.keys), ["Groups/group0"])
            XCTAssertEqual(counts.withLock { $0 }, [250: 1])
            diagnosticsSubscription.dispose()
        }
    }

    /// A database error for a group (here every path is bad) is a diagnostic and the group is
    /// shown empty; the stream goes on, and a failed group that stays is not retried.
    func testListen_observationErrorsAreDiagnosticsAndTheStreamGoesOn() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database, groupsPath: "Gro.ups")
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(300, ["group0", "group1", "group2"]),
                .next(400, ["group1"]),
            ])
            let counts = recordObserverCounts(scheduler, database, at: [250])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": [], "group1": []]),
                    .next(301, ["group0": [], "group1": [], "group2": []]),
                    .next(400, ["group1": []]),
                ])
            func failure(_ id: String, _ time: TestTime) -> Recorded<Event<GroupCommentsDiagnostic>> {
                let error = RealtimeDatabaseError.invalidPath("Gro.ups/\(id)", reason: "segment \"Gro.ups\" contains \".\"")
                return .next(time, .groupObservationFailed(groupID: id, reason: error.description))
            }
            XCTAssertEqual(diagnostics.events, [failure("group0", 211), failure("group1", 211), failure("group2", 301)])
            XCTAssertEqual(database.subscriptions("Gro.ups/group1"), [Subscription(210, 211)], "not retried while it stays")
            XCTAssertEqual(counts.withLock { $0 }, [250: 0])
            diagnosticsSubscription.dispose()
        }
    }

    // MARK: - Termination and disposal

    func testListen_membershipCompletionKeepsFollowingTheCurrentGroups() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.next(210, ["group0"]), .completed(300)])
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue("after", at: "Groups/group0/3") }
            let counts = recordObserverCounts(scheduler, database, at: [500, 1050])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [.next(211, ["group0": c0]), .next(401, ["group0": c0 + ["after"]])])
            XCTAssertEqual(membership.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 1000)])
            XCTAssertEqual(counts.withLock { $0 }, [500: 1, 1050: 0])
        }
    }

    func testListen_membershipCompletingWithoutElementsCompletes() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.completed(300, [String].self)])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(membership.subscriptions, [Subscription(200, 300)])
        }
    }

    func testListen_neverMembershipEmitsNothing() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let res = scheduler.start { listener.listen(Observable<[String]>.never()) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(database.allSubscriptions, [:])
        }
    }

    func testListen_membershipErrorFailsTheOutputAndRemovesEveryObservation() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.next(210, ["group0", "group1"]), .error(300, TestError())])
            let counts = recordObserverCounts(scheduler, database, at: [250, 350])
            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [.next(211, ["group0": c0, "group1": c1]), .error(300, TestError())])
            XCTAssertEqual(membership.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 300)])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(210, 300)])
            XCTAssertEqual(counts.withLock { $0 }, [250: 2, 350: 0])
        }
    }

    func testListen_disposeMidStreamRemovesEveryObservationAndReleasesEverything() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let database = try SpyDatabase(scheduler: scheduler)
        let listener = GroupCommentsListener(database: database)
        // The baseline includes the listener: after disposal, every resource of the
        // subscription is released while the listener lives on.
        XCTAssertNoLeaks {
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]),
                .next(300, ["group0", "group1", "group2"]),
                .next(400, ["group2"]),
            ])
            scheduleDatabaseWrite(scheduler, at: 320) { try database.base.setValue("late", at: "Groups/group2/3") }
            let counts = recordObserverCounts(scheduler, database, at: [310, 351])
            let res = scheduler.start(disposed: 350) { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(301, ["group0": c0, "group1": c1, "group2": c2]),
                    .next(321, ["group0": c0, "group1": c1, "group2": c2 + ["late"]]),
                ])
            XCTAssertEqual(counts.withLock { $0 }, [310: 3, 351: 0])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 350)])
            XCTAssertEqual(database.subscriptions("Groups/group2"), [Subscription(300, 350)])
            XCTAssertEqual(membership.subscriptions, [Subscription(200, 350)])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testListen_disposeBeforeTheFirstValuesEmitsNothing() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createColdObservable([.next(10, ["group0", "group1"])])
            // Disposal at 211 was scheduled before the deliveries due at 211, so it runs first.
            let res = scheduler.start(disposed: 211) { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [])
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 211)])
            XCTAssertEqual(database.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: - Subscriptions, reentrancy

    func testListen_eachSubscriptionObservesOnItsOwnUnlessShared() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let cold = listener.listen(Observable.just(["group0", "group1"]))
            let shared = cold.share(replay: 1)
            let counts = recordObserverCounts(scheduler, database, at: [250, 450])
            let first = scheduler.createObserver([String: [String]].self)
            let second = scheduler.createObserver([String: [String]].self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(cold.subscribe(first))
                subscriptions.append(cold.subscribe(second))
            }
            scheduler.scheduleAt(300) {
                subscriptions.forEach { $0.dispose() }
                subscriptions = [shared.subscribe(first), shared.subscribe(second)]
            }
            scheduler.scheduleAt(500) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()

            let snapshot: [String: [String]] = ["group0": c0, "group1": c1]
            XCTAssertEqual(first.events, [.next(201, snapshot), .next(301, snapshot)])
            XCTAssertEqual(second.events, [.next(201, snapshot), .next(301, snapshot)])
            XCTAssertEqual(counts.withLock { $0 }, [250: 4, 450: 2])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    /// A membership change sent from inside the observer is applied after the current element
    /// is delivered: no nested delivery, and the order is kept.
    func testListen_reentrantMembershipChangeFromTheObserver() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = PublishSubject<[String]>()
            var received: [(TestTime, [String: [String]])] = []
            var depth = 0, maximumDepth = 0
            let subscription = listener.listen(membership.asObservable()).subscribe(onNext: { snapshot in
                depth += 1
                maximumDepth = max(maximumDepth, depth)
                defer { depth -= 1 }
                received.append((scheduler.clock, snapshot))
                if snapshot.keys.sorted() == ["group0"] { membership.onNext(["group1"]) }
                if snapshot.keys.sorted() == ["group1"] {
                    membership.onNext([])
                    XCTAssertEqual(received.count, 2, "the empty snapshot is delivered after this call returns")
                }
            })
            scheduler.scheduleAt(210) { membership.onNext(["group0"]) }
            scheduler.start()

            XCTAssertEqual(received.map(\.0), [211, 212, 212])
            XCTAssertEqual(received.map(\.1), [["group0": c0], ["group1": c1], [:]])
            XCTAssertEqual(maximumDepth, 1)
            XCTAssertEqual(database.subscriptions("Groups/group0"), [Subscription(210, 211)])
            XCTAssertEqual(database.subscriptions("Groups/group1"), [Subscription(211, 212)])
            subscription.dispose()
        }
    }

    // MARK: - membership(ofUser:)

    func testMembership_readsArraysPushedObjectsAndTrueIndexes() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let user = "Users/user1"
            scheduleDatabaseWrite(scheduler, at: 300) { try database.base.setValue(["-b": "group0", "-a": "group2"], at: user) }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue(["group1": true, "group0": true], at: user) }
            scheduleDatabaseWrite(scheduler, at: 500) { try database.base.setValue(["x": 1], at: user) }
            scheduleDatabaseWrite(scheduler, at: 600) { try database.base.removeValue(at: user) }
            scheduleDatabaseWrite(scheduler, at: 700) { try database.base.setValue(["group2", nil, "group0"], at: user) }
            scheduleDatabaseWrite(scheduler, at: 800) { try database.base.setValue("group0", at: user) }
            scheduleDatabaseWrite(scheduler, at: 900) { try database.base.setValue(["group1": true, "group0": false], at: user) }
            let res = scheduler.start { listener.membership(ofUser: "user1") }

            XCTAssertEqual(
                res.events,
                [
                    .next(201, ["group0", "group1"]),
                    .next(301, ["group2", "group0"]),
                    .next(401, ["group0", "group1"]),
                    .next(501, []),
                    .next(601, []),
                    .next(701, ["group2", "group0"]),
                    .next(801, []),
                    .next(901, []),
                ])
            XCTAssertEqual(
                diagnostics.events,
                [
                    .next(501, .malformedMembership(userID: "user1", value: ["x": 1])),
                    .next(601, .userNotFound(userID: "user1")),
                    .next(801, .malformedMembership(userID: "user1", value: "group0")),
                    .next(901, .malformedMembership(userID: "user1", value: ["group1": true, "group0": false])),
                ])
            diagnosticsSubscription.dispose()
        }
    }

    func testMembership_usesUsersPath() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler, value: ["people": ["u": ["g"]], "chats": ["g": ["hello"]]])
            let listener = GroupCommentsListener(database: database, groupsPath: "chats")
            let res = scheduler.start { listener.listen(user: "u", usersPath: "people") }
            XCTAssertEqual(res.events, [.next(202, ["g": ["hello"]])])
            XCTAssertEqual(Set(database.allSubscriptions.keys), ["people/u", "chats/g"])
        }
    }

    /// A user ID that makes a bad path: an empty membership, a diagnostic, completion; the
    /// listener built on it shows no groups and does not fail.
    func testMembership_invalidPathGivesAnEmptyMembershipAndADiagnostic() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try SpyDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, diagnosticsSubscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.start { listener.membership(ofUser: "a.b") }
            let comments = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { listener.listen(user: "a.b") }

            XCTAssertEqual(membership.events, [.next(201, []), .completed(201)])
            XCTAssertEqual(comments.events, [.next(1201, [:])])
            let reason = RealtimeDatabaseError.invalidPath("Users/a.b", reason: "segment \"a.b\" contains \".\"").description
            XCTAssertEqual(
                diagnostics.events,
                [
                    .next(201, .membershipObservationFailed(userID: "a.b", reason: reason)),
                    .next(1201, .membershipObservationFailed(userID: "a.b", reason: reason)),
                ])
            diagnosticsSubscription.dispose()
        }
    }

    // MARK: - Diagnostics

    func testDiagnostic_descriptionsAndAccessors() {
        let diagnostics: [GroupCommentsDiagnostic] = [
            .invalidGroupID("a.b", reason: "bad"),
            .groupNotFound(groupID: "g"),
            .malformedComments(groupID: "g", value: 42),
            .groupObservationFailed(groupID: "g", reason: "boom"),
            .userNotFound(userID: "u"),
            .malformedMembership(userID: "u", value: ["x": 1]),
            .membershipObservationFailed(userID: "u", reason: "boom"),
        ]
        XCTAssertEqual(
            diagnostics.map(\.description),
            [
                "Invalid group ID \"a.b\" (bad); shown without comments",
                "Group \"g\" has no value; shown without comments",
                "Group \"g\" is not a list of comments (42); shown without comments",
                "Observing group \"g\" failed: boom; shown without comments",
                "User \"u\" has no value; no groups",
                "User \"u\" is not a list of group IDs ({\"x\":1}); no groups",
                "Observing user \"u\" failed: boom; no groups",
            ])
        XCTAssertEqual(diagnostics.map(\.groupID), ["a.b", "g", "g", "g", nil, nil, nil])
        XCTAssertEqual(diagnostics.map(\.userID), [nil, nil, nil, nil, "u", "u", "u"])
    }
}
