import XCTest
import ConfigFeatures
import Streams
import StreamsTest

final class RealtimeDatabasePathTests: XCTestCase {
    func testRealtimeDatabasePath_normalizesLeadingAndTrailingSlashes() throws {
        XCTAssertEqual(try RealtimeDatabasePath("").segments, [])
        XCTAssertEqual(try RealtimeDatabasePath("/").segments, [])
        XCTAssertEqual(try RealtimeDatabasePath("a").segments, ["a"])
        XCTAssertEqual(try RealtimeDatabasePath("/a/b").segments, ["a", "b"])
        XCTAssertEqual(try RealtimeDatabasePath("a/b/").segments, ["a", "b"])
        XCTAssertEqual(try RealtimeDatabasePath("/a/b/"), try RealtimeDatabasePath("a/b"))
        XCTAssertEqual(try RealtimeDatabasePath("/Groups/group0").description, "/Groups/group0")
        XCTAssertEqual(RealtimeDatabasePath.root.description, "/")
        XCTAssertTrue(try RealtimeDatabasePath("/").isRoot)
    }

    func testRealtimeDatabasePath_acceptsUnicodeSpacesAndDashes() throws {
        XCTAssertEqual(try RealtimeDatabasePath("ユーザー/😀 x/-Nabc_123").segments, ["ユーザー", "😀 x", "-Nabc_123"])
        XCTAssertEqual(try RealtimeDatabasePath(String(repeating: "k", count: 768)).segments.count, 1)
    }

    func testRealtimeDatabasePath_navigation() throws {
        let path = try RealtimeDatabasePath("Groups/group0")
        XCTAssertEqual(path.key, "group0")
        XCTAssertEqual(path.parent, try RealtimeDatabasePath("Groups"))
        XCTAssertEqual(RealtimeDatabasePath.root.parent, nil)
        XCTAssertEqual(RealtimeDatabasePath.root.key, nil)
        XCTAssertEqual(try path.child("1/text").segments, ["Groups", "group0", "1", "text"])
        XCTAssertTrue(path.isAncestor(ofOrEqualTo: try path.child("1")))
        XCTAssertTrue(path.isAncestor(ofOrEqualTo: path))
        XCTAssertFalse(try path.child("1").isAncestor(ofOrEqualTo: path))
        XCTAssertFalse(try RealtimeDatabasePath("Groups/group").isAncestor(ofOrEqualTo: path))
        XCTAssertThrowsError(try path.child("a//b")) { error in
            XCTAssertEqual(error as? RealtimeDatabaseError, .invalidPath("a//b", reason: "empty segment"))
        }
    }

    func testRealtimeDatabasePath_rejectsEmptySegments() {
        for bad in ["a//b", "//", "///", "//a", "a//", "/a//b/"] {
            XCTAssertThrowsError(try RealtimeDatabasePath(bad), bad) { error in
                XCTAssertEqual(error as? RealtimeDatabaseError, .invalidPath(bad, reason: "empty segment"), bad)
            }
        }
    }

    func testRealtimeDatabasePath_rejectsEachForbiddenCharacter() {
        for character in [".", "#", "$", "[", "]"] {
            let bad = "Groups/a\(character)b"
            XCTAssertThrowsError(try RealtimeDatabasePath(bad), bad) { error in
                XCTAssertEqual(error as? RealtimeDatabaseError, .invalidPath(bad, reason: "segment \"a\(character)b\" contains \"\(character)\""))
            }
        }
    }

    func testRealtimeDatabasePath_rejectsControlCharacters() {
        let cases: [(String, String)] = [("\u{0}", "0000"), ("\n", "000A"), ("\u{1F}", "001F"), ("\u{7F}", "007F")]
        for (character, code) in cases {
            let bad = "a/x\(character)"
            XCTAssertThrowsError(try RealtimeDatabasePath(bad)) { error in
                XCTAssertEqual(error as? RealtimeDatabaseError, .invalidPath(bad, reason: "segment contains the control character U+\(code)"))
            }
        }
    }

    func testRealtimeDatabasePath_rejectsOverlongKeys() {
        let bad = String(repeating: "k", count: 769)
        XCTAssertThrowsError(try RealtimeDatabasePath(bad)) { error in
            XCTAssertEqual(error as? RealtimeDatabaseError, .keyTooLong(bytes: 769, limit: 768))
        }
    }

    func testRealtimeDatabaseError_descriptions() {
        XCTAssertEqual(RealtimeDatabaseError.invalidPath("a.b", reason: "r").description, "Invalid Realtime Database path \"a.b\": r")
        XCTAssertEqual(RealtimeDatabaseError.invalidValue(path: "/a", reason: "r").description, "Invalid Realtime Database value at \"/a\": r")
        XCTAssertEqual(RealtimeDatabaseError.invalidUpdate(path: "a", reason: "r").description, "Invalid Realtime Database update at \"a\": r")
    }

    // MARK: - Bad paths through the database APIs

    private let badPaths: [(path: String, reason: String)] = [
        ("a//b", "empty segment"),
        ("a.b", "segment \"a.b\" contains \".\""),
        ("a/#", "segment \"#\" contains \"#\""),
        ("$a", "segment \"$a\" contains \"$\""),
        ("a[0]", "segment \"a[0]\" contains \"[\""),
        ("a]", "segment \"a]\" contains \"]\""),
        ("a\tb", "segment contains the control character U+0009"),
    ]

    func testInMemoryRealtimeDatabase_synchronousAPIsThrowTypedErrorsForBadPaths() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            for (path, reason) in badPaths {
                let expected = RealtimeDatabaseError.invalidPath(path, reason: reason)
                XCTAssertThrowsError(try database.setValue(1, at: path)) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
                XCTAssertThrowsError(try database.updateChildValues(["x": 1], at: path)) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
                XCTAssertThrowsError(try database.updateChildValues([path: 1], at: "ok")) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
                XCTAssertThrowsError(try database.removeValue(at: path)) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
                XCTAssertThrowsError(try database.push(1, at: path)) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
                XCTAssertThrowsError(try database.value(at: path)) { XCTAssertEqual($0 as? RealtimeDatabaseError, expected) }
            }
            XCTAssertEqual(try database.value(at: "/"), .null, "nothing was written")
            XCTAssertEqual(scheduler.pendingCount, 0, "nothing was notified")
        }
    }

    func testInMemoryRealtimeDatabase_observableAPIsEmitTypedErrorsForBadPaths() throws {
        try XCTAssertNoLeaks {
            for (path, reason) in badPaths {
                let expected = RealtimeDatabaseError.invalidPath(path, reason: reason)
                let scheduler = TestScheduler(initialClock: 0)
                let inMemory = InMemoryRealtimeDatabase(scheduler: scheduler)
                let database: RealtimeDatabase = inMemory
                let observed = scheduler.start { database.observeValue(at: path) }
                XCTAssertEqual(observed.events, [.error(201, expected)], path)

                let read = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { database.getValue(at: path) }
                XCTAssertEqual(read.events, [.error(1201, expected)], path)

                let writes: [Observable<String>] = [
                    database.setValue(1, at: path).map { "set" },
                    database.updateChildValues(["x": 1], at: path).map { "update" },
                    database.updateChildValues([path: 1], at: "ok").map { "update key" },
                    database.removeValue(at: path).map { "remove" },
                    database.push(1, at: path),
                ]
                for (offset, write) in writes.enumerated() {
                    let base = 3000 + offset * 1000
                    let result = scheduler.start(created: base, subscribed: base + 100, disposed: base + 900) { write }
                    XCTAssertEqual(result.events, [.error(base + 101, expected)], "\(path) write \(offset)")
                }
                XCTAssertEqual(try inMemory.value(at: "/"), .null)
            }
        }
    }

    func testInMemoryRealtimeDatabase_rejectsInvalidValues() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            XCTAssertThrowsError(try database.setValue(.number(.nan), at: "a/b")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a/b", reason: "nan is not a finite number"))
            }
            XCTAssertThrowsError(try database.setValue(["x": [1, .number(.infinity)]], at: "a")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a/x/1", reason: "inf is not a finite number"))
            }
            XCTAssertThrowsError(try database.setValue(["ok": ["b/c": 1]], at: "a")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a/ok", reason: "invalid key: key \"b/c\" contains \"/\""))
            }
            XCTAssertThrowsError(try database.setValue(["a.b": 1], at: "/")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/", reason: "invalid key: segment \"a.b\" contains \".\""))
            }
            XCTAssertThrowsError(try database.setValue(["": 1], at: "a")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a", reason: "invalid key: empty segment"))
            }
            XCTAssertThrowsError(try database.updateChildValues(["x": 1, "y": .number(.nan)], at: "a")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a/y", reason: "nan is not a finite number"))
            }
            XCTAssertThrowsError(try database.push(["$key": 1], at: "a")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidValue(path: "/a", reason: "invalid key: segment \"$key\" contains \"$\""))
            }
            XCTAssertEqual(try database.value(at: "/"), .null, "an invalid write writes nothing, not even its valid parts")

            let result = scheduler.start { database.setValue(.number(.nan), at: "n").map { "done" } }
            XCTAssertEqual(result.events, [.error(201, RealtimeDatabaseError.invalidValue(path: "/n", reason: "nan is not a finite number"))])
        }
    }

    func testInMemoryRealtimeDatabase_rejectsMalformedUpdates() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["a": 1], at: "root")
            XCTAssertThrowsError(try database.updateChildValues(["a": 1, "a/b": 2], at: "root")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "root", reason: "\"/root/a\" overlaps \"/root/a/b\""))
            }
            XCTAssertThrowsError(try database.updateChildValues(["x/y": 1, "z": 3, "/x/y/": 2], at: "root")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "root", reason: "\"/root/x/y\" overlaps \"/root/x/y\""))
            }
            XCTAssertThrowsError(try database.updateChildValues(["": 1], at: "root")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "root", reason: "empty key"))
            }
            XCTAssertThrowsError(try database.updateChildValues(["/": 1], at: "root")) {
                XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "root", reason: "empty key"))
            }
            XCTAssertEqual(try database.value(at: "root"), ["a": 1])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }
}
