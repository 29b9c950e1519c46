import XCTest
import Foundation
import Streams
import StreamsTest

final class TimerTests: XCTestCase {
    func testInterval_emitsEveryPeriodUntilDisposed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(
                res.events,
                [
                    .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3),
                    .next(700, 4), .next(800, 5), .next(900, 6),
                ])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testInterval_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 350) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(300, 0)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testInterval_disposeCancelsPendingTick() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var values: [Int64] = []
            let subscription = Observable<Int64>.interval(.seconds(10), scheduler: scheduler)
                .subscribe(onNext: { values.append($0) })
            scheduler.advanceTo(35)
            XCTAssertEqual(values, [0, 1, 2])
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.advanceTo(100)
            XCTAssertEqual(values, [0, 1, 2])
        }
    }

    func testInterval_counterWrapsAround() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 460) { Observable<UInt8>.interval(.seconds(1), scheduler: scheduler) }
            XCTAssertEqual(res.events.count, 259)
            XCTAssertEqual(res.events.first, .next(201, 0))
            XCTAssertEqual(Array(res.events.suffix(4)), [.next(456, 255), .next(457, 0), .next(458, 1), .next(459, 2)])
        }
    }

    func testTimer_oneShotEmitsZeroAndCompletes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, 0), .completed(250)])
        }
    }

    func testTimer_zeroDueTimeRunsAfterProcessingDelay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 0), .completed(201)])
        }
    }

    func testTimer_periodic() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.timer(.seconds(50), period: .seconds(100), scheduler: scheduler) }
            XCTAssertEqual(
                res.events,
                [
                    .next(250, 0), .next(350, 1), .next(450, 2), .next(550, 3),
                    .next(650, 4), .next(750, 5), .next(850, 6), .next(950, 7),
                ])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimer_disposeBeforeDueTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 240) { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimer_millisecondResolution() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
            let res = scheduler.start { Observable<Int>.timer(.milliseconds(30), period: .milliseconds(300), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, 0), .next(530, 1), .next(830, 2)])
        }
    }

    func testTimer_reentrantDisposeFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var values: [Int] = []
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                Observable<Int>.interval(.seconds(1), scheduler: scheduler).subscribe(onNext: { value in
                    values.append(value)
                    if value == 2 { subscription.dispose() }
                }))
            scheduler.start()
            XCTAssertEqual(values, [0, 1, 2])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testInterval_realSerialScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "TimerTests.interval")
            let gotThree = expectation(description: "three ticks")
            let values = ThreadSafeTestBox([Int]())
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                Observable<Int>.interval(.milliseconds(5), scheduler: scheduler).subscribe(onNext: { value in
                    let count = values.mutate { values -> Int in
                        values.append(value)
                        return values.count
                    }
                    if count == 3 {
                        subscription.dispose()
                        gotThree.fulfill()
                    }
                }))
            wait(for: [gotThree], timeout: 10)
            XCTAssertEqual(values.value, [0, 1, 2])
        }
    }

    func testTimer_realConcurrentScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = Observable<Int>.timer(.milliseconds(1), scheduler: scheduler).subscribe(observer)
            wait(for: [observer.terminated], timeout: 10)
            observer.assertGrammar()
            XCTAssertEqual(observer.events, [.next(0), .completed])
            subscription.dispose()
        }
    }
}
