import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// A thread-safe list of received values that also detects overlapping `onNext` calls.
private final class Recorder: @unchecked Sendable {
    // Safety: `values` and `inside` are only accessed under their locks.
    private let values = LockedState<[JSONValue]>([])
    private let inside = LockedState(false)
    private let overlaps = LockedState(0)

    var all: [JSONValue] { values.withLock { $0 } }
    var overlapCount: Int { overlaps.withLock { $0 } }

    func append(_ value: JSONValue) {
        let entered = inside.withLock { inside -> Bool in
            defer { inside = true }
            return !inside
        }
        if !entered { overlaps.withLock { $0 += 1 } }
        values.withLock { $0.append(value) }
        if entered { inside.withLock { $0 = false } }
    }
}

/// Numbers as `Int`, `.null` as -1 (the value before the first write).
private func counter(_ value: JSONValue) -> Int {
    value.numberValue.map { Int($0) } ?? -1
}

final class RealtimeDatabaseStressTests: XCTestCase {
    private static let writers = 4
    private static let writesPerWriter = 300

    /// Writers on several threads, observers subscribing and disposing on others, delivery on a
    /// real serial queue: every observer sees the values of its path in write order, nothing is
    /// lost, and everything is released.
    func testInMemoryRealtimeDatabase_concurrentWritersAndObserversOnASerialScheduler() {
        let writers = Self.writers, writesPerWriter = Self.writesPerWriter
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "rtdb.stress.serial")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let perKey = (0..<writers).map { _ in Recorder() }
            let root = Recorder()
            var subscriptions: [Disposable] = perKey.enumerated().map { index, recorder in
                database.observeValue(at: "keys/k\(index)").subscribe(onNext: { value in
                    dispatchPrecondition(condition: .onQueue(queue))
                    recorder.append(value)
                })
            }
            subscriptions.append(database.observeValue(at: "/").subscribe(onNext: root.append))
            let churned = LockedState<[(key: Int, recorder: Recorder)]>([])

            DispatchQueue.concurrentPerform(iterations: writers + 2) { index in
                if index < writers {
                    for value in 0..<writesPerWriter {
                        do {
                            try database.setValue(.number(Double(value)), at: "keys/k\(index)")
                        } catch {
                            XCTFail("\(error)")
                        }
                    }
                } else {
                    // Observers come and go while the writers run.
                    for round in 0..<60 {
                        let key = (round + index) % writers
                        let recorder = Recorder()
                        let subscription = database.observeValue(at: "keys/k\(key)").subscribe(onNext: recorder.append)
                        for _ in 0..<(round % 7) { _ = try? database.value(at: "keys/k\(key)") }
                        _ = database.activeObserverCount
                        subscription.dispose()
                        churned.withLock { $0.append((key, recorder)) }
                    }
                }
            }
            // Every delivery was scheduled before its write returned: drain them.
            queue.sync {}

            let expected: [JSONValue] = [.null] + (0..<writesPerWriter).map { .number(Double($0)) }
            for recorder in perKey {
                XCTAssertEqual(recorder.all, expected, "each write, in order, exactly once")
                XCTAssertEqual(recorder.overlapCount, 0)
            }
            let snapshots = root.all
            XCTAssertEqual(snapshots.first, .null)
            for key in 0..<writers {
                let counters = snapshots.map { counter($0["keys"]?["k\(key)"] ?? .null) }
                XCTAssertEqual(counters, counters.sorted(), "root snapshots never go back in time")
                XCTAssertEqual(counters.last, writesPerWriter - 1)
            }
            XCTAssertEqual(snapshots.count, 1 + writers * writesPerWriter, "one snapshot per change")
            for (key, recorder) in churned.withLock({ $0 }) {
                let counters = recorder.all.map(counter)
                for (earlier, later) in zip(counters, counters.dropFirst()) {
                    XCTAssertEqual(later, earlier + 1, "k\(key): no value skipped or repeated")
                }
            }

            subscriptions.forEach { $0.dispose() }
            queue.sync {}
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    /// On a concurrent scheduler the delivery actions of one observer may run at the same time;
    /// the database still hands an observer one value at a time, in write order.
    func testInMemoryRealtimeDatabase_concurrentSchedulerNeverOverlapsOrReordersDeliveries() {
        let writers = Self.writers, writesPerWriter = Self.writesPerWriter
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "rtdb.stress.concurrent", attributes: .concurrent)
            let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
            let database = InMemoryRealtimeDatabase(scheduler: scheduler)
            let recorders = (0..<writers).map { _ in Recorder() }
            let subscriptions = recorders.enumerated().map { index, recorder in
                database.observeValue(at: "k\(index % 2)").subscribe(onNext: recorder.append)
            }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                for value in 0..<writesPerWriter {
                    try? database.setValue(.number(Double(value)), at: "k\(index)")
                }
            }
            queue.sync(flags: .barrier) {}

            let expected: [JSONValue] = [.null] + (0..<writesPerWriter).map { .number(Double($0)) }
            for recorder in recorders {
                XCTAssertEqual(recorder.all, expected)
                XCTAssertEqual(recorder.overlapCount, 0, "onNext never runs twice at once for one observer")
            }
            subscriptions.forEach { $0.dispose() }
            queue.sync(flags: .barrier) {}
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }
}
