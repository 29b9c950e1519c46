import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// One table of query scenarios run on every backend: `InMemoryRealtimeDatabase` on virtual
/// time, and `FirebaseRESTDatabase` (its streamed and one-shot queries) over the loopback
/// `FirebaseTestServer`, which evaluates the REST query parameters itself. The value sequences
/// and child event sequences must be identical.
final class RealtimeDatabaseQueryScenarioTests: FirebaseTestServerTestCase {
    struct Scenario: Sendable {
        let name: String
        /// The value at `g` before the query is observed.
        let initial: JSONValue
        /// Applied to the query of `g`.
        let narrow: @Sendable (RealtimeDatabaseQuery) -> RealtimeDatabaseQuery
        /// Performed one after the other once the first selection was delivered.
        let writes: [RealtimeDatabaseWrite]
    }

    private static func comment(_ time: Double, _ text: String = "") -> JSONValue {
        text.isEmpty ? ["time": .number(time)] : ["time": .number(time), "text": .string(text)]
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "last two by a child",
            initial: ["a": comment(1), "b": comment(2), "c": comment(3)],
            narrow: { $0.ordered(byChild: "time").limited(toLast: 2) },
            writes: [
                .setValue(comment(4), at: "g/d"),
                .setValue(comment(3, "edited"), at: "g/c"),
                .setValue(5, at: "g/c/time"),
                .removeValue(at: "g/c"),
                .setValue(comment(-1), at: "g/old"),
                .updateChildValues(["e": comment(6), "a": .null], at: "g"),
            ]
        ),
        Scenario(
            name: "a key range",
            initial: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5],
            narrow: { $0.orderedByKey().starting(at: "b").ending(at: "d") },
            writes: [
                .setValue(1, at: "g/bb"),
                .removeValue(at: "g/b"),
                .setValue(9, at: "g/z"),
                .setValue("new", at: "g/c"),
            ]
        ),
        Scenario(
            name: "first three by value",
            initial: ["x": 3, "y": 1, "z": 2, "w": "s"],
            narrow: { $0.orderedByValue().limited(toFirst: 3) },
            writes: [
                .setValue(0, at: "g/x"),
                .setValue(true, at: "g/y"),
                .removeValue(at: "g/z"),
                .setValue(["o": 1], at: "g/w"),
            ]
        ),
        Scenario(
            name: "equal to a child value",
            initial: ["m1": ["room": "r1"], "m2": ["room": "r2"]],
            narrow: { $0.ordered(byChild: "room").equal(to: "r1") },
            writes: [
                .setValue("r1", at: "g/m2/room"),
                .setValue("r3", at: "g/m1/room"),
                .setValue(["room": "r1", "text": "hi"], at: "g/m3"),
            ]
        ),
        Scenario(
            name: "after a value and key, before a value",
            initial: ["p": 10, "q": 20, "r": 20, "s": 30, "t": 40],
            narrow: { $0.orderedByValue().starting(after: 20, childKey: "q").ending(before: 40) },
            writes: [
                .setValue(20, at: "g/pp"),
                .setValue(35, at: "g/t"),
                .setValue(20, at: "g/qq"),
            ]
        ),
        Scenario(
            name: "the whole location, replaced",
            initial: ["k1": 1, "k2": 2],
            narrow: { $0 },
            writes: [
                .setValue("leaf", at: "g"),
                .setValue(["k": 1], at: "g"),
                .removeValue(at: "g"),
                .setValue(["10": "ten", "9": "nine", "x": "x"], at: "g"),
            ]
        ),
    ]

    /// What a backend delivered for a scenario.
    struct Outcome: Equatable {
        var values: [JSONValue] = []
        var childEvents: [RealtimeDatabaseChildEvent] = []
        var finalRead: JSONValue = .null
    }

    private func inMemoryOutcome(_ scenario: Scenario) throws -> Outcome {
        let scheduler = TestScheduler(initialClock: 0)
        let database = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["g": scenario.initial])
        let query = scenario.narrow(database.query(at: "g"))
        for (index, write) in scenario.writes.enumerated() {
            scheduler.scheduleAt(TestTime(300 + 100 * index)) { _ = database.perform(write).subscribe() }
        }
        let values = scheduler.createObserver(JSONValue.self)
        let events = scheduler.createObserver(RealtimeDatabaseChildEvent.self)
        let subscriptions = [
            database.observeValue(of: query).subscribe(values),
            database.observeChildEvents(of: query).subscribe(events),
        ]
        scheduler.start()
        subscriptions.forEach { $0.dispose() }
        let read = scheduler.createObserver(JSONValue.self)
        _ = database.getValue(of: query).subscribe(read)
        scheduler.start()
        return Outcome(
            values: values.events.compactMap(\.value.element),
            childEvents: events.events.compactMap(\.value.element),
            finalRead: read.events.first?.value.element ?? .null
        )
    }

    private func restOutcome(_ scenario: Scenario, expected: Outcome) throws -> Outcome {
        try server.setDatabaseValue(.null, at: "/")
        try server.setDatabaseValue(scenario.initial, at: "g")
        let database = FirebaseRESTDatabase(
            databaseURL: server.databaseURL,
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "query-scenarios"),
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2),
            requestTimeout: networkTimeout
        )
        let query = scenario.narrow(database.query(at: "g"))
        let values = EventRecorder(database.observeValue(of: query))
        let events = EventRecorder(database.observeChildEvents(of: query))
        defer {
            values.dispose()
            events.dispose()
        }
        XCTAssertTrue(values.waitForElements(1), scenario.name)
        XCTAssertTrue(server.waitForOpenStreams(2, route: .database), scenario.name)
        for write in scenario.writes {
            _ = try database.perform(write).toBlocking(timeout: networkTimeout).single()
        }
        values.waitForElements(expected.values.count)
        events.waitForElements(expected.childEvents.count)
        let finalRead = try database.getValue(of: query).toBlocking(timeout: networkTimeout).single()
        return Outcome(values: values.elements, childEvents: events.elements, finalRead: finalRead)
    }

    func testEveryScenario_inMemoryAndRESTOverTheTestServerAgree() throws {
        try XCTAssertNoLeaksEventually {
            for scenario in Self.scenarios {
                let expected = try inMemoryOutcome(scenario)
                XCTAssertGreaterThan(expected.values.count, 1, "\(scenario.name): the writes change the selection")
                XCTAssertFalse(expected.childEvents.isEmpty, scenario.name)
                let rest = try restOutcome(scenario, expected: expected)
                XCTAssertEqual(rest.values, expected.values, "\(scenario.name): values")
                XCTAssertEqual(rest.childEvents, expected.childEvents, "\(scenario.name): child events")
                XCTAssertEqual(rest.finalRead, expected.finalRead, "\(scenario.name): one-shot read")
                XCTAssertEqual(rest.finalRead, expected.values.last, "\(scenario.name): the read is the last value")
            }
        }
    }

    func testRESTQuery_sendsTheQueryParametersAndTheServerFiltersAndOrders() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["a": Self.comment(1), "b": Self.comment(2), "c": Self.comment(3)], at: "g")
            let database = FirebaseRESTDatabase(databaseURL: server.databaseURL, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "query"))
            let query = database.query(at: "g").ordered(byChild: "time").starting(after: 1, childKey: "x").limited(toLast: 1)
            XCTAssertEqual(try database.getValue(of: query).toBlocking(timeout: networkTimeout).single(), ["c": Self.comment(3)])
            let request = try XCTUnwrap(server.requests(on: .database).last)
            XCTAssertEqual(request.query["orderBy"], "\"time\"")
            XCTAssertEqual(request.query["startAfter"], "1,\"x\"")
            XCTAssertEqual(request.query["limitToLast"], "1")
            // The server evaluated it: the raw answer holds only the selection.
            let raw = try client.send("GET", server.databaseURL("/g", query: ["orderBy": "\"time\"", "limitToFirst": "2"]))
            XCTAssertEqual(try JSONValue(parsing: raw.body), ["a": Self.comment(1), "b": Self.comment(2)])
        }
    }

    func testRESTQuery_aReconnectRaisesNoDuplicateAndMissesNoChildEvent() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["a": 1, "b": 2], at: "g")
            let database = FirebaseRESTDatabase(
                databaseURL: server.databaseURL,
                scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "query"),
                reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2)
            )
            let events = EventRecorder(database.observeChildEvents(of: database.query(at: "g").orderedByValue().limited(toLast: 2)))
            XCTAssertTrue(events.waitForElements(2))
            server.dropStreams(route: .database)
            // Written while the client reconnects: seen through the new stream's first put.
            try server.setDatabaseValue(3, at: "g/c")
            XCTAssertTrue(events.waitForElements(4), "\(events.events)")
            XCTAssertTrue(server.waitForRequests(2, route: .database))
            XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
            try server.setDatabaseValue(0, at: "g/b")
            XCTAssertTrue(events.waitForElements(6), "\(events.events)")
            XCTAssertEqual(
                events.elements,
                [
                    .added(key: "a", value: 1, previousKey: nil),
                    .added(key: "b", value: 2, previousKey: "a"),
                    .removed(key: "a", value: 1),
                    .added(key: "c", value: 3, previousKey: "b"),
                    // b drops below a: it leaves the window and a comes back.
                    .removed(key: "b", value: 2),
                    .added(key: "a", value: 1, previousKey: nil),
                ])
            events.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testTestServer_rejectsInvalidQueryParametersWithA400() throws {
        let cases: [[String: String]] = [
            ["limitToFirst": "2"],  // no orderBy
            ["orderBy": "time"],  // not JSON
            ["orderBy": "\"$key\"", "startAt": "1"],  // key bound not a string
            ["orderBy": "\"$value\"", "startAt": "{\"a\":1}"],  // object bound
            ["orderBy": "\"$value\"", "limitToFirst": "0"],
            ["orderBy": "\"$value\"", "limitToFirst": "1", "limitToLast": "1"],
            ["orderBy": "\"$value\"", "equalTo": "1", "startAt": "1"],
            ["orderBy": "\"$value\"", "shallow": "true"],
            ["shallow": "yes"],
        ]
        for parameters in cases {
            let answer = try client.send("GET", server.databaseURL("/g", query: parameters))
            XCTAssertEqual(answer.status, 400, "\(parameters)")
            XCTAssertNotNil(try JSONValue(parsing: answer.body)["error"]?.stringValue, "\(parameters)")
        }
    }

    func testTestServer_shallowReadsKeysOnly() throws {
        try server.setDatabaseValue(["a": ["deep": 1], "b": "x"], at: "g")
        let answer = try client.send("GET", server.databaseURL("/g", query: ["shallow": "true"]))
        XCTAssertEqual(try JSONValue(parsing: answer.body), ["a": true, "b": true])
        let leaf = try client.send("GET", server.databaseURL("/g/b", query: ["shallow": "true"]))
        XCTAssertEqual(try JSONValue(parsing: leaf.body), "x")
    }
}
