import XCTest
import Foundation
import Streams
import StreamsTest

final class RecursiveSchedulingTests: XCTestCase {
    func testScheduleRecursive_eachStepIsScheduled() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [(Int, Int)] = []
        let disposable = scheduler.scheduleRecursive(0) { value, recurse in
            log.append((scheduler.clock, value))
            if value < 3 { recurse(value + 1) }
        }
        scheduler.start()
        XCTAssertEqual(log.map(\.0), [1, 2, 3, 4])
        XCTAssertEqual(log.map(\.1), [0, 1, 2, 3])
        XCTAssertEqual(scheduler.pendingCount, 0)
        disposable.dispose()
    }

    func testScheduleRecursive_disposeStopsTheRecursion() {
        let scheduler = TestScheduler(initialClock: 0)
        var values: [Int] = []
        let disposable = scheduler.scheduleRecursive(0) { value, recurse in
            values.append(value)
            recurse(value + 1)
        }
        scheduler.advanceTo(3)
        XCTAssertEqual(values, [0, 1, 2])
        XCTAssertEqual(scheduler.pendingCount, 1)
        disposable.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.start()
        XCTAssertEqual(values, [0, 1, 2])
    }

    func testScheduleRecursive_recurseAfterDisposeFromInsideIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        var values: [Int] = []
        let holder = SingleAssignmentDisposable()
        holder.setDisposable(
            scheduler.scheduleRecursive(0) { value, recurse in
                values.append(value)
                if value == 2 { holder.dispose() }
                recurse(value + 1)
            })
        scheduler.start()
        XCTAssertEqual(values, [0, 1, 2])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    /// Regression: the recursion used to hold itself weakly, so dropping the returned
    /// disposable silently cancelled it on dispatch schedulers.
    func testScheduleRecursive_keepsRunningWhenTheDisposableIsDropped() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "RecursiveSchedulingTests.drop")
        let done = expectation(description: "done")
        let values = ThreadSafeTestBox([Int]())
        _ = scheduler.scheduleRecursive(0) { value, recurse in
            values.mutate { $0.append(value) }
            if value < 10 { recurse(value + 1) } else { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values.value, Array(0...10))
    }

    func testScheduleRecursive_concurrentSchedulerRunsStepsOneAtATime() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let done = expectation(description: "done")
        let values = ThreadSafeTestBox([Int]())
        let disposable = scheduler.scheduleRecursive(0) { value, recurse in
            values.mutate { $0.append(value) }
            if value < 1_000 { recurse(value + 1) } else { done.fulfill() }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(values.value, Array(0...1_000))
        disposable.dispose()
    }
}
