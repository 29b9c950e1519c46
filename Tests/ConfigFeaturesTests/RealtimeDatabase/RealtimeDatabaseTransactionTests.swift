import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Transactions and server values on the in-memory database.
final class RealtimeDatabaseTransactionTests: XCTestCase {
    func testServerValues_timestampFromTheSchedulersClock_incrementFromTheStoredValue() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(["text": "hi", "time": RealtimeDatabaseServerValue.timestamp], at: "g/c1")
            let millis = (scheduler.now.timeIntervalSince1970 * 1000).rounded(.down)
            XCTAssertEqual(try database.value(at: "g/c1"), ["text": "hi", "time": .number(millis)])

            try database.setValue(RealtimeDatabaseServerValue.increment(2), at: "n")
            XCTAssertEqual(try database.value(at: "n"), 2, "nothing stored: the delta")
            try database.setValue(RealtimeDatabaseServerValue.increment(3), at: "n")
            XCTAssertEqual(try database.value(at: "n"), 5)
            try database.setValue("text", at: "s")
            try database.setValue(RealtimeDatabaseServerValue.increment(1), at: "s")
            XCTAssertEqual(try database.value(at: "s"), 1, "not a number: the delta")
            try database.updateChildValues(["a": RealtimeDatabaseServerValue.increment(1), "b/c": RealtimeDatabaseServerValue.increment(-1)], at: "counts")
            try database.updateChildValues(["a": RealtimeDatabaseServerValue.increment(1)], at: "counts")
            XCTAssertEqual(try database.value(at: "counts"), ["a": 2, "b": ["c": -1]])
            let key = try database.push(["at": RealtimeDatabaseServerValue.timestamp], at: "log")
            XCTAssertEqual(try database.value(at: "log/\(key)/at"), .number(millis))
        }
    }

    func testServerValues_unknownPlaceholdersAreInvalid() {
        let database = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))
        for value: JSONValue in [[".sv": "now"], [".sv": ["increment": "1"]], [".sv": ["increment": 1, "x": 2]]] {
            XCTAssertThrowsError(try database.setValue(["t": value], at: "a")) { error in
                guard case .invalidValue? = error as? RealtimeDatabaseError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(try database.value(at: "a"), .null)
    }

    func testTransaction_commitsAndNotifiesObserversOnTheScheduler() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue(41, at: "n")
            let values = scheduler.createObserver(JSONValue.self)
            let observation = database.observeValue(at: "n").subscribe(values)
            let results = scheduler.createObserver(RealtimeDatabaseTransactionResult.self)
            scheduler.scheduleAt(300) {
                _ = database.runTransaction(at: "n") { current in .number((current.numberValue ?? 0) + 1) }.asObservable().subscribe(results)
            }
            scheduler.start()
            observation.dispose()
            XCTAssertEqual(results.events, [.next(301, RealtimeDatabaseTransactionResult(committed: true, value: 42)), .completed(301)])
            XCTAssertEqual(values.events, [.next(1, 41), .next(301, 42)])
        }
    }

    func testTransaction_abortWritesNothing_andAThrownErrorFails() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            try database.setValue("keep", at: "v")
            let aborted = scheduler.start { database.runTransaction(at: "v") { _ in nil }.asObservable() }
            XCTAssertEqual(aborted.events, [.next(201, RealtimeDatabaseTransactionResult(committed: false, value: "keep")), .completed(201)])
            struct Refused: Error, Equatable {}
            let failed = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) {
                database.runTransaction(at: "v") { _ in throw Refused() }.asObservable()
            }
            XCTAssertEqual(failed.events, [.error(1101, Refused())])
            let invalid = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                database.runTransaction(at: "v") { _ in .number(.infinity) }.asObservable()
            }
            XCTAssertEqual(invalid.events.count, 1)
            XCTAssertEqual(try database.value(at: "v"), "keep")
        }
    }

    func testTransaction_retriesOnAConcurrentWrite_thenGivesUpAfter25Attempts() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let database = InMemoryRealtimeDatabase(scheduler: scheduler)
        try database.setValue(0, at: "n")
        var calls = 0
        // Each run of `update` sees a value another writer changes before the commit.
        let result: RealtimeDatabaseTransactionResult = try database.runTransaction(at: "n") { current in
            calls += 1
            if calls < 3 { try database.setValue(.number(Double(100 + calls)), at: "n") }
            return .number((current.numberValue ?? 0) + 1)
        }
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(result, RealtimeDatabaseTransactionResult(committed: true, value: 103))
        calls = 0
        XCTAssertThrowsError(
            try database.runTransaction(at: "n") { current in
                calls += 1
                try database.setValue(.number(Double(calls)), at: "n")
                return "never stored"
            } as RealtimeDatabaseTransactionResult
        ) { error in
            XCTAssertEqual(error as? RealtimeDatabaseError, .transactionRetriesExhausted(path: "n", attempts: 25))
        }
        XCTAssertEqual(calls, 25)
        XCTAssertEqual(try database.value(at: "n"), 25)
    }

    func testConcurrentTransactionsAndIncrementsFromSeveralThreadsNeverLoseOne() throws {
        let database = InMemoryRealtimeDatabase(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let threads = 4
        let perThread = 250
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for _ in 0..<perThread {
                do {
                    if thread % 2 == 0 {
                        // Under heavy contention (a slow, sanitized build) a transaction may lose
                        // 25 races in a row and give up, as Firebase's do: nothing was written
                        // then, so the test runs it again, as an app would.
                        while true {
                            do {
                                let result: RealtimeDatabaseTransactionResult = try database.runTransaction(at: "counter") {
                                    .number(($0.numberValue ?? 0) + 1)
                                }
                                XCTAssertTrue(result.committed)
                                break
                            } catch RealtimeDatabaseError.transactionRetriesExhausted {
                                continue
                            }
                        }
                    } else {
                        try database.setValue(RealtimeDatabaseServerValue.increment(1), at: "counter")
                    }
                } catch {
                    XCTFail("\(error)")
                }
            }
        }
        XCTAssertEqual(try database.value(at: "counter"), .number(Double(threads * perThread)))
    }
}
