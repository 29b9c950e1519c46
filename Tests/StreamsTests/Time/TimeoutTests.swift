import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class TimeoutTests: XCTestCase {
    func testTimeout_eventsInTimePassThrough() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(320, 3), .completed(400)])
            let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, 2), .next(320, 3), .completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimeout_failsAfterSilenceSinceLastElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(250, 2), .next(400, 3), .completed(500)])
            let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, 2), .error(350, RxError.timeout)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
        }
    }

    func testTimeout_neverFailsAfterDueTimeFromSubscription() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.error(300, RxError.timeout)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testTimeout_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimeout_errorInTimeIsForwarded() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testTimeout_switchesToOther() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(250, 2), .next(400, 3), .completed(500)])
            let ys = scheduler.createColdObservable([.next(10, 9), .completed(20)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, 2), .next(360, 9), .completed(370)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
            XCTAssertEqual(ys.subscriptions, [Subscription(350, 370)])
        }
    }

    func testTimeout_otherNeverSubscribedWhenInTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(250, 2), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 9), .completed(20)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, 2), .completed(300)])
            XCTAssertEqual(ys.subscriptions, [])
        }
    }

    func testTimeout_disposeMidStreamCancelsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 3)])
            let res = scheduler.start(disposed: 250) { xs.timeout(.seconds(100), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testTimeout_disposeLeavesNoPendingWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let subscription = subject.timeout(.seconds(10), scheduler: scheduler).subscribe(onError: { _ in XCTFail("no timeout expected") })
            subject.onNext(1)
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimeout_synchronousSourceCompletesBeforeTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(7).timeout(.seconds(5), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(200, 7), .completed(200)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testTimeout_reentrantElementRestartsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = subject.timeout(.seconds(100), scheduler: scheduler).subscribe { event in
                    observer.on(event)
                    if case .next(1) = event { subject.onNext(2) }
                }
            }
            scheduler.scheduleAt(250) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(250, 1), .next(250, 2), .error(350, RxError.timeout)])
            subscription?.dispose()
        }
    }

    func testTimeout_realSchedulerRaceKeepsGrammar() {
        XCTAssertNoLeaksEventually {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            for round in 0..<50 {
                let subject = PublishSubject<Int>()
                let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "terminated \(round)"))
                let subscription = subject.timeout(.microseconds(200), scheduler: scheduler).subscribe(observer)
                let box = UncheckedSendableTestBox(value: subject)
                DispatchQueue.global().async {
                    for i in 0..<200 { box.value.onNext(i) }
                    box.value.onCompleted()
                }
                wait(for: [observer.terminated], timeout: 10)
                observer.assertGrammar()
                XCTAssertEqual(observer.elements, Array(0..<observer.elements.count))
                if case .error(let error) = observer.events.last {
                    XCTAssertEqual(error as? RxError, .timeout)
                }
                subscription.dispose()
            }
        }
    }
}
