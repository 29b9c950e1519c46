import XCTest
import Foundation
import Synchronization
import Streams
import StreamsTest

private struct TestError: Error {}

final class RetryTests: XCTestCase {
    func testRetry_resubscribesAfterEveryError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .error(200, TestError())])
            let res = scheduler.start { xs.retry() }
            XCTAssertEqual(
                res.events,
                [
                    .next(300, 1), .next(350, 2), .next(500, 1), .next(550, 2),
                    .next(700, 1), .next(750, 2), .next(900, 1), .next(950, 2),
                ])
            XCTAssertEqual(
                xs.subscriptions,
                [
                    Subscription(200, 400), Subscription(400, 600), Subscription(600, 800), Subscription(800, 1000),
                ])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testRetry_completionEndsIt() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .completed(250)])
            let res = scheduler.start { xs.retry() }
            XCTAssertEqual(res.events, [.next(300, 1), .next(350, 2), .completed(450)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
        }
    }

    func testRetry_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.retry() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testRetry_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.completed(50, Int.self)])
            let res = scheduler.start { xs.retry(3) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testRetry_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(100, 1), .error(200, TestError())])
            let res = scheduler.start(disposed: 450) { xs.retry() }
            XCTAssertEqual(res.events, [.next(300, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400), Subscription(400, 450)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testRetryCount_countsAllAttemptsAndForwardsTheLastError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
            let res = scheduler.start { xs.retry(3) }
            XCTAssertEqual(res.events, [.next(205, 1), .next(215, 1), .next(225, 1), .error(230, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
        }
    }

    func testRetryCount_oneIsTheSourceItself() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
            let res = scheduler.start { xs.retry(1) }
            XCTAssertEqual(res.events, [.next(205, 1), .error(210, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        }
    }

    func testRetryCount_zeroCompletesWithoutSubscribing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
            let res = scheduler.start { xs.retry(0) }
            XCTAssertEqual(res.events, [.completed(200)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testRetryCount_successfulAttemptStops() {
        XCTAssertNoLeaks {
            var attempt = 0
            var events: [Event<Int>] = []
            let source = Observable<Int>.create { observer in
                attempt += 1
                observer.onNext(attempt)
                if attempt < 3 { observer.onError(TestError()) } else { observer.onCompleted() }
                return Disposables.create()
            }
            let subscription = source.retry(5).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
            XCTAssertEqual(attempt, 3)
            subscription.dispose()
        }
    }

    func testRetryCount_synchronousFailures100kDoNotGrowTheStack() {
        XCTAssertNoLeaks {
            var subscriptions = 0
            var elements = 0
            var result: Event<Int>?
            let source = Observable<Int>.create { observer in
                subscriptions += 1
                observer.onNext(subscriptions)
                observer.onError(TestError())
                return Disposables.create()
            }
            let subscription = source.retry(100_000).subscribe { event in
                if case .next = event { elements += 1 } else { result = event }
            }
            XCTAssertEqual(subscriptions, 100_000)
            XCTAssertEqual(elements, 100_000)
            XCTAssertEqual(result, .error(TestError()))
            subscription.dispose()
        }
    }

    func testRetry_infiniteSynchronousFailuresUntilSuccessDoNotGrowTheStack() {
        XCTAssertNoLeaks {
            var subscriptions = 0
            var events: [Event<Int>] = []
            let source = Observable<Int>.create { observer in
                subscriptions += 1
                if subscriptions < 100_000 {
                    observer.onError(TestError())
                } else {
                    observer.onNext(subscriptions)
                    observer.onCompleted()
                }
                return Disposables.create()
            }
            let subscription = source.retry().subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(100_000), .completed])
            subscription.dispose()
        }
    }

    func testRetry_reentrantDisposeFromObserverStopsTheLoop() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var subscriptions = 0
            var values: [Int] = []
            // Emits at once, fails one tick later; the observer disposes from inside the
            // resubscription (a fully synchronous infinite retry could not be disposed at all,
            // as in RxSwift, because `subscribe` would never return the disposable).
            let source = Observable<Int>.create { observer in
                subscriptions += 1
                observer.onNext(subscriptions)
                return scheduler.schedule(()) { _ in
                    observer.onError(TestError())
                    return Disposables.create()
                }
            }
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                source.retry().subscribe(onNext: { value in
                    values.append(value)
                    if value == 5 { subscription.dispose() }
                }))
            scheduler.start()
            XCTAssertEqual(values, [1, 2, 3, 4, 5])
            XCTAssertEqual(subscriptions, 5)
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testRetry_asynchronousFailuresOnOtherThreads() {
        XCTAssertNoLeaksEventually {
            let attempts = Atomic<Int>(0)
            let source = Observable<Int>.create { observer in
                let attempt = attempts.add(1, ordering: .relaxed).newValue
                let box = UncheckedSendableTestBox(value: observer)
                DispatchQueue.global().async {
                    box.value.onNext(attempt)
                    if attempt < 200 { box.value.onError(TestError()) } else { box.value.onCompleted() }
                }
                return Disposables.create()
            }
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = source.retry().subscribe(observer)
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.elements, Array(1...200))
            XCTAssertEqual(observer.events.last, .completed)
            subscription.dispose()
        }
    }

    func testCatchSequence_triesEachUntilOneCompletes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
            let b = scheduler.createColdObservable([.next(10, 2), .error(20, TestError())])
            let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
            let d = scheduler.createColdObservable([.next(10, 4), .completed(20)])
            let res = scheduler.start { Observable.catch(sequence: [a, b, c, d].map { $0.asObservable() }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
            XCTAssertEqual(c.subscriptions, [Subscription(240, 260)])
            XCTAssertEqual(d.subscriptions, [])
        }
    }

    func testCatchSequence_allFailForwardsTheLastError() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            let subscription = Observable.catch(sequence: [Observable<Int>.error(TestError()), .error(RxError.unknown)])
                .subscribe { events.append($0) }
            XCTAssertEqual(events, [.error(RxError.unknown)])
            subscription.dispose()
        }
    }

    func testCatchSequence_emptyCompletes() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            let subscription = Observable.catch(sequence: [Observable<Int>]()).subscribe { events.append($0) }
            XCTAssertEqual(events, [.completed])
            subscription.dispose()
        }
    }
}
