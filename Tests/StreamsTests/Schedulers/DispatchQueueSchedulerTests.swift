import XCTest
import Foundation
import Synchronization
import Streams
import StreamsTest

final class DispatchQueueSchedulerTests: XCTestCase {
    /// Waits until everything already queued on `scheduler` (a serial one) has run.
    private func fence(_ scheduler: SerialDispatchQueueScheduler) {
        let done = expectation(description: "fence")
        _ = scheduler.schedule(()) { _ in
            done.fulfill()
            return Disposables.create()
        }
        wait(for: [done], timeout: 10)
    }

    func testSerial_runsActionsInOrderOneAtATimeOffTheMainThread() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let count = 1_000
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = count
        let order = ThreadSafeTestBox([Int]())
        let inFlight = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let onMain = Atomic<Int>(0)
        for i in 0..<count {
            _ = scheduler.schedule(i) { i in
                if inFlight.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { overlaps.add(1, ordering: .relaxed) }
                if Thread.isMainThread { onMain.add(1, ordering: .relaxed) }
                order.mutate { $0.append(i) }
                inFlight.subtract(1, ordering: .acquiringAndReleasing)
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(order.value, Array(0..<count))
        XCTAssertEqual(overlaps.load(ordering: .acquiring), 0)
        XCTAssertEqual(onMain.load(ordering: .acquiring), 0)
    }

    func testSerial_disposedActionDoesNotRun() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DispatchQueueSchedulerTests.cancel")
        let ran = Atomic<Bool>(false)
        let blocker = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            blocker.wait()
            return Disposables.create()
        }
        let cancelled = scheduler.schedule(()) { _ in
            ran.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        cancelled.dispose()
        blocker.signal()
        fence(scheduler)
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testSerial_scheduleRelativeRunsOnceAndCanBeCancelled() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DispatchQueueSchedulerTests.relative")
        let ran = expectation(description: "ran")
        let cancelledRan = Atomic<Bool>(false)
        let cancelled = scheduler.scheduleRelative((), dueTime: .seconds(3_600)) { _ in
            cancelledRan.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative(7, dueTime: .milliseconds(1)) { value in
            XCTAssertEqual(value, 7)
            ran.fulfill()
            return Disposables.create()
        }
        cancelled.dispose()
        wait(for: [ran], timeout: 10)
        fence(scheduler)
        XCTAssertFalse(cancelledRan.load(ordering: .relaxed))
    }

    func testSerial_schedulePeriodicThreadsStateAndStopsOnDispose() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DispatchQueueSchedulerTests.periodic")
        let threeTicks = expectation(description: "three ticks")
        let states = ThreadSafeTestBox([Int]())
        let periodic = scheduler.schedulePeriodic(10, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            let count = states.mutate { states -> Int in
                states.append(state)
                return states.count
            }
            if count == 3 { threeTicks.fulfill() }
            return state + 1
        }
        wait(for: [threeTicks], timeout: 10)
        fence(scheduler)
        periodic.dispose()
        fence(scheduler)
        let afterDispose = states.value.count
        fence(scheduler)
        XCTAssertEqual(states.value.count, afterDispose)
        XCTAssertEqual(Array(states.value.prefix(3)), [10, 11, 12])
        XCTAssertEqual(states.value, Array(10..<(10 + states.value.count)))
    }

    func testConcurrent_runsEveryAction() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let count = 1_000
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = count
        let seen = ThreadSafeTestBox(Set<Int>())
        for i in 0..<count {
            _ = scheduler.schedule(i) { i in
                seen.mutate { _ = $0.insert(i) }
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(seen.value.count, count)
    }

    func testConcurrent_scheduleRelativeAndPeriodic() {
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "DispatchQueueSchedulerTests.concurrent", attributes: .concurrent))
        let relative = expectation(description: "relative")
        let periodicTicks = expectation(description: "periodic")
        periodicTicks.expectedFulfillmentCount = 3
        periodicTicks.assertForOverFulfill = false
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            relative.fulfill()
            return Disposables.create()
        }
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            periodicTicks.fulfill()
            return state + 1
        }
        wait(for: [relative, periodicTicks], timeout: 10)
        periodic.dispose()
    }

    func testSerial_nowIsTheWallClock() {
        let before = Date()
        let now = SerialDispatchQueueScheduler(qos: .default).now
        XCTAssertGreaterThanOrEqual(now, before)
    }
}
