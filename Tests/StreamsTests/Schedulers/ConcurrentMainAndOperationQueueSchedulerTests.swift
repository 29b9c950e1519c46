import XCTest
import Foundation
import Streams
import StreamsTest

/// `ConcurrentMainScheduler` and `OperationQueueScheduler`. Waiting uses expectations (which run
/// the main run loop, so main-queue work runs on Linux too); nothing asserts timing.
final class ConcurrentMainAndOperationQueueSchedulerTests: XCTestCase {
    func testConcurrentMainScheduler_runsInlineOnMainThreadEvenWhenNested() {
        XCTAssertTrue(Thread.isMainThread)
        var log: [String] = []
        _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
            log.append("outer")
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                log.append("inner")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer", "inner", "outer end"])
    }

    func testConcurrentMainScheduler_fromBackgroundRunsOnMainThread() {
        let done = expectation(description: "ran on main")
        let wasMain = ThreadSafeTestBox<Bool?>(nil)
        DispatchQueue.global().async {
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                wasMain.mutate { $0 = Thread.isMainThread }
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(wasMain.value, true)
    }

    func testConcurrentMainScheduler_subscribeOnDeliversAndDisposes() {
        XCTAssertNoLeaksEventually {
            let done = expectation(description: "completed")
            let events = ThreadSafeTestBox<[Event<Int>]>([])
            let subscription = Observable.of(1, 2).subscribe(on: ConcurrentMainScheduler.instance).subscribe { event in
                events.mutate { $0.append(event) }
                if event.isStopEvent { done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            subscription.dispose()
            XCTAssertEqual(events.value, [.next(1), .next(2), .completed])
        }
    }

    func testConcurrentMainScheduler_relativeSchedulingDelegatesToMainQueue() {
        let done = expectation(description: "timer fired on main")
        let wasMain = ThreadSafeTestBox<Bool?>(nil)
        let disposable = ConcurrentMainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            wasMain.mutate { $0 = Thread.isMainThread }
            done.fulfill()
            return Disposables.create()
        }
        wait(for: [done], timeout: 10)
        disposable.dispose()
        XCTAssertEqual(wasMain.value, true)
    }

    func testOperationQueueScheduler_runsActionsOnTheQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        XCTAssertTrue(scheduler.operationQueue === queue)
        XCTAssertEqual(scheduler.queuePriority, .high)
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = 3
        let order = ThreadSafeTestBox<[Int]>([])
        for index in 0..<3 {
            _ = scheduler.schedule(index) { value in
                order.mutate { $0.append(value) }
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.value, [0, 1, 2])
    }

    func testOperationQueueScheduler_disposeBeforeStartSkipsAction() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = ThreadSafeTestBox(false)
        let disposable = scheduler.schedule(()) { _ in
            ran.mutate { $0 = true }
            return Disposables.create()
        }
        disposable.dispose()
        let after = expectation(description: "queue drained")
        queue.addOperation { after.fulfill() }
        queue.isSuspended = false
        wait(for: [after], timeout: 10)
        XCTAssertFalse(ran.value)
    }

    func testOperationQueueScheduler_observeOnSerialQueueKeepsGrammar() {
        XCTAssertNoLeaksEventually {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let done = expectation(description: "completed")
            let events = ThreadSafeTestBox<[Event<Int>]>([])
            let subscription = Observable.of(1, 2, 3).observe(on: OperationQueueScheduler(operationQueue: queue)).subscribe { event in
                events.mutate { $0.append(event) }
                if event.isStopEvent { done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            subscription.dispose()
            XCTAssertEqual(events.value, [.next(1), .next(2), .next(3), .completed])
        }
    }
}
