@testable import ConfigFeatures
import Foundation
import XCTest

/// The files under LocalFirstRealtimeDatabase's persistence: the record format and its bounds.
final class LocalFirstStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("LocalFirstStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testCRC32_matchesTheStandardCheckValue() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([UInt8]()), 0)
    }

    func testRecordLog_roundTripsRecordsAndAppends() throws {
        let log = RecordLog(url: directory.appendingPathComponent("writes.log"), kind: "writes")
        XCTAssertNil(try log.read())
        try log.rewrite([Array("one".utf8)])
        try log.append([Array("two".utf8), []], sync: true)
        let contents = try XCTUnwrap(try log.read())
        XCTAssertEqual(contents.records.map { String(decoding: $0.payload, as: UTF8.self) }, ["one", "two", ""])
        XCTAssertEqual(contents.records.map(\.offset), [33, 48, 63])
        XCTAssertFalse(contents.hasTornTail)
    }

    /// Records whose checksums hold but whose content is not what this library writes (another
    /// program, or a bug) are typed errors too, never a trap.
    func testWellFormedRecordsWithBadContent_areCorruptNotACrash() throws {
        let bad = [
            #"{"done": -1}"#, #"{"done": 1e30}"#, #"{"add": 0.5, "at": 0, "path": "x", "set": 1}"#, #"{"add": 0, "at": 0, "path": "a//b", "set": 1}"#, "[1]",
            "not json",
        ]
        for payload in bad {
            let log = RecordLog(url: directory.appendingPathComponent("writes.log"), kind: "writes")
            try log.rewrite([Array(payload.utf8)])
            let contents = try XCTUnwrap(try log.read())
            XCTAssertThrowsError(try PersistedWriteQueue.restore(contents, path: log.url.path, limits: .firebase), payload) { error in
                guard case .corrupt(_, 33, _)? = error as? RealtimeDatabasePersistenceError else { return XCTFail("\(payload): \(error)") }
            }
        }
        for payload in [#"{"put": "/a", "used": -3, "value": 1}"#, #"{"put": 1, "value": 1}"#, #"{"put": "/a"}"#, #"{"other": "/a"}"#] {
            let log = RecordLog(url: directory.appendingPathComponent("cache.log"), kind: "cache")
            try log.rewrite([Array(payload.utf8)])
            var cache = PersistedCache(log: log, maximumSize: 1000)
            let contents = try XCTUnwrap(try log.read())
            if payload.contains("-3") {
                try cache.restore(contents, limits: .firebase)  // an unusable stamp only orders eviction
                XCTAssertTrue(cache.isComplete(try RealtimeDatabasePath("a/b")))
                continue
            }
            XCTAssertThrowsError(try cache.restore(contents, limits: .firebase), payload)
        }
    }

    func testCacheFile_staysUnderTwiceItsLiveBytes() throws {
        let log = RecordLog(url: directory.appendingPathComponent("cache.log"), kind: "cache")
        var cache = PersistedCache(log: log, maximumSize: 100_000)
        try cache.start()
        let location = try RealtimeDatabasePath("feed")
        var largest = 0
        for index in 0..<2_000 {
            try cache.put(["n": .number(Double(index)), "text": .string(String(repeating: "x", count: 200))], at: location)
            largest = max(largest, try Data(contentsOf: log.url).count)
        }
        let live = try XCTUnwrap(cache.entries[location]?.size)
        XCTAssertLessThan(largest, 2 * live + 4096 + 2 * 300, "compacted as it goes")
        // Read back: one entry, the last value.
        var reread = PersistedCache(log: RecordLog(url: log.url, kind: "cache"), maximumSize: 100_000)
        try reread.restore(try XCTUnwrap(try log.read()), limits: .firebase)
        XCTAssertEqual(reread.ordered.map(\.value), [["n": 1999, "text": .string(String(repeating: "x", count: 200))]])
    }

    func testUnchangedServerValue_appendsNothing() throws {
        let log = RecordLog(url: directory.appendingPathComponent("cache.log"), kind: "cache")
        var cache = PersistedCache(log: log, maximumSize: 100_000)
        try cache.start()
        let location = try RealtimeDatabasePath("a")
        try cache.put(["x": 1], at: location)
        let size = try Data(contentsOf: log.url).count
        try cache.put(["x": 1], at: location)
        XCTAssertEqual(try Data(contentsOf: log.url).count, size)
    }
}
