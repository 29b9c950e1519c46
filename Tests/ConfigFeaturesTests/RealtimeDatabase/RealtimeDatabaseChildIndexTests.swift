import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// `InMemoryRealtimeDatabase` works query results and child events out incrementally, from the
/// paths each write touched. These tests drive it and the protocol's client-side evaluation
/// (which re-reads the whole location on every change) with the same random writes and require
/// identical timelines, for queries with and without limits and ranges.
final class RealtimeDatabaseChildIndexTests: XCTestCase {
    /// The protocol's default query implementations over an in-memory database: every query is
    /// evaluated again on the whole value of its location.
    private struct ClientSideQueries: RealtimeDatabase {
        let base: InMemoryRealtimeDatabase
        func observeValue(at path: String) -> Observable<JSONValue> { base.observeValue(at: path) }
        func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
        func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
        func childByAutoId() -> String { base.childByAutoId() }
    }

    private static let keys = ["a", "b", "c", "d", "e", "f", "1", "2", "10", "-3", "k1", "k10"]

    private static func randomValue(_ random: inout DeterministicRandom) -> JSONValue {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double(Int.random(in: -2...6, using: &random)))
        case 3: return .string(["x", "y", "z"][Int.random(in: 0..<3, using: &random)])
        default:
            var members: [String: JSONValue] = ["t": .number(Double(Int.random(in: 0...6, using: &random)))]
            if Bool.random(using: &random) { members["s"] = .string(["p", "q"][Int.random(in: 0..<2, using: &random)]) }
            if Int.random(in: 0..<5, using: &random) == 0 { members["t"] = nil }
            return .object(members)
        }
    }

    private static func randomGroup(_ random: inout DeterministicRandom) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for key in keys where Bool.random(using: &random) { members[key] = randomValue(&random) }
        return .object(members)
    }

    /// One random write: mostly to single children (the incremental path), sometimes to several
    /// at once, to a child's child, to the whole location or above it, or elsewhere.
    private static func randomWrite(_ random: inout DeterministicRandom, on database: InMemoryRealtimeDatabase) throws {
        let key = keys[Int.random(in: 0..<keys.count, using: &random)]
        switch Int.random(in: 0..<12, using: &random) {
        case 0...4: try database.setValue(randomValue(&random), at: "g/\(key)")
        case 5: try database.removeValue(at: "g/\(key)")
        case 6: try database.setValue(.number(Double(Int.random(in: 0...6, using: &random))), at: "g/\(key)/t")
        case 7:
            var update: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 1...3, using: &random) { update[keys[Int.random(in: 0..<keys.count, using: &random)]] = randomValue(&random) }
            try database.updateChildValues(update, at: "g")
        case 8: try database.setValue(randomGroup(&random), at: "g")
        case 9: try database.updateChildValues(["g/\(key)": randomValue(&random), "other": 1], at: "/")
        case 10: try database.setValue(["g": randomGroup(&random), "other": 2], at: "/")
        default: try database.setValue(randomValue(&random), at: "elsewhere/\(key)")
        }
    }

    private static func queries(_ database: InMemoryRealtimeDatabase) -> [RealtimeDatabaseQuery] {
        let g = database.query(at: "g")
        return [
            g,
            g.limited(toLast: 3),
            g.orderedByKey().limited(toFirst: 2),
            g.orderedByKey().starting(at: "2").ending(at: "d"),
            g.orderedByValue(),
            g.orderedByValue().limited(toLast: 4),
            g.orderedByValue().starting(at: 0).ending(at: "y"),
            g.ordered(byChild: "t"),
            g.ordered(byChild: "t").limited(toLast: 2),
            g.ordered(byChild: "t").limited(toFirst: 3).starting(after: 1),
            g.ordered(byChild: "t").starting(at: 2, childKey: "c").ending(before: 5),
            g.ordered(byChild: "t").equal(to: 3),
            g.ordered(byChild: "s").limited(toLast: 2),
        ]
    }

    func testIncrementalChildEventsMatchTheFullEvaluationForRandomWrites() throws {
        for seed in UInt64(1)...8 {
            try checkSeed(seed, writes: 100)
        }
    }

    private func checkSeed(_ seed: UInt64, writes: Int) throws {
        try XCTAssertNoLeaks {
            var random = DeterministicRandom(seed: seed)
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["g": Self.randomGroup(&random)], at: "/")
            let reference = ClientSideQueries(base: database)
            let queries = Self.queries(database)
            let incremental = queries.map { _ in scheduler.createObserver(RealtimeDatabaseChildEvent.self) }
            let full = queries.map { _ in scheduler.createObserver(RealtimeDatabaseChildEvent.self) }
            let incrementalChildren = queries.map { _ in scheduler.createObserver([String].self) }
            let fullChildren = queries.map { _ in scheduler.createObserver([String].self) }
            let incrementalValues = queries.map { _ in scheduler.createObserver(JSONValue.self) }
            let fullValues = queries.map { _ in scheduler.createObserver(JSONValue.self) }
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(100) {
                for (index, query) in queries.enumerated() {
                    subscriptions.append(database.observeChildEvents(of: query).subscribe(incremental[index]))
                    subscriptions.append(reference.observeChildEvents(of: query).subscribe(full[index]))
                    subscriptions.append(database.observeChildren(of: query).map { $0.map(\.key) }.subscribe(incrementalChildren[index]))
                    subscriptions.append(reference.observeChildren(of: query).map { $0.map(\.key) }.subscribe(fullChildren[index]))
                    subscriptions.append(database.observeValue(of: query).subscribe(incrementalValues[index]))
                    subscriptions.append(reference.observeValue(of: query).subscribe(fullValues[index]))
                }
            }
            var failures: [String] = []
            for step in 0..<writes {
                scheduler.scheduleAt(TestTime(200 + 10 * step)) {
                    do { try Self.randomWrite(&random, on: database) } catch { failures.append("\(error)") }
                }
            }
            scheduler.scheduleAt(TestTime(300 + 10 * writes)) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(failures, [], "seed \(seed)")
            for (index, query) in queries.enumerated() {
                XCTAssertEqual(incremental[index].events, full[index].events, "seed \(seed): child events of \(query)")
                XCTAssertEqual(incrementalChildren[index].events, fullChildren[index].events, "seed \(seed): children of \(query)")
                XCTAssertEqual(incrementalValues[index].events, fullValues[index].events, "seed \(seed): value of \(query)")
                XCTAssertFalse(full[index].events.isEmpty, "seed \(seed): \(query) saw nothing")
            }
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    /// A chat group with a long history: a new comment ordered by time is one `.removed` and
    /// one `.added` for a `limited(toLast:)` window, and the window keeps its order.
    func testLongHistory_aNewCommentMovesTheWindowByOne() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            var history: [String: JSONValue] = [:]
            for index in 0..<10_000 { history[String(format: "c%05d", index)] = ["time": .number(Double(index)), "text": "old"] }
            try database.setValue(.object(history), at: "g")
            let latest = database.query(at: "g").ordered(byChild: "time").limited(toLast: 3)
            scheduler.scheduleAt(300) { try? database.setValue(["time": 10_000, "text": "new"], at: "g/c10000") }
            scheduler.scheduleAt(400) { try? database.setValue("edited", at: "g/c09998/text") }
            let res = scheduler.start { database.observeChildEvents(of: latest).map(\.description) }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, #"added c09997 first: {"text":"old","time":9997}"#),
                    .next(201, #"added c09998 after c09997: {"text":"old","time":9998}"#),
                    .next(201, #"added c09999 after c09998: {"text":"old","time":9999}"#),
                    .next(301, #"removed c09997: {"text":"old","time":9997}"#),
                    .next(301, #"added c10000 after c09999: {"text":"new","time":10000}"#),
                    .next(401, #"changed c09998 first: {"text":"edited","time":9998}"#),
                ])
        }
    }

    func testInvalidQueryFailsOnTheScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let invalid = database.query(at: "g").limited(toFirst: 1).limited(toLast: 1)
            let res = scheduler.start { database.observeChildEvents(of: invalid).map(\.key) }
            guard case .error(let error)? = res.events.first?.value, res.events.first?.time == 201 else {
                return XCTFail("expected a failure at 201, got \(res.events)")
            }
            guard case RealtimeDatabaseError.invalidQuery = error else { return XCTFail("\(error)") }
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }
}
