import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class SubscribeOnTests: XCTestCase {
    func testSubscribeOn_subscribesAndDisposesOnScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
            let res = scheduler.start { xs.subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2), .completed(300)])
            // As in RxSwift: even after the source's terminal event, its subscription is disposed
            // on the scheduler (one tick later on a TestScheduler).
            XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
        }
    }

    func testSubscribeOn_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(201, 1001)])
        }
    }

    func testSubscribeOn_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [.completed(300)])
            // As in RxSwift: even after the source's terminal event, its subscription is disposed
            // on the scheduler (one tick later on a TestScheduler).
            XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
        }
    }

    func testSubscribeOn_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(300, TestError())])
            let res = scheduler.start { xs.subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2), .error(300, TestError())])
            // As in RxSwift: even after the source's terminal event, its subscription is disposed
            // on the scheduler (one tick later on a TestScheduler).
            XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
        }
    }

    func testSubscribeOn_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(201, 251)])
        }
    }

    func testSubscribeOn_disposeBeforeSubscriptionRanCancelsIt() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2)])
            let subscription = xs.subscribe(on: scheduler).subscribe(onNext: { _ in XCTFail("not subscribed") })
            XCTAssertEqual(scheduler.pendingCount, 2)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 1)
            scheduler.start()
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testSubscribeOn_synchronousSourceEmitsOnScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(5).subscribe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 5), .completed(201)])
        }
    }

    func testSubscribeOn_reentrantDisposeFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                subject.subscribe(on: scheduler).subscribe(onNext: { value in
                    values.append(value)
                    subscription.dispose()
                }))
            scheduler.scheduleAt(10) {
                subject.onNext(1)
                subject.onNext(2)
            }
            scheduler.start()
            XCTAssertEqual(values, [1])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testSubscribeOn_realSchedulerRunsSubscribeAndDisposeOffTheCallingThread() {
        XCTAssertNoLeaksEventually {
            let key = DispatchSpecificKey<String>()
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "SubscribeOnTests.queue") { queue in
                queue.setSpecific(key: key, value: "SubscribeOnTests.queue")
            }
            let subscribed = expectation(description: "subscribed")
            let disposed = expectation(description: "disposed")
            let subscribedOnQueue = ThreadSafeTestBox<Bool?>(nil)
            let disposedOnQueue = ThreadSafeTestBox<Bool?>(nil)
            let subscription = Observable<Int>.create { _ in
                subscribedOnQueue.mutate { $0 = DispatchQueue.getSpecific(key: key) != nil }
                subscribed.fulfill()
                return Disposables.create {
                    disposedOnQueue.mutate { $0 = DispatchQueue.getSpecific(key: key) != nil }
                    disposed.fulfill()
                }
            }
            .subscribe(on: scheduler)
            .subscribe()
            wait(for: [subscribed], timeout: 10)
            subscription.dispose()
            wait(for: [disposed], timeout: 10)
            XCTAssertEqual(subscribedOnQueue.value, true)
            XCTAssertEqual(disposedOnQueue.value, true)
        }
    }
}
