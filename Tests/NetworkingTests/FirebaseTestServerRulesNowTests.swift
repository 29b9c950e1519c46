import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import XCTest

/// One write reads the server's database clock once: the rules' `now` and the server timestamp
/// the write stores are the same instant, in whole milliseconds rounded down (Firebase's).
///
/// The clock is the package hook `setDatabaseClock(_:)`, here one that moves on by 0.7 ms on
/// every read: had the rules and the store each read it, they would differ.
final class FirebaseTestServerRulesNowTests: FirebaseTestServerTestCase {
    /// A clock that hands out `start`, `start + step`, … and remembers what it handed out.
    private final class TickingClock: Sendable {
        let reads = LockedState<[Date]>([])
        private let start: TimeInterval
        private let step: TimeInterval

        init(start: TimeInterval, step: TimeInterval) {
            self.start = start
            self.step = step
        }

        func read() -> Date {
            reads.withLock { reads in
                let date = Date(timeIntervalSince1970: start + step * Double(reads.count))
                reads.append(date)
                return date
            }
        }
    }

    private static let rules = """
        {"rules": {"stamped": {".write": "newData.child('t').val() === now", ".read": true}}}
        """

    /// `date` as a server timestamp: whole milliseconds, rounded down.
    private func milliseconds(_ date: Date) -> JSONValue {
        .number((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }

    func testServerTimestamp_isTheNowTheRulesChecked() throws {
        // 0.4 ms past a whole millisecond: the stored value is rounded down.
        try server.setDatabaseRules(Self.rules)
        let clock = TickingClock(start: 1_700_000_000.0004, step: 0.0007)
        server.setDatabaseClock { clock.read() }

        for attempt in 0..<5 {
            let before = clock.reads.withLock { $0.count }
            let put = try client.send("PUT", server.databaseURL("/stamped"), json: ["t": [".sv": "timestamp"], "n": .number(Double(attempt))])
            XCTAssertEqual(put.status, 200, "the rule saw t === now: \(put.text)")
            let read = clock.reads.withLock { Array($0.dropFirst(before)) }
            XCTAssertEqual(read.count, 1, "one write, one clock read")
            let stored = try server.databaseValue(at: "stamped/t")
            XCTAssertEqual(stored, milliseconds(try XCTUnwrap(read.first)), "attempt \(attempt)")
            XCTAssertEqual(put.json?["t"], stored, "the answer shows the stored value")
        }
        XCTAssertEqual(try server.databaseValue(at: "stamped/t"), .number(1_700_000_000_003), "the fifth read: 0.4 + 4 × 0.7 ms, rounded down")

        // A client's own `t` that is not `now`: denied, nothing stored.
        let denied = try client.send("PUT", server.databaseURL("/stamped"), json: ["t": 1_700_000_000_004])
        XCTAssertEqual(denied.status, 401, "its now is 1_700_000_000_003 (0.4 + 5 × 0.7 ms): \(denied.text)")
        XCTAssertEqual(try server.databaseValue(at: "stamped/n"), 4)
    }

    func testServerTimestamp_theSwiftAPIReadsTheClockOncePerWrite() throws {
        let clock = TickingClock(start: 1_700_000_000.0009, step: 0.0007)
        server.setDatabaseClock { clock.read() }
        try server.setDatabaseValue(["t": [".sv": "timestamp"]], at: "stamped")
        try server.updateDatabaseChildren(["u": [".sv": "timestamp"]], at: "stamped")
        let reads = clock.reads.withLock { $0 }
        XCTAssertEqual(reads.count, 2)
        XCTAssertEqual(try server.databaseValue(at: "stamped/t"), .number(1_700_000_000_000))
        XCTAssertEqual(try server.databaseValue(at: "stamped/u"), .number(1_700_000_000_001))
    }
}
