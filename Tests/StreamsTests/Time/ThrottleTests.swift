import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class ThrottleTests: XCTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
            .next(420, 6), .next(450, 7), .completed(500),
        ])
    }

    func testThrottle_latestEmitsFirstAndLastOfEachWindow() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2), .next(410, 5), .next(610, 7), .completed(610)])
            // The source's own completion (500) releases its subscription.
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testThrottle_notLatestDropsElementsInsideWindow() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2), .next(420, 6), .completed(500)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
        }
    }

    func testThrottle_elementsFartherApartThanWindowAllPass() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(270, 3), .completed(300)])
            let res = scheduler.start { xs.throttle(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 2), .next(270, 3), .completed(300)])
        }
    }

    func testThrottle_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testThrottle_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testThrottle_errorDropsPendingElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .error(300, TestError())])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2), .error(300, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testThrottle_disposeMidStreamCancelsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start(disposed: 300) { xs.throttle(.seconds(200), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testThrottle_disposeLeavesNoPendingWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = subject.throttle(.seconds(20), scheduler: scheduler).subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(values, [1])
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.start()
            XCTAssertEqual(values, [1])
        }
    }

    func testThrottle_reentrantElementFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.throttle(.seconds(20), scheduler: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event {
                    subject.onNext(2)
                    subject.onCompleted()
                }
            }
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .completed(230)])
            subscription.dispose()
        }
    }

    func testThrottle_multiThreadedSourcesOnSerialScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ThrottleTests.stress")
            let producers = 4
            let perProducer = 500
            let seen = ThreadSafeTestBox([Int]())
            let sources = (0..<producers).map { producer in
                Observable<Int>.create { observer in
                    let box = UncheckedSendableTestBox(value: observer)
                    DispatchQueue.global().async {
                        for i in 0..<perProducer { box.value.onNext(producer * perProducer + i) }
                        box.value.onCompleted()
                    }
                    return Disposables.create()
                }
            }
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = Observable.merge(sources)
                .map { value -> Int in
                    seen.mutate { $0.append(value) }
                    return value
                }
                .throttle(.microseconds(50), scheduler: scheduler)
                .subscribe(observer)
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            let seenValues = seen.value
            XCTAssertEqual(seenValues.count, producers * perProducer)
            XCTAssertEqual(observer.elements.first, seenValues.first)
            XCTAssertEqual(observer.elements.last, seenValues.last)
            XCTAssertTrue(isOrderedSubsequence(observer.elements, of: seenValues))
            subscription.dispose()
        }
    }
}
