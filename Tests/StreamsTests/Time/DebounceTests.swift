import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class DebounceTests: XCTestCase {
    func testDebounce_emitsLastElementAfterQuietPeriod() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(215, 3), .next(240, 4),
                .next(300, 5), .next(305, 6), .completed(400),
            ])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(235, 3), .next(260, 4), .next(325, 6), .completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        }
    }

    func testDebounce_completionFlushesPendingElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(215, 3), .completed(220)])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(220, 3), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testDebounce_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testDebounce_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testDebounce_errorDropsPendingElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .error(260, TestError())])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, 2), .error(260, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        }
    }

    func testDebounce_disposeMidStreamCancelsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDebounce_disposeLeavesNoPendingWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = subject.debounce(.seconds(20), scheduler: scheduler).subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.start()
            XCTAssertEqual(values, [])
        }
    }

    func testDebounce_zeroDueTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(230)])
            let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 2), .next(221, 3), .completed(230)])
        }
    }

    func testDebounce_reentrantElementFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.debounce(.seconds(20), scheduler: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event { subject.onNext(2) }
                if case .next(2) = event { subject.onCompleted() }
            }
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(230, 1), .next(250, 2), .completed(250)])
            subscription.dispose()
        }
    }

    func testDebounce_multiThreadedSourcesOnSerialScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DebounceTests.stress")
            let producers = 4
            let perProducer = 500
            let lastSeen = ThreadSafeTestBox<Int?>(nil)
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
                    lastSeen.mutate { $0 = value }
                    return value
                }
                .debounce(.microseconds(50), scheduler: scheduler)
                .subscribe(observer)
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.events.last, .completed)
            XCTAssertEqual(observer.elements.last, lastSeen.value)
            XCTAssertEqual(Set(observer.elements).count, observer.elements.count)
            subscription.dispose()
        }
    }
}
