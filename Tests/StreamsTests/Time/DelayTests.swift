import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class DelayTests: XCTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(550)) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), end])
    }

    func testDelay_shiftsElementsAndCompletion() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
        }
    }

    func testDelay_longerThanGapsKeepsOrderAndSpacing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(400, 2), .next(500, 3), .next(600, 4), .completed(700)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
        }
    }

    /// As in RxSwift, one timer step delivers one event; the next, already due, is scheduled
    /// for "now" and so arrives one tick later on a TestScheduler.
    func testDelay_eventsAtSameTimeArriveOneStepApart() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(250, 1), .next(250, 2), .completed(250)])
            let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(350, 1), .next(351, 2), .completed(352)])
        }
    }

    func testDelay_errorIsNotDelayedAndDropsPendingElements() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, end: .error(550, TestError()))
            let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(400, 2), .next(500, 3), .error(550, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testDelay_errorOnly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .error(250, TestError())])
            let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.error(250, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDelay_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDelay_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testDelay_disposeMidStreamCancelsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start(disposed: 400) { xs.delay(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(350, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        }
    }

    func testDelay_disposeLeavesNoPendingWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            scheduler.advanceTo(5)
            subject.onNext(2)
            scheduler.advanceTo(10)
            XCTAssertEqual(values, [1])
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.start()
            XCTAssertEqual(values, [1])
        }
    }

    func testDelay_millisecondResolution() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(213, 2), .next(300, 3), .completed(301)])
            let res = scheduler.start { xs.delay(.milliseconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(310, 1), .next(313, 2), .next(400, 3), .completed(401)])
        }
    }

    func testDelay_reentrantElementFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.delay(.seconds(100), scheduler: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event {
                    subject.onNext(2)
                    subject.onCompleted()
                }
            }
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(310, 1), .next(410, 2), .completed(411)])
            subscription.dispose()
        }
    }

    func testDelay_realConcurrentSchedulerKeepsOrder() {
        XCTAssertNoLeaksEventually {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let subject = PublishSubject<Int>()
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = subject.delay(.milliseconds(1), scheduler: scheduler).subscribe(observer)
            let box = UncheckedSendableTestBox(value: subject)
            DispatchQueue.global().async {
                for i in 0..<2_000 { box.value.onNext(i) }
                box.value.onCompleted()
            }
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.elements, Array(0..<2_000))
            XCTAssertEqual(observer.events.last, .completed)
            subscription.dispose()
        }
    }

    func testDelay_realSchedulerErrorOvertakesPendingElements() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DelayTests.error")
            let subject = PublishSubject<Int>()
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "failed"))
            let subscription = subject.delay(.seconds(60), scheduler: scheduler).subscribe(observer)
            subject.onNext(1)
            subject.onError(TestError())
            wait(for: [observer.terminated], timeout: 10)
            observer.assertGrammar()
            XCTAssertEqual(observer.events, [.error(TestError())])
            subscription.dispose()
        }
    }
}
