import XCTest
import Foundation
import Streams
import StreamsTest

/// The address of a local variable of the caller's frame: a proxy for the stack depth.
@inline(never)
private func stackAddress() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

final class CurrentThreadSchedulerTests: XCTestCase {
    func testCurrentThread_isScheduleRequiredOutsideAndNotInside() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var inside: Bool?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            inside = CurrentThreadScheduler.isScheduleRequired
            return Disposables.create()
        }
        XCTAssertEqual(inside, false)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testCurrentThread_runsImmediatelyWhenNoTrampoline() {
        var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
    }

    func testCurrentThread_nestedSchedulesRunAfterTheCurrentActionInOrder() {
        var log: [String] = []
        let scheduler = CurrentThreadScheduler.instance
        _ = scheduler.schedule(()) { _ in
            log.append("A")
            _ = scheduler.schedule(()) { _ in
                log.append("B")
                _ = scheduler.schedule(()) { _ in
                    log.append("D")
                    return Disposables.create()
                }
                log.append("B end")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("C")
                return Disposables.create()
            }
            log.append("A end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["A", "A end", "B", "B end", "C", "D"])
    }

    func testCurrentThread_disposingAQueuedActionCancelsIt() {
        var log: [String] = []
        let scheduler = CurrentThreadScheduler.instance
        _ = scheduler.schedule(()) { _ in
            let queued = scheduler.schedule(()) { _ in
                log.append("cancelled")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("kept")
                return Disposables.create()
            }
            queued.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(log, ["kept"])
    }

    func testCurrentThread_recursiveScheduling100kDeepDoesNotGrowTheStack() {
        let scheduler = CurrentThreadScheduler.instance
        var count = 0
        var firstDepth: UInt = 0
        var maxDistance: UInt = 0
        func step() {
            count += 1
            let depth = stackAddress()
            if count == 1 { firstDepth = depth }
            maxDistance = max(maxDistance, firstDepth > depth ? firstDepth - depth : depth - firstDepth)
            if count < 100_000 {
                _ = scheduler.schedule(()) { _ in
                    step()
                    return Disposables.create()
                }
            }
        }
        _ = scheduler.schedule(()) { _ in
            step()
            return Disposables.create()
        }
        XCTAssertEqual(count, 100_000)
        XCTAssertLessThan(maxDistance, 16 * 1024, "the trampoline must not nest frames")
    }

    func testCurrentThread_scheduleRecursive100kDeepDoesNotGrowTheStack() {
        var count = 0
        var firstDepth: UInt = 0
        var maxDistance: UInt = 0
        let disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            count += 1
            let depth = stackAddress()
            if value == 0 { firstDepth = depth }
            maxDistance = max(maxDistance, firstDepth > depth ? firstDepth - depth : depth - firstDepth)
            if value < 99_999 { recurse(value + 1) }
        }
        XCTAssertEqual(count, 100_000)
        XCTAssertLessThan(maxDistance, 16 * 1024)
        disposable.dispose()
    }

    func testCurrentThread_manyQueuedActionsRunInOrder() {
        var order: [Int] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            for i in 0..<50_000 {
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    order.append(i)
                    return Disposables.create()
                }
            }
            return Disposables.create()
        }
        XCTAssertEqual(order, Array(0..<50_000))
    }

    func testCurrentThread_trampolinesArePerThread() {
        let otherThread = expectation(description: "other thread")
        let requiredOnOtherThread = ThreadSafeTestBox<Bool?>(nil)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            DispatchQueue.global().async {
                requiredOnOtherThread.mutate { $0 = CurrentThreadScheduler.isScheduleRequired }
                otherThread.fulfill()
            }
            self.wait(for: [otherThread], timeout: 10)
            return Disposables.create()
        }
        XCTAssertEqual(requiredOnOtherThread.value, true)
    }
}
