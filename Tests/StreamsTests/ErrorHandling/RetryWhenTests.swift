import Dispatch
import Streams
import StreamsTest
import XCTest

private enum RetryError: Error, Equatable { case failed, fatal }
private struct OtherError: Error, Equatable {}

final class RetryWhenTests: XCTestCase {
    /// The errors themselves as notifier: resubscribe after every error, forever.
    func testRetryWhen_resubscribesOnEveryError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let res = scheduler.start(disposed: 265) { xs.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260), Subscription(260, 265)])
        }
    }

    /// Each notifier element resubscribes, whenever it comes; the failed attempt is released at once.
    func testRetryWhen_notifierElementsResubscribe() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let trigger = scheduler.createHotObservable([.next(250, "x"), .next(300, "y"), .completed(400)])
            let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(260, 1), .next(310, 1), .completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 270), Subscription(300, 320)])
            XCTAssertEqual(trigger.subscriptions, [Subscription(200, 400)])
        }
    }

    /// `errors.take(2)` answers two failures with elements and then completes while no failure
    /// waits; the completion is the answer to the third failure (as in RxSwift).
    func testRetryWhen_notifierCompletionAnswersTheNextFailure() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let res = scheduler.start { xs.retry(when: { (errors: Observable<Swift.Error>) in errors.take(2) }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
        }
    }

    func testRetryWhen_notifierErrorFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let res = scheduler.start {
                xs.retry(when: { (errors: Observable<Swift.Error>) in errors.flatMap { _ in Observable<Int>.error(RetryError.fatal) } })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, RetryError.fatal)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    /// A notifier that completes while no failure waits does not end the output: the source
    /// keeps running and completes it (RxSwift's `testRetryWhen_Never` behaviour).
    func testRetryWhen_notifierCompletionWhileSourceRunsIsNotAnAnswer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let trigger = scheduler.createHotObservable([.next(220, 0), .completed(250)])
            let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(260, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    /// A notifier error kept while the source ran is the answer to the next failure.
    func testRetryWhen_notifierErrorAnswersTheNextFailure() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(270, RetryError.failed)])
            let trigger = scheduler.createHotObservable([.error(250, RetryError.fatal, Int.self)])
            let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(270, RetryError.fatal)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
        }
    }

    func testRetryWhen_sourceCompletes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let res = scheduler.start { xs.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testRetryWhen_emptyAndNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createColdObservable([.completed(50, Int.self)])
            let res = scheduler.start { empty.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
            XCTAssertEqual(res.events, [.completed(250)])
            let virtual = TestScheduler(initialClock: 0)
            let never = virtual.createColdObservable([Recorded<Event<Int>>]())
            let res2 = virtual.start { never.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
            XCTAssertEqual(res2.events, [])
            XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        }
    }

    /// With a typed notifier, errors of another type are forwarded as they are.
    func testRetryWhen_typedErrors() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(RetryError.failed) : .error(OtherError())
            }
            var seen: [RetryError] = []
            let res = scheduler.start {
                source.retry(when: { (errors: Observable<RetryError>) in
                    errors.map {
                        seen.append($0); return $0
                    }
                })
            }
            XCTAssertEqual(res.events, [.error(200, OtherError())])
            XCTAssertEqual(seen, [.failed, .failed])
            XCTAssertEqual(attempts, 3)
        }
    }

    func testRetryWhen_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let trigger = scheduler.createHotObservable([.next(250, 0), .next(300, 0)])
            let res = scheduler.start(disposed: 265) { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(260, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 265)])
            XCTAssertEqual(trigger.subscriptions, [Subscription(200, 265)])
        }
    }

    /// A source that fails synchronously with a synchronous notifier loops without recursion.
    func testRetryWhen_synchronousFailuresDoNotGrowTheStack() {
        XCTAssertNoLeaks {
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return attempts < 100_000 ? .error(RetryError.failed) : .just(attempts)
            }
            var events: [Event<Int>] = []
            _ = source.retry(when: { (errors: Observable<Swift.Error>) in errors }).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(100_000), .completed])
        }
    }

    @available(*, deprecated)
    func testRetryWhen_deprecatedSpellingForwards() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let res = scheduler.start { xs.retryWhen { (errors: Observable<Swift.Error>) in errors.take(1) } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .completed(240)])
            let typed = TestScheduler(initialClock: 0)
            let ys = typed.createColdObservable([.next(10, 1), .error(20, RetryError.failed)])
            let res2 = typed.start { ys.retryWhen { (errors: Observable<RetryError>) in errors.take(1) } }
            XCTAssertEqual(res2.events, [.next(210, 1), .next(230, 1), .completed(240)])
        }
    }

    /// Triggers from several threads answering failures: the output stays serialized, only
    /// elements of live attempts arrive, and the notifier's completion ends it exactly once.
    func testRetryWhen_concurrentTriggers() {
        XCTAssertNoLeaks {
            let trigger = PublishSubject<Void>()
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(RetryError.failed)
                return Disposables.create()
            }
            let probe = CombiningSupport.ConcurrencyProbe<Int>()
            let subscription = source.retry(when: { (_: Observable<Swift.Error>) in trigger }).subscribe(probe)
            CombiningSupport.concurrently(4) { _ in
                for _ in 0..<2_000 { trigger.onNext(()) }
            }
            trigger.onCompleted()
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertEqual(probe.terminalCount, 1)
            XCTAssertEqual(probe.events.last, .completed)
            XCTAssertTrue(probe.elements.allSatisfy { $0 == 1 })
            XCTAssertGreaterThanOrEqual(probe.elements.count, 2)
            XCTAssertLessThanOrEqual(probe.elements.count, 1 + 4 * 2_000)
            subscription.dispose()
        }
    }

    /// Source attempts fail on background threads: every failure leads to exactly one retry until
    /// the notifier completes.
    func testRetryWhen_failuresOnBackgroundThreads() {
        XCTAssertNoLeaksEventually {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let source = Observable.just(1).concat(Observable<Int>.error(RetryError.failed)).subscribe(on: scheduler)
            let result = source.retry(when: { (errors: Observable<Swift.Error>) in errors.take(200) }).toBlocking(timeout: 10).materialize()
            guard case .completed(let elements) = result else { return XCTFail("\(result)") }
            XCTAssertTrue((200...201).contains(elements.count), "\(elements.count)")
            XCTAssertTrue(elements.allSatisfy { $0 == 1 })
        }
    }
}
