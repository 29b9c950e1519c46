import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// Issue 17: deep paths and data (local and from the server), Firebase's limits, keys that
/// start with a combining mark, and writes under one large node.
final class RealtimeDatabaseLimitsTests: XCTestCase {
    private static func deepPath(_ depth: Int) -> String {
        "/" + Array(repeating: "k", count: depth).joined(separator: "/")
    }

    /// `["k": ["k": … 1]]`, `depth` objects deep.
    private static func deepValue(_ depth: Int) -> JSONValue {
        var value: JSONValue = 1
        for _ in 0..<depth { value = ["k": value] }
        return value
    }

    /// The JSON text of `deepValue(depth)`, built as text: releasing a `JSONValue` recurses
    /// once per level in the standard library, so tests never build one 100,000 levels deep.
    private static func deepText(_ depth: Int) -> String {
        String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    // MARK: - Server data (the crash of issue 17)

    func testObserve_serverPutWithAHundredThousandSegmentPathFailsTypedOnASmallStack() {
        // Before: RealtimeDatabaseTree.setting recursed once per segment and overflowed the
        // stack (SIGSEGV) at ~1,700 segments on a 512 KiB stack.
        let events = onSmallStack { () -> [Recorded<Event<JSONValue>>] in
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = FirebaseRESTDatabase(databaseURL: URL(string: "https://db.test")!, scheduler: scheduler, randomSource: { 0.5 }, transport: transport)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", ["a": 1]) + ssePut(Self.deepPath(100_000), 1))
            }
            return scheduler.start { db.observeValue(at: "x") }.events
        }
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.first, .next(301, ["a": 1]))
        XCTAssertEqual(events.last?.value.error as? RealtimeDatabaseError, .pathTooDeep(depth: 100_001, limit: 32))
    }

    func testObserve_serverDataPastTheLimitsFailsWithTheWriteError() {
        func firstError(at location: String, _ chunk: String, limits: RealtimeDatabaseLimits = .firebase) -> RealtimeDatabaseError? {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = FirebaseRESTDatabase(
                databaseURL: URL(string: "https://db.test")!, scheduler: scheduler, randomSource: { 0.5 }, limits: limits, transport: transport)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(chunk)
            }
            return scheduler.start { db.observeValue(at: location) }.events.last?.value.error as? RealtimeDatabaseError
        }
        // The streamed location counts: 30 + 2 is fine, 30 + 3 is not.
        let location = Self.deepPath(30)
        XCTAssertNil(firstError(at: location, ssePut("/a", ["b": 1])))
        XCTAssertEqual(firstError(at: location, ssePut("/a/b", ["c": 1])), .pathTooDeep(depth: 33, limit: 32))
        XCTAssertEqual(firstError(at: location, ssePatch("/a", ["b/c": ["d": 1]])), .pathTooDeep(depth: 33, limit: 32))
        // Data nested far past the limit stops at the parser (no deep tree is ever built).
        let deepPut = "event: put\ndata: {\"path\":\"/\",\"data\":\(Self.deepText(100_000))}\n\n"
        XCTAssertEqual(firstError(at: "/", deepPut), .pathTooDeep(depth: 33, limit: 32))
        XCTAssertEqual(firstError(at: "/", ssePut("/", [String(repeating: "x", count: 769): 1])), .keyTooLong(bytes: 769, limit: 768))
        XCTAssertEqual(firstError(at: "/", ssePut("/" + String(repeating: "x", count: 769), 1)), .keyTooLong(bytes: 769, limit: 768))
        // Configurable.
        XCTAssertEqual(firstError(at: "/", ssePut("/a/b", 1), limits: RealtimeDatabaseLimits(maximumDepth: 1)), .pathTooDeep(depth: 2, limit: 1))
    }

    func testGetValue_serverDataPastTheDepthLimitFailsTyped() {
        func result(at path: String, _ body: String) -> Event<JSONValue>? {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = FirebaseRESTDatabase(databaseURL: URL(string: "https://db.test")!, scheduler: scheduler, randomSource: { 0.5 }, transport: transport)
            transport.reply(.status(200, body))
            return scheduler.start { db.getValue(at: path) }.events.first?.value
        }
        XCTAssertEqual(result(at: "/", Self.deepText(32))?.element, Self.deepValue(32))
        XCTAssertEqual(result(at: "/", Self.deepText(33))?.error as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        XCTAssertEqual(result(at: "/k", Self.deepText(32))?.error as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        XCTAssertEqual(result(at: "/k", Self.deepText(31))?.element, Self.deepValue(31))
        XCTAssertEqual(result(at: "/", Self.deepText(100_000))?.error as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        // A body cut short: the parser meets the nesting limit before the end (the fuzzer's
        // finding `finding-truncated-deep-groups`), a shallow one is an invalid response.
        let truncatedDeep = #"{"Groups":"# + String(repeating: "[", count: 34)
        XCTAssertEqual(result(at: "/", truncatedDeep)?.error as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        guard case .invalidResponse? = result(at: "/", #"{"Groups":[[["#)?.error as? FirebaseRESTDatabaseError else {
            return XCTFail("a truncated shallow body is an invalid response")
        }
    }

    // MARK: - Local writes and reads

    func testInMemory_pathsAndValuesAreCheckedAgainstTheLimits() throws {
        let db = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))
        try db.setValue(1, at: Self.deepPath(32))
        XCTAssertEqual(try db.value(at: Self.deepPath(32)), 1)
        XCTAssertThrowsError(try db.setValue(1, at: Self.deepPath(33))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        }
        XCTAssertThrowsError(try db.value(at: Self.deepPath(100_000))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 100_000, limit: 32))
        }
        XCTAssertThrowsError(try db.setValue(Self.deepValue(3), at: Self.deepPath(30))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        }
        XCTAssertThrowsError(try db.updateChildValues(["a/b": Self.deepValue(1)], at: Self.deepPath(30))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        }
        XCTAssertThrowsError(try db.push(1, at: Self.deepPath(32))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 33, limit: 32))
        }
        XCTAssertThrowsError(try db.setValue(["k": [String(repeating: "é", count: 385): 1]], at: "a")) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .keyTooLong(bytes: 770, limit: 768))
        }
        XCTAssertEqual(try db.value(at: "/"), Self.deepValue(32), "nothing else was written")

    }

    func testInMemory_observingADeepPathFailsTyped() {
        let scheduler = TestScheduler(initialClock: 0)
        let db = InMemoryRealtimeDatabase(scheduler: scheduler)
        let res = scheduler.start { db.observeValue(at: Self.deepPath(40)) }
        XCTAssertEqual(res.events.first?.value.error as? RealtimeDatabaseError, .pathTooDeep(depth: 40, limit: 32))
    }

    func testInMemory_limitsAreConfigurable() throws {
        let db = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0), limits: RealtimeDatabaseLimits(maximumDepth: 2, maximumKeyLength: 3))
        try db.setValue(["b": 1], at: "a")
        XCTAssertThrowsError(try db.setValue(["b": ["c": 1]], at: "a")) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .pathTooDeep(depth: 3, limit: 2))
        }
        XCTAssertThrowsError(try db.setValue(1, at: "abcd")) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .keyTooLong(bytes: 4, limit: 3))
        }
    }

    func testWrites_deepValuesUseAConstantStack() {
        // Normalizing, storing, reading and comparing a value at the limit, and rejecting one
        // 100,000 levels deep, all on a small stack.
        let outcome = onSmallStack { () -> String in
            let db = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0), limits: RealtimeDatabaseLimits(maximumDepth: 512))
            do {
                try db.setValue(Self.deepValue(511), at: "a")
                guard try db.value(at: "a") == Self.deepValue(511) else { return "read differently" }
                try db.removeValue(at: "a" + Self.deepPath(511))
                guard try db.value(at: "/") == .null else { return "not pruned" }
            } catch {
                return "\(error)"
            }
            do {
                try db.setValue(JSONValue(parsing: Self.deepText(600), maximumDepth: 600), at: "a")
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(outcome, "\(RealtimeDatabaseError.pathTooDeep(depth: 513, limit: 512))")
    }

    // MARK: - Keys that start with a combining mark (issue 17, item 3)

    func testInMemory_keyStartingWithACombiningMarkIsReadableAfterAWrite() throws {
        // Before: the path was split on Characters, and "/" + U+0301 is one Character, so
        // "a/\u{301}x" was one segment containing "/" and was rejected.
        let db = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))
        try db.setValue(["\u{0301}x": 1, "y\u{0301}": 2], at: "a")
        XCTAssertEqual(try db.value(at: "a/\u{0301}x"), 1)
        XCTAssertEqual(try db.value(at: "/a/\u{0301}x/"), 1)
        XCTAssertEqual(try db.value(at: "a/y\u{0301}"), 2)
        try db.setValue(3, at: "\u{0301}/\u{0301}")
        XCTAssertEqual(try db.value(at: "\u{0301}"), ["\u{0301}": 3])
        XCTAssertEqual(try RealtimeDatabasePath("\u{0301}a/\u{0301}b").segments, ["\u{0301}a", "\u{0301}b"])
        XCTAssertEqual(try RealtimeDatabasePath("/\u{0301}").segments, ["\u{0301}"])
        XCTAssertEqual(try RealtimeDatabasePath("/a/").child("\u{0301}b/c").segments, ["a", "\u{0301}b", "c"])
        XCTAssertThrowsError(try RealtimeDatabasePath("a//\u{0301}"))
    }

    // MARK: - Many children under one node (issue 17, item 2b)

    func testInMemory_manyChildWritesUnderOneNodeKeepEveryChild() throws {
        // Before: each write copied the node (the old root was kept for the observer diff, and
        // containers were copied on the way down), so 20,000 writes took 4.9 s in a debug
        // build; now 0.27 s. No timing is asserted: this checks the result of the in-place path.
        let scheduler = TestScheduler(initialClock: 0)
        let db = InMemoryRealtimeDatabase(scheduler: scheduler)
        let observed = scheduler.createObserver(JSONValue.self)
        let subscription = db.observeValue(at: "items/k7").subscribe(observed)
        scheduler.advanceTo(1)
        for i in 0..<5_000 { try db.setValue(.number(Double(i)), at: "items/k\(i)") }
        try db.updateChildValues(["k1": nil, "k7": "seven"], at: "items")
        try db.setValue(["x": 1], at: "items/list/0")
        try db.setValue(2, at: "items/list/1")
        scheduler.advanceTo(10)
        subscription.dispose()
        let items = try XCTUnwrap(try db.value(at: "items").objectValue)
        XCTAssertEqual(items.count, 5_000)
        XCTAssertNil(items["k1"])
        XCTAssertEqual(items["k4999"], 4999)
        XCTAssertEqual(items["list"], ["0": ["x": 1], "1": 2], "a new node below an absent one is an object")
        XCTAssertEqual(observed.events.map(\.value.element), [.null, 7, "seven"])
    }
}
