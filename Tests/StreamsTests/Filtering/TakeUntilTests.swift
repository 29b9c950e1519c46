import Streams
import StreamsTest
import XCTest

final class TakeUntilTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testTakeUntil_otherEmits() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(240, 4), .completed(300)])
            let other = scheduler.createHotObservable([.next(150, "x"), .next(230, "y"), .completed(250)])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTakeUntil_otherFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(300)])
            let other = scheduler.createHotObservable([.error(230, TestError.second, Int.self)])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2), .error(230, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTakeUntil_otherCompletesWithoutElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(300)])
            let other = scheduler.createHotObservable([.completed(225, Int.self)])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2), .next(240, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
        }
    }

    func testTakeUntil_sourceCompletesFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
            let other = scheduler.createHotObservable([.next(250, "x")])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTakeUntil_sourceFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError.first, Int.self)])
            let other = scheduler.createHotObservable([.next(250, "x")])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2), .error(220, TestError.first)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTakeUntil_neverNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let other = scheduler.createHotObservable([.next(150, "x")])
            let res = scheduler.start { xs.take(until: other) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testTakeUntil_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 4), .completed(300)])
            let other = scheduler.createHotObservable([.next(280, "x")])
            let res = scheduler.start(disposed: 250) { xs.take(until: other) }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 250)])
        }
    }

    /// `other` is subscribed first: an element it emits on subscription completes the output;
    /// the source is then subscribed and disposed at once, as in RxSwift.
    func testTakeUntil_otherEmitsOnSubscribe() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
            let res = scheduler.start { xs.take(until: Observable.just("now")) }
            XCTAssertEqual(res.events, [.completed(200)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
        }
    }

    @available(*, deprecated)
    func testTakeUntil_deprecatedName() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4)])
            let other = scheduler.createHotObservable([.next(230, "y")])
            let res = scheduler.start { xs.takeUntil(other) }
            XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
        }
    }

    func testTakeUntil_reentrant() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let stop = PublishSubject<Void>()
            var events: [Event<Int>] = []
            _ = source.take(until: stop).subscribe { event in
                events.append(event)
                if case .next(let value) = event {
                    if value == 1 { source.onNext(2) }
                    if value == 2 { stop.onNext(()) }
                }
            }
            source.onNext(1)
            source.onNext(3)
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertFalse(source.hasObservers)
            XCTAssertFalse(stop.hasObservers)
        }
    }

    /// The source and `other` race: delivery is serialized and exactly one terminal event arrives.
    func testTakeUntil_concurrent() {
        for _ in 0..<20 {
            XCTAssertNoLeaks {
                let source = PublishSubject<Int>()
                let stop = PublishSubject<Void>()
                let probe = CombiningSupport.ConcurrencyProbe<Int>()
                let subscription = source.take(until: stop).subscribe(probe)
                CombiningSupport.concurrently(2) { index in
                    if index == 0 {
                        for value in 0..<2_000 { source.onNext(value) }
                    } else {
                        stop.onNext(())
                    }
                }
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(probe.events.last, .completed)
                let elements = probe.elements
                XCTAssertTrue(elements == Array(0..<elements.count), "elements out of order")
                subscription.dispose()
            }
        }
    }
}
