import XCTest
import Streams
import StreamsTest

final class FlatMapFirstTests: XCTestCase {
    func testFlatMapFirst_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(300, 3), .completed(400)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .next(40, 12), .completed(50)])
            let ys3 = scheduler.createColdObservable([.next(10, 31), .completed(20)])
            var calls: [Int] = []
            let res = scheduler.start {
                xs.flatMapFirst { value -> TestableObservable<Int> in
                    calls.append(value)
                    return value == 1 ? ys1 : ys3
                }
            }
            XCTAssertEqual(res.events, [.next(220, 11), .next(250, 12), .next(310, 31), .completed(400)])
            XCTAssertEqual(calls, [1, 3], "the selector is not called for dropped elements")
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 260)])
            XCTAssertEqual(ys3.subscriptions, [Subscription(300, 320)])
        }
    }

    func testFlatMapFirst_completesAfterRunningInner() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let ys = scheduler.createColdObservable([.next(30, 11), .completed(40)])
            let res = scheduler.start { xs.flatMapFirst { _ in ys } }
            XCTAssertEqual(res.events, [.next(240, 11), .completed(250)])
        }
    }

    func testFlatMapFirst_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.empty().flatMapFirst { Observable.just($0) }).events, [.completed])
        }
    }

    func testFlatMapFirst_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.never().flatMapFirst { Observable.just($0) } }
            XCTAssertEqual(res.events, [])
        }
    }

    func testFlatMapFirst_innerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
            let ys = scheduler.createColdObservable([.next(10, 11), .error(20, TransformTestError(), Int.self)])
            let res = scheduler.start { xs.flatMapFirst { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testFlatMapFirst_selectorThrows() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(1, 2).flatMapFirst { _ -> Observable<Int> in throw TransformTestError() }).events
            XCTAssertEqual(events, [.error(TransformTestError())])
        }
    }

    /// The running inner's subscription is held until it completes, then disposed once; a
    /// synchronous inner's right after its `subscribe` returns.
    func testFlatMapFirst_innerSubscriptionsAreDisposedOnce() {
        XCTAssertNoLeaks {
            var disposals = 0
            let running = PublishSubject<Int>()
            let subject = PublishSubject<Int>()
            let subscription =
                subject
                .flatMapFirst { value -> Observable<Int> in
                    let inner: Observable<Int> = value == 0 ? running.asObservable() : .just(value)
                    return inner.reportingDisposal { disposals += 1 }
                }
                .subscribe()
            subject.onNext(1)
            XCTAssertEqual(disposals, 1)
            subject.onNext(0)
            subject.onNext(2)  // dropped: the inner of 0 runs
            XCTAssertEqual(disposals, 1)
            running.onCompleted()
            XCTAssertEqual(disposals, 2)
            subscription.dispose()
            XCTAssertEqual(disposals, 2)
        }
    }

    func testFlatMapFirst_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(100, 12)])
            let res = scheduler.start(disposed: 250) { xs.flatMapFirst { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
        }
    }

    /// RxSwift's order: the source's `2` is a trampoline step that runs while the first inner
    /// sequence (`1, 10`) is still running, so it is dropped.
    func testFlatMapFirst_synchronousSourceElementArrivesWhileInnerRuns() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(1, 2).flatMapFirst { Observable.of($0, $0 * 10) }).events
            XCTAssertEqual(events, [.next(1), .next(10), .completed])
        }
    }
}
