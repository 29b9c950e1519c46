import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Queries observed on the in-memory database, on virtual time: values, ordered children and
/// child events as writes move children into, within and out of a query.
final class RealtimeDatabaseQueryObservationTests: XCTestCase {
    private func write(_ scheduler: TestScheduler, at time: TestTime, file: StaticString = #filePath, line: UInt = #line, _ body: @escaping () throws -> Void) {
        scheduler.scheduleAt(time) {
            do { try body() } catch { XCTFail("unexpected error \(error)", file: file, line: line) }
        }
    }

    private func comment(_ time: Int) -> JSONValue { ["time": .number(Double(time))] }

    func testObserveValue_followsTheWindowAndIgnoresWritesOutsideIt() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": comment(1), "b": comment(2), "c": comment(3)], at: "g")
            let latest = database.query(at: "g").ordered(byChild: "time").limited(toLast: 2)
            write(scheduler, at: 300) { try database.setValue(self.comment(0), at: "g/z") }  // below the window
            write(scheduler, at: 400) { try database.setValue(self.comment(4), at: "g/d") }  // enters it
            write(scheduler, at: 500) { try database.setValue("unrelated", at: "other") }
            let res = scheduler.start { database.observeValue(of: latest) }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, ["b": comment(2), "c": comment(3)]),
                    .next(401, ["c": comment(3), "d": comment(4)]),
                ])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testObserveChildren_inQueryOrder() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["x": 3, "y": 1, "z": 2], at: "g")
            write(scheduler, at: 300) { try database.setValue(0, at: "g/x") }
            let res = scheduler.start { database.observeChildren(of: database.query(at: "g").orderedByValue()).map { $0.map(\.key) } }
            XCTAssertEqual(res.events, [.next(201, ["y", "z", "x"]), .next(301, ["x", "y", "z"])])
        }
    }

    func testObserveChildEvents_initialAddsThenIncrementalEventsInFirebaseOrder() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": comment(1), "b": comment(2), "c": comment(3)], at: "g")
            let latest = database.query(at: "g").ordered(byChild: "time").limited(toLast: 2)
            write(scheduler, at: 300) { try database.setValue(self.comment(4), at: "g/d") }
            write(scheduler, at: 400) { try database.setValue(["time": 3, "text": "edited"], at: "g/c") }
            write(scheduler, at: 500) { try database.setValue(5, at: "g/c/time") }
            write(scheduler, at: 600) { try database.removeValue(at: "g/c") }
            write(scheduler, at: 700) { try database.setValue(self.comment(-1), at: "g/old") }
            let res = scheduler.start { database.observeChildEvents(of: latest) }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, .added(key: "b", value: comment(2), previousKey: nil)),
                    .next(201, .added(key: "c", value: comment(3), previousKey: "b")),
                    // d enters the window at its top: b leaves.
                    .next(301, .removed(key: "b", value: comment(2))),
                    .next(301, .added(key: "d", value: comment(4), previousKey: "c")),
                    // A change that keeps the order value: changed only.
                    .next(401, .changed(key: "c", value: ["time": 3, "text": "edited"], previousKey: nil)),
                    // A new order value: moved, then changed (c now after d).
                    .next(501, .moved(key: "c", value: ["time": 5, "text": "edited"], previousKey: "d")),
                    .next(501, .changed(key: "c", value: ["time": 5, "text": "edited"], previousKey: "d")),
                    // c deleted: b comes back into the window below d.
                    .next(601, .removed(key: "c", value: ["time": 5, "text": "edited"])),
                    .next(601, .added(key: "b", value: comment(2), previousKey: nil)),
                    // Below the window: nothing.
                ])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testObserveChildEvents_ofAnEmptyOrLeafLocation() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            write(scheduler, at: 300) { try database.setValue("leaf", at: "g") }
            write(scheduler, at: 400) { try database.setValue(["k": 1], at: "g") }
            let res = scheduler.start { database.observeChildEvents(of: database.query(at: "g")) }
            XCTAssertEqual(res.events, [.next(401, .added(key: "k", value: 1, previousKey: nil))])
        }
    }

    func testInvalidQueryFailsOnTheScheduler_andRegistersNoListenerAfterwards() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let invalid = database.query(at: "g").limited(toFirst: 0)
            let error = RealtimeDatabaseError.invalidQuery("g", reason: "limited(toFirst:): the limit must be a positive integer, not 0")
            let values = scheduler.start { database.observeValue(of: invalid) }
            XCTAssertEqual(values.events, [.error(201, error)])
            let events = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) { database.observeChildEvents(of: invalid) }
            XCTAssertEqual(events.events, [.error(1101, error)])
            let once = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { database.getValue(of: invalid) }
            XCTAssertEqual(once.events, [.error(2201, error)])
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testGetValue_ofAQuery() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": 1, "b": 2, "c": 3], at: "g")
            let res = scheduler.start { database.getValue(of: database.query(at: "g").orderedByValue().starting(at: 2)) }
            XCTAssertEqual(res.events, [.next(201, ["b": 2, "c": 3]), .completed(201)])
        }
    }

    func testDisposingMidStreamRemovesTheListener() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            write(scheduler, at: 300) { try database.setValue(1, at: "g/a") }
            write(scheduler, at: 500) { try database.setValue(2, at: "g/b") }
            let observer = scheduler.createObserver(RealtimeDatabaseChildEvent.self)
            let subscription = database.observeChildEvents(of: database.query(at: "g").orderedByKey()).subscribe(observer)
            scheduler.scheduleAt(400) {
                XCTAssertEqual(database.activeObserverCount, 1)
                subscription.dispose()
                XCTAssertEqual(database.activeObserverCount, 0)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(301, .added(key: "a", value: 1, previousKey: nil))])
        }
    }
}
