import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Runs `body` at virtual `time`, failing the test (instead of crashing) if it throws.
private func scheduleWrite(
    _ scheduler: TestScheduler, at time: TestTime, file: StaticString = #filePath, line: UInt = #line, _ body: @escaping () throws -> Void
) {
    scheduler.scheduleAt(time) {
        do { try body() } catch { XCTFail("unexpected error \(error)", file: file, line: line) }
    }
}

final class InMemoryRealtimeDatabaseTests: XCTestCase {
    // MARK: - Initial value

    func testObserveValue_emitsCurrentValueOneTickAfterSubscription() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["name": "Ann", "age": 31], at: "Users/u1")
            let res = scheduler.start { database.observeValue(at: "Users/u1") }
            XCTAssertEqual(res.events, [.next(201, ["name": "Ann", "age": 31])])
            XCTAssertEqual(database.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testObserveValue_absentPathEmitsNull() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue("leaf", at: "a")
            let missing = scheduler.start { database.observeValue(at: "nothing/here") }
            XCTAssertEqual(missing.events, [.next(201, .null)])
            let belowLeaf = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { database.observeValue(at: "a/b") }
            XCTAssertEqual(belowLeaf.events, [.next(1201, .null)])
            let root = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { InMemoryRealtimeDatabase(scheduler: scheduler).observeValue(at: "/") }
            XCTAssertEqual(root.events, [.next(2201, .null)])
        }
    }

    func testObserveValue_rootPathSpellings() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(1, at: "/a/")
            let empty = scheduler.createObserver(JSONValue.self)
            let slash = scheduler.createObserver(JSONValue.self)
            let a = scheduler.createObserver(JSONValue.self)
            let subscriptions = [
                database.observeValue(at: "").subscribe(empty),
                database.observeValue(at: "/").subscribe(slash),
                database.observeValue(at: "a/").subscribe(a),
            ]
            scheduler.start()
            XCTAssertEqual(empty.events, [.next(1, ["a": 1])])
            XCTAssertEqual(slash.events, [.next(1, ["a": 1])])
            XCTAssertEqual(a.events, [.next(1, 1)])
            subscriptions.forEach { $0.dispose() }
        }
    }

    // MARK: - Change detection

    func testObserveValue_writeAtPathNotifiesOneTickLater() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            scheduleWrite(scheduler, at: 300) { try database.setValue("a", at: "x") }
            scheduleWrite(scheduler, at: 400) { try database.setValue("b", at: "x") }
            scheduleWrite(scheduler, at: 500) { try database.removeValue(at: "x") }
            let res = scheduler.start { database.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(201, .null), .next(301, "a"), .next(401, "b"), .next(501, .null)])
        }
    }

    func testObserveValue_documentedTimeline() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            scheduleWrite(scheduler, at: 300) { try database.setValue(1, at: "x") }
            scheduleWrite(scheduler, at: 400) { try database.setValue(1, at: "x") }
            scheduleWrite(scheduler, at: 500) { try database.setValue(2, at: "y") }
            scheduleWrite(scheduler, at: 600) { try database.setValue(2, at: "x") }
            let res = scheduler.start { database.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(201, .null), .next(301, 1), .next(601, 2)])
        }
    }

    func testObserveValue_writeBelowPathNotifiesWithWholeSubtree() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["u1": ["name": "Ann"]], at: "Users")
            scheduleWrite(scheduler, at: 300) { try database.setValue("Bob", at: "Users/u2/name") }
            scheduleWrite(scheduler, at: 400) { try database.setValue(32, at: "Users/u1/age") }
            let res = scheduler.start { database.observeValue(at: "Users") }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, ["u1": ["name": "Ann"]]),
                    .next(301, ["u1": ["name": "Ann"], "u2": ["name": "Bob"]]),
                    .next(401, ["u1": ["name": "Ann", "age": 32], "u2": ["name": "Bob"]]),
                ])
        }
    }

    func testObserveValue_writeAbovePathNotifiesOnlyWhenThisPartChanges() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["u1": ["name": "Ann", "age": 31]], at: "Users")
            // Changes the name: notifies.
            scheduleWrite(scheduler, at: 300) { try database.setValue(["u1": ["name": "Ann B", "age": 31]], at: "Users") }
            // Changes a sibling only: the name is the same, no notification.
            scheduleWrite(scheduler, at: 400) { try database.setValue(["u1": ["name": "Ann B", "age": 32], "u2": ["name": "Bob"]], at: "Users") }
            // Replaces the whole tree: the name disappears.
            scheduleWrite(scheduler, at: 500) { try database.setValue(["Other": true], at: "/") }
            let res = scheduler.start { database.observeValue(at: "Users/u1/name") }
            XCTAssertEqual(res.events, [.next(201, "Ann"), .next(301, "Ann B"), .next(501, .null)])
        }
    }

    func testObserveValue_unrelatedWritesDoNotNotify() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(1, at: "a/x")
            scheduleWrite(scheduler, at: 300) { try database.setValue(2, at: "b") }
            scheduleWrite(scheduler, at: 310) { try database.setValue(3, at: "ab") }  // a string prefix, not a path prefix
            scheduleWrite(scheduler, at: 320) { try database.setValue(4, at: "a/y") }  // a sibling below the same parent
            scheduleWrite(scheduler, at: 330) { try database.removeValue(at: "c") }
            scheduleWrite(scheduler, at: 340) { try database.updateChildValues(["b": 9, "z/q": 1], at: "/") }
            scheduleWrite(scheduler, at: 400) { try database.setValue(5, at: "a/x") }
            let res = scheduler.start { database.observeValue(at: "a/x") }
            XCTAssertEqual(res.events, [.next(201, 1), .next(401, 5)])
        }
    }

    func testObserveValue_equalWritesDoNotNotify() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["k": 1, "l": [true, "s"]], at: "a")
            scheduleWrite(scheduler, at: 300) { try database.setValue(["k": 1, "l": [true, "s"]], at: "a") }
            // Normalizes to the same value (null members and empty objects are absent).
            scheduleWrite(scheduler, at: 310) { try database.setValue(["k": 1, "l": [true, "s"], "gone": nil, "empty": [:]], at: "a") }
            scheduleWrite(scheduler, at: 320) { try database.setValue(1, at: "a/k") }
            scheduleWrite(scheduler, at: 330) { try database.updateChildValues(["k": 1, "l/0": true], at: "a") }
            scheduleWrite(scheduler, at: 340) { try database.removeValue(at: "a/missing") }
            scheduleWrite(scheduler, at: 350) { try database.removeValue(at: "a/k/below/a/leaf") }
            let res = scheduler.start { database.observeValue(at: "a") }
            XCTAssertEqual(res.events, [.next(201, ["k": 1, "l": [true, "s"]])])
            XCTAssertEqual(scheduler.clock, 1000)
        }
    }

    func testObserveValue_severalWritesInOneTickArriveInWriteOrder() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            scheduleWrite(scheduler, at: 300) {
                try database.setValue(1, at: "n")
                try database.setValue(2, at: "n")
                try database.setValue(2, at: "n")
                try database.setValue(3, at: "n")
            }
            let res = scheduler.start { database.observeValue(at: "n") }
            XCTAssertEqual(res.events, [.next(201, .null), .next(301, 1), .next(301, 2), .next(301, 3)])
        }
    }

    func testObserveValue_writeBeforeFirstDeliveryIsSeenAfterInitialValue() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue("old", at: "x")
            let observer = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscription = database.observeValue(at: "x").subscribe(observer)
                do { try database.setValue("new", at: "x") } catch { XCTFail("\(error)") }
                scheduler.scheduleAt(300) { subscription.dispose() }
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(201, "old"), .next(201, "new")])
        }
    }

    // MARK: - Delete and prune

    func testSetValue_nullDeletesAndPrunesEmptyParents() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(1, at: "a/b/c")
            try database.setValue(2, at: "a/d")
            scheduleWrite(scheduler, at: 300) { try database.setValue(nil, at: "a/b/c") }
            scheduleWrite(scheduler, at: 400) { try database.removeValue(at: "a/d") }
            let a = scheduler.createObserver(JSONValue.self)
            let b = scheduler.createObserver(JSONValue.self)
            let root = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscriptions = [
                    database.observeValue(at: "a").subscribe(a),
                    database.observeValue(at: "a/b").subscribe(b),
                    database.observeValue(at: "/").subscribe(root),
                ]
                scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            }
            scheduler.start()
            XCTAssertEqual(a.events, [.next(201, ["b": ["c": 1], "d": 2]), .next(301, ["d": 2]), .next(401, .null)])
            XCTAssertEqual(b.events, [.next(201, ["c": 1]), .next(301, .null)])
            XCTAssertEqual(root.events, [.next(201, ["a": ["b": ["c": 1], "d": 2]]), .next(301, ["a": ["d": 2]]), .next(401, .null)])
            XCTAssertEqual(try database.value(at: "/"), .null)
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testSetValue_normalizesNullsAndEmptyContainers() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["x": nil, "y": [:], "z": [], "w": [nil, nil]], at: "a")
            XCTAssertEqual(try database.value(at: "/"), .null)
            try database.setValue(["k": 1, "n": nil, "nested": ["e": [:]], "list": [1, nil, 2, nil, nil]], at: "a")
            XCTAssertEqual(try database.value(at: "a"), ["k": 1, "list": [1, nil, 2]])
            XCTAssertEqual(try database.value(at: "a/list/1"), .null)
            try database.setValue(true, at: "a/k/deeper")  // a write below a leaf replaces the leaf
            XCTAssertEqual(try database.value(at: "a/k"), ["deeper": true])
        }
    }

    func testSetValue_replacingSubtreeNotifiesDescendantsThatChanged() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": 1, "b": 2], at: "p")
            scheduleWrite(scheduler, at: 300) { try database.setValue(["a": 1, "b": 3], at: "p") }
            scheduleWrite(scheduler, at: 400) { try database.removeValue(at: "p") }
            let a = scheduler.createObserver(JSONValue.self)
            let b = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscriptions = [database.observeValue(at: "p/a").subscribe(a), database.observeValue(at: "p/b").subscribe(b)]
                scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            }
            scheduler.start()
            XCTAssertEqual(a.events, [.next(201, 1), .next(401, .null)])
            XCTAssertEqual(b.events, [.next(201, 2), .next(301, 3), .next(401, .null)])
        }
    }

    // MARK: - updateChildValues

    func testUpdateChildValues_multiPathUpdateNotifiesEachChangedPathOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["Users": ["u1": ["name": "Ann"]], "Groups": ["g1": ["title": "Chat"]]], at: "/")
            scheduleWrite(scheduler, at: 300) {
                try database.updateChildValues(
                    [
                        "Users/u1/groups/g1": true,
                        "Groups/g1/members/u1": true,
                        "Groups/g1/title": "Chat",  // unchanged
                        "Users/u1/name": nil,  // deletes
                    ], at: "/")
            }
            let users = scheduler.createObserver(JSONValue.self)
            let title = scheduler.createObserver(JSONValue.self)
            let root = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscriptions = [
                    database.observeValue(at: "Users/u1").subscribe(users),
                    database.observeValue(at: "Groups/g1/title").subscribe(title),
                    database.observeValue(at: "/").subscribe(root),
                ]
                scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            }
            scheduler.start()
            XCTAssertEqual(users.events, [.next(201, ["name": "Ann"]), .next(301, ["groups": ["g1": true]])])
            XCTAssertEqual(title.events, [.next(201, "Chat")])
            XCTAssertEqual(root.events.count, 2, "one notification for the whole update")
            XCTAssertEqual(
                root.events.last,
                .next(
                    301,
                    [
                        "Users": ["u1": ["groups": ["g1": true]]],
                        "Groups": ["g1": ["title": "Chat", "members": ["u1": true]]],
                    ]))
        }
    }

    func testUpdateChildValues_keepsOtherChildrenUnlikeSetValue() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": 1, "b": 2], at: "p")
            try database.updateChildValues(["b": 3, "c": 4], at: "/p/")
            XCTAssertEqual(try database.value(at: "p"), ["a": 1, "b": 3, "c": 4])
            try database.updateChildValues(["a": nil, "b": nil, "c": nil], at: "p")
            XCTAssertEqual(try database.value(at: "/"), .null)
            try database.updateChildValues([:], at: "p")
            XCTAssertEqual(try database.value(at: "/"), .null)
            XCTAssertEqual(scheduler.pendingCount, 0, "no observers, nothing scheduled")
        }
    }

    // MARK: - Arrays

    /// The seed's database: comments are stored as JSON arrays.
    private let seed: JSONValue = [
        "Groups": [
            "group0": ["comment0-0", "comment0-1", "comment0-2"],
            "group1": ["comment1-0", "comment1-1", "comment1-2"],
            "group2": ["comment2-0", "comment2-1", "comment2-2"],
        ],
        "Users": ["user1": ["group0", "group1"]],
    ]

    func testArrays_areStoredAsWrittenAndIndexPathsAddressElements() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try InMemoryRealtimeDatabase(scheduler: scheduler, value: seed)
            XCTAssertEqual(try database.value(at: "Groups/group0"), ["comment0-0", "comment0-1", "comment0-2"])
            XCTAssertEqual(try database.value(at: "Groups/group0/1"), "comment0-1")
            XCTAssertEqual(try database.value(at: "Groups/group0/3"), .null)
            XCTAssertEqual(try database.value(at: "Groups/group0/01"), .null, "not a canonical index")
            XCTAssertEqual(try database.value(at: "Groups/group0/-1"), .null)
            XCTAssertEqual(try database.value(at: "Users/user1/0"), "group0")

            scheduleWrite(scheduler, at: 300) { try database.setValue("edited", at: "Groups/group0/1") }
            scheduleWrite(scheduler, at: 400) { try database.setValue("comment0-3", at: "Groups/group0/3") }  // appends
            scheduleWrite(scheduler, at: 500) { try database.setValue("comment0-2", at: "Groups/group0/2") }  // unchanged
            let group = scheduler.createObserver(JSONValue.self)
            let element = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscriptions = [
                    database.observeValue(at: "Groups/group0").subscribe(group),
                    database.observeValue(at: "Groups/group0/1").subscribe(element),
                ]
                scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            }
            scheduler.start()
            XCTAssertEqual(
                group.events,
                [
                    .next(201, ["comment0-0", "comment0-1", "comment0-2"]),
                    .next(301, ["comment0-0", "edited", "comment0-2"]),
                    .next(401, ["comment0-0", "edited", "comment0-2", "comment0-3"]),
                ])
            XCTAssertEqual(element.events, [.next(201, "comment0-1"), .next(301, "edited")])
        }
    }

    func testArrays_removingElementsLeavesHolesTrimsTheEndAndPrunesWhenEmpty() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a", "b", "c"], at: "list")
            try database.removeValue(at: "list/1")
            XCTAssertEqual(try database.value(at: "list"), ["a", nil, "c"], "a hole, like Firebase's missing index")
            try database.removeValue(at: "list/2")
            XCTAssertEqual(try database.value(at: "list"), ["a"], "trailing holes are trimmed")
            try database.removeValue(at: "list/5")
            XCTAssertEqual(try database.value(at: "list"), ["a"], "removing an absent element changes nothing")
            try database.removeValue(at: "list/0")
            XCTAssertEqual(try database.value(at: "/"), .null, "an empty array is absent and pruned")
        }
    }

    func testArrays_gapsAndNonIndexKeysTurnTheArrayIntoAnObject() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a", nil, "c"], at: "list")
            try database.setValue("f", at: "list/5")
            XCTAssertEqual(try database.value(at: "list"), ["0": "a", "2": "c", "5": "f"])
            XCTAssertEqual(try database.value(at: "list/2"), "c")

            try database.setValue(["x", "y"], at: "other")
            try database.setValue(true, at: "other/flag")
            XCTAssertEqual(try database.value(at: "other"), ["0": "x", "1": "y", "flag": true])

            try database.setValue(["x"], at: "third")
            try database.updateChildValues(["third/2": "c", "third/1": "b", "third/10": "k"], at: "/")
            XCTAssertEqual(try database.value(at: "third"), ["0": "x", "1": "b", "2": "c", "10": "k"], "indexes apply in numeric order")
            try database.setValue(["x"], at: "fourth")
            try database.updateChildValues(["2": "c", "1": "b"], at: "fourth")
            XCTAssertEqual(try database.value(at: "fourth"), ["x", "b", "c"], "consecutive indexes append")
        }
    }

    // MARK: - push / childByAutoId

    func testPush_keysIncreaseWithinTheSameVirtualMillisecond() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            var keys: [String] = []
            for index in 0..<500 {
                keys.append(try database.push(.number(Double(index)), at: "messages"))
            }
            XCTAssertEqual(keys.sorted(), keys)
            XCTAssertEqual(Set(keys).count, keys.count)
            XCTAssertTrue(keys.allSatisfy { $0.count == 20 })
            XCTAssertTrue(keys.allSatisfy { $0.hasPrefix("--------") }, "virtual time 0 encodes as 8 dashes")
            XCTAssertTrue(keys.allSatisfy { $0.allSatisfy(PushIDGenerator.alphabet.contains) })
            let stored = try database.value(at: "messages").objectValue ?? [:]
            XCTAssertEqual(stored.keys.sorted().map { stored[$0] }, (0..<500).map { .number(Double($0)) }, "key order is insertion order")
        }
    }

    func testPush_keysCarryTheSchedulersTimeAndIncreaseAcrossTicks() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            var keys: [String] = []
            for time in [10, 20, 20, 30] {
                scheduleWrite(scheduler, at: time) { keys.append(try database.push("m", at: "messages")) }
            }
            scheduler.start()
            XCTAssertEqual(keys.count, 4)
            XCTAssertEqual(keys.sorted(), keys)
            XCTAssertEqual(keys.map { PushIDGenerator.timestamp(ofPushID: $0) }, [10, 20, 20, 30].map { Date(timeIntervalSince1970: Double($0)) })
            XCTAssertEqual(PushIDGenerator.timestamp(ofPushID: database.childByAutoId()), scheduler.now, "childByAutoId uses the same clock")
            XCTAssertEqual(try database.value(at: "messages").objectValue?.count, 4)
        }
    }

    func testPush_observableFormWritesOnSubscriptionAndEmitsTheKey() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let inMemory = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database: RealtimeDatabase = inMemory
            let push = database.push(["text": "hi"], at: "rooms/r1/messages")
            XCTAssertEqual(try inMemory.value(at: "/"), .null, "nothing happens before subscription")
            let res = scheduler.start { push }
            XCTAssertEqual(res.events.count, 2)
            guard case .next(let key)? = res.events.first?.value else { return XCTFail("no key") }
            XCTAssertEqual(res.events, [.next(201, key), .completed(201)])
            XCTAssertEqual(key.count, 20)
            XCTAssertEqual(try inMemory.value(at: "rooms/r1/messages"), .object([key: ["text": "hi"]]))

            let atRoot = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { database.push(1, at: "/") }
            guard case .next(let rootKey)? = atRoot.events.first?.value else { return XCTFail("no key") }
            XCTAssertEqual(try inMemory.value(at: rootKey), 1)
        }
    }

    // MARK: - getValue and the write observables

    func testGetValue_emitsTheValueOnceAndCompletes() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": 1], at: "p")
            let res = scheduler.start { database.getValue(at: "p") }
            XCTAssertEqual(res.events, [.next(201, ["a": 1]), .completed(201)])
            let missing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { database.getValue(at: "q") }
            XCTAssertEqual(missing.events, [.next(1201, .null), .completed(1201)])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testGetValue_disposedBeforeDeliveryEmitsNothing() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let res = scheduler.start(disposed: 200) { database.getValue(at: "p") }
            XCTAssertEqual(res.events, [])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWriteObservables_areColdAndCompleteAfterTheNotificationsTheyCause() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let inMemory = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database: RealtimeDatabase = inMemory
            var log: [String] = []
            let set = database.setValue(["a": 1, "b": 2], at: "p")
            let update = database.updateChildValues(["a": 3, "c/d": 4], at: "p")
            let remove = database.removeValue(at: "p/b")
            XCTAssertEqual(try inMemory.value(at: "/"), .null, "nothing is written before subscription")
            var subscriptions: [Disposable] = []
            func record(_ name: String, _ write: Observable<Void>) -> Disposable {
                write.subscribe(onNext: { log.append("\(scheduler.clock) \(name)") }, onCompleted: { log.append("\(scheduler.clock) \(name) completed") })
            }
            scheduler.scheduleAt(200) {
                subscriptions.append(database.observeValue(at: "p").subscribe(onNext: { log.append("\(scheduler.clock) value \($0)") }))
            }
            scheduler.scheduleAt(300) { subscriptions.append(record("set", set)) }
            scheduler.scheduleAt(400) { subscriptions.append(record("update", update)) }
            scheduler.scheduleAt(500) { subscriptions.append(record("remove", remove)) }
            scheduler.scheduleAt(600) { subscriptions.append(record("remove again", remove)) }
            scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(
                log,
                [
                    "201 value null",
                    #"301 value {"a":1,"b":2}"#, "301 set", "301 set completed",
                    #"401 value {"a":3,"b":2,"c":{"d":4}}"#, "401 update", "401 update completed",
                    #"501 value {"a":3,"c":{"d":4}}"#, "501 remove", "501 remove completed",
                    "601 remove again", "601 remove again completed",
                ])
        }
    }

    func testWriteObservables_eachSubscriptionWritesAgain() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let inMemory = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database: RealtimeDatabase = inMemory
            let values = scheduler.createObserver(JSONValue.self)
            let set = scheduler.createObserver(String.self)
            let update = scheduler.createObserver(String.self)
            let remove = scheduler.createObserver(String.self)
            let setAgain = scheduler.createObserver(String.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(database.observeValue(at: "p").subscribe(values)) }
            scheduler.scheduleAt(300) { subscriptions.append(database.setValue(["a": 1, "b": 2], at: "p").map { "set" }.subscribe(set)) }
            scheduler.scheduleAt(400) { subscriptions.append(database.updateChildValues(["a": 3], at: "p").map { "update" }.subscribe(update)) }
            scheduler.scheduleAt(500) { subscriptions.append(database.removeValue(at: "p/b").map { "remove" }.subscribe(remove)) }
            scheduler.scheduleAt(600) { subscriptions.append(database.setValue(["a": 3], at: "p").map { "same" }.subscribe(setAgain)) }
            scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(201, .null), .next(301, ["a": 1, "b": 2]), .next(401, ["a": 3, "b": 2]), .next(501, ["a": 3])])
            XCTAssertEqual(set.events, [.next(301, "set"), .completed(301)])
            XCTAssertEqual(update.events, [.next(401, "update"), .completed(401)])
            XCTAssertEqual(remove.events, [.next(501, "remove"), .completed(501)])
            XCTAssertEqual(setAgain.events, [.next(601, "same"), .completed(601)], "an equal write still completes")
        }
    }

    func testWriteObservables_onTheConcreteTypeWhenAnObservableIsExpected() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let write: Observable<Void> = database.setValue(1, at: "x")
            let res = scheduler.start { write.map { "done" } }
            XCTAssertEqual(res.events, [.next(201, "done"), .completed(201)])
            let key = try database.push(2, at: "list")  // the synchronous form
            XCTAssertEqual(try database.value(at: "list/\(key)"), 2)
        }
    }

    // MARK: - Disposal and observer counting

    func testObserveValue_disposeMidStreamStopsDeliveryAndRemovesTheListener() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            var counts: [Int] = []
            scheduleWrite(scheduler, at: 300) { try database.setValue(1, at: "x") }
            scheduler.scheduleAt(320) { counts.append(database.activeObserverCount) }
            scheduleWrite(scheduler, at: 400) { try database.setValue(2, at: "x") }
            scheduler.scheduleAt(420) { counts.append(database.activeObserverCount) }
            let res = scheduler.start(disposed: 350) { database.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(201, .null), .next(301, 1)])
            XCTAssertEqual(counts, [1, 0])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testObserveValue_disposeCancelsDeliveriesAlreadyScheduled() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let observer = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscription = database.observeValue(at: "x").subscribe(observer)
                scheduler.scheduleAt(300) {
                    do { try database.setValue(1, at: "x") } catch { XCTFail("\(error)") }
                    XCTAssertEqual(scheduler.pendingCount, 1)
                    subscription.dispose()
                    XCTAssertEqual(scheduler.pendingCount, 0, "the pending delivery was cancelled")
                    XCTAssertEqual(database.activeObserverCount, 0)
                }
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(201, .null)])
        }
    }

    func testObserveValue_disposeBeforeInitialValueEmitsNothing() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let res = scheduler.start(disposed: 200) { database.observeValue(at: "x") }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(database.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testActiveObserverCount_countsLiveObservationsOnly() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let observable = database.observeValue(at: "x")
            XCTAssertEqual(database.activeObserverCount, 0, "creating the observable registers nothing")
            let first = observable.subscribe()
            let second = observable.subscribe()
            let third = database.observeValue(at: "y/z").subscribe()
            let failed = database.observeValue(at: "bad.path").subscribe(onError: { _ in })
            let read = database.getValue(at: "x").subscribe()
            XCTAssertEqual(database.activeObserverCount, 3)
            second.dispose()
            second.dispose()
            XCTAssertEqual(database.activeObserverCount, 2)
            scheduler.start()
            XCTAssertEqual(database.activeObserverCount, 2)
            first.dispose()
            third.dispose()
            failed.dispose()
            read.dispose()
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    // MARK: - Reentrancy

    func testObserveValue_reentrantWriteFromObserverArrivesOnTheNextTick() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(0, at: "count")
            let observer = scheduler.createObserver(JSONValue.self)
            scheduler.scheduleAt(200) {
                let subscription = database.observeValue(at: "count")
                    .do(onNext: { value in
                        if let count = value.numberValue, count < 3 {
                            try database.setValue(.number(count + 1), at: "count")
                        }
                    })
                    .subscribe(observer)
                scheduler.scheduleAt(1000) { subscription.dispose() }
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(201, 0), .next(202, 1), .next(203, 2), .next(204, 3)])
        }
    }

    func testObserveValue_observerAddedAndRemovedDuringDelivery() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let first = scheduler.createObserver(JSONValue.self)
            let late = scheduler.createObserver(JSONValue.self)
            var quitterValues: [JSONValue] = []
            let bag = LockedState<[Disposable]>([])
            scheduler.scheduleAt(200) {
                let lateSubscription = SingleAssignmentDisposable()
                bag.withLock { $0.append(lateSubscription) }
                bag.withLock {
                    $0.append(
                        database.observeValue(at: "x").do(onNext: { value in
                            // Subscribes another observer while a value is being delivered.
                            if value == 1 { lateSubscription.setDisposable(database.observeValue(at: "x").subscribe(late)) }
                        }).subscribe(first))
                }
                let quitterSubscription = SingleAssignmentDisposable()
                bag.withLock { $0.append(quitterSubscription) }
                quitterSubscription.setDisposable(
                    database.observeValue(at: "x").subscribe(onNext: { value in
                        quitterValues.append(value)
                        // Disposes itself while a value written in the same tick is still queued.
                        if value == 1 { quitterSubscription.dispose() }
                    }))
            }
            scheduleWrite(scheduler, at: 300) {
                try database.setValue(1, at: "x")
                try database.setValue(2, at: "x")
            }
            scheduleWrite(scheduler, at: 400) { try database.setValue(3, at: "x") }
            scheduler.scheduleAt(1000) { bag.withLock { $0 }.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(201, .null), .next(301, 1), .next(301, 2), .next(401, 3)])
            XCTAssertEqual(late.events, [.next(302, 2), .next(401, 3)], "subscribed after both writes: sees the value at subscription")
            XCTAssertEqual(quitterValues, [.null, 1])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testObserveValue_reentrantWriteOnAnImmediateSchedulerKeepsOrderWithoutRecursion() throws {
        try XCTAssertNoLeaks {
            let scheduler = ImmediateTestScheduler()
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(0, at: "count")
            var received: [JSONValue] = []
            var depth = 0
            var maximumDepth = 0
            let subscription = database.observeValue(at: "count").subscribe(onNext: { value in
                depth += 1
                maximumDepth = max(maximumDepth, depth)
                received.append(value)
                if let count = value.numberValue, count < 5 {
                    try? database.setValue(.number(count + 1), at: "count")
                    try? database.setValue(.number(count + 1), at: "count")  // equal: no notification
                }
                depth -= 1
            })
            XCTAssertEqual(received, [0, 1, 2, 3, 4, 5])
            XCTAssertEqual(maximumDepth, 1, "a reentrant notification waits for the current onNext to return")
            try database.setValue(9, at: "count")
            XCTAssertEqual(received.last, 9)
            subscription.dispose()
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    // MARK: - The seed: one stream of the comments of every group a user belongs to

    func testGroupComments_followsTheUsersGroupsAndRemovesOldListeners() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try InMemoryRealtimeDatabase(scheduler: scheduler, value: seed)
            func strings(_ value: JSONValue) -> [String] { value.arrayValue?.compactMap(\.stringValue) ?? [] }
            let allGroupsComments = database.observeValue(at: "Users/user1")
                .map(strings)
                .flatMapLatest { groupIDs -> Observable<[String: [String]]> in
                    Observable.combineLatest(
                        groupIDs.map { id in
                            database.observeValue(at: "Groups/\(id)").map { (id, strings($0)) }
                        }
                    ).map { Dictionary($0, uniquingKeysWith: { _, last in last }) }
                }
            var counts: [TestTime: Int] = [:]
            for time in [250, 450, 1050] {
                scheduler.scheduleAt(time) { counts[time] = database.activeObserverCount }
            }
            scheduleWrite(scheduler, at: 300) { try database.setValue("comment0-3", at: "Groups/group0/3") }
            scheduleWrite(scheduler, at: 350) { try database.setValue("ignored", at: "Groups/group2/3") }  // not a member
            scheduleWrite(scheduler, at: 400) { try database.setValue("group2", at: "Users/user1/2") }  // joins group2
            scheduleWrite(scheduler, at: 500) { try database.setValue(["group2"], at: "Users/user1") }  // leaves 0 and 1
            scheduleWrite(scheduler, at: 600) { try database.setValue("nobody listens", at: "Groups/group0/4") }
            let res = scheduler.start { allGroupsComments }
            XCTAssertEqual(
                res.events,
                [
                    .next(202, ["group0": ["comment0-0", "comment0-1", "comment0-2"], "group1": ["comment1-0", "comment1-1", "comment1-2"]]),
                    .next(301, ["group0": ["comment0-0", "comment0-1", "comment0-2", "comment0-3"], "group1": ["comment1-0", "comment1-1", "comment1-2"]]),
                    .next(
                        402,
                        [
                            "group0": ["comment0-0", "comment0-1", "comment0-2", "comment0-3"],
                            "group1": ["comment1-0", "comment1-1", "comment1-2"],
                            "group2": ["comment2-0", "comment2-1", "comment2-2", "ignored"],
                        ]),
                    .next(502, ["group2": ["comment2-0", "comment2-1", "comment2-2", "ignored"]]),
                ])
            XCTAssertEqual(counts, [250: 3, 450: 4, 1050: 0])
        }
    }
}

/// A scheduler that runs every action at once, on the calling thread (to test reentrancy).
private final class ImmediateTestScheduler: SchedulerType, @unchecked Sendable {
    // Safety: stateless.
    var now: Date { Date(timeIntervalSince1970: 0) }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        Disposables.create()
    }
}
