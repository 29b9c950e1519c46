import Streams
import StreamsTest
import XCTest

final class WithLatestFromTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testWithLatestFrom_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4), .completed(300)])
            let ys = scheduler.createHotObservable([.next(150, 0), .next(220, 10), .next(260, 20), .completed(280)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(230, 12), .next(250, 13), .next(270, 24), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 280)])
        }
    }

    func testWithLatestFrom_noSelector() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(400)])
            let res = scheduler.start { xs.withLatestFrom(ys) }
            XCTAssertEqual(res.events, [.next(230, "a"), .next(250, "b"), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
        }
    }

    func testWithLatestFrom_secondCompletingDoesNotComplete() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(230, 1), .next(500, 2)])
            let ys = scheduler.createHotObservable([.next(210, 10), .completed(220)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(230, 11), .next(500, 12)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        }
    }

    func testWithLatestFrom_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(210, Int.self)])
            let ys = scheduler.createHotObservable([.next(205, 1)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.completed(210)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
        }
    }

    func testWithLatestFrom_secondEmptyDropsEverything() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 1), .next(230, 2), .completed(240)])
            let ys = scheduler.createHotObservable([.completed(210, Int.self)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.completed(240)])
        }
    }

    func testWithLatestFrom_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let ys = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testWithLatestFrom_errorFromFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 1), .error(230, TestError.first, Int.self)])
            let ys = scheduler.createHotObservable([.next(210, 10)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testWithLatestFrom_errorFromSecond() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(210, 10), .error(230, TestError.second, Int.self)])
            let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testWithLatestFrom_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(210, 10)])
            let res = scheduler.start {
                xs.withLatestFrom(ys) { x, y -> Int in
                    if x == 2 { throw TestError.selector }
                    return x + y
                }
            }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testWithLatestFrom_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 1), .next(260, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(210, 10), .completed(400)])
            let res = scheduler.start(disposed: 250) { xs.withLatestFrom(ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        }
    }

    /// `second` is subscribed first, so a value it replays on subscription is used at once.
    func testWithLatestFrom_secondSubscribedFirst() {
        XCTAssertNoLeaks {
            let latest = BehaviorSubject(value: "initial")
            var events: [Event<String>] = []
            _ = Observable.just(1).withLatestFrom(latest) { "\($0)-\($1)" }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.next("1-initial"), .completed])
        }
    }

    func testWithLatestFrom_reentrant() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let second = PublishSubject<String>()
            var received: [String] = []
            let subscription = source.withLatestFrom(second) { "\($0)\($1)" }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == "1a" {
                        second.onNext("b")
                        source.onNext(2)
                    }
                })
            second.onNext("a")
            source.onNext(1)
            source.onNext(3)
            XCTAssertEqual(received, ["1a", "2b", "3b"])
            subscription.dispose()
        }
    }

    /// The source and `second` emit concurrently: serialized delivery, one output per source
    /// element, `second`'s values never go back, one terminal event.
    func testWithLatestFrom_concurrentSources() {
        for useSelector in [true, false] {
            XCTAssertNoLeaks {
                let count = 5_000
                let source = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let probe = CombiningSupport.ConcurrencyProbe<[Int]>()
                let combined: Observable<[Int]> =
                    useSelector
                    ? source.withLatestFrom(second) { [$0, $1] }
                    : source.withLatestFrom(second.map { [0, $0] })
                let subscription = combined.subscribe(probe)
                second.onNext(0)
                CombiningSupport.concurrently(2) { index in
                    if index == 0 {
                        for value in 1...count { source.onNext(value) }
                    } else {
                        for value in 1...count { second.onNext(value) }
                        second.onCompleted()
                    }
                }
                source.onCompleted()
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(probe.events.last, .completed)
                let elements = probe.elements
                XCTAssertEqual(elements.count, count)
                if useSelector {
                    XCTAssertTrue(elements.map { $0[0] } == Array(1...count), "source elements out of order")
                }
                let seconds = elements.map { $0[1] }
                XCTAssertFalse(zip(seconds, seconds.dropFirst()).contains { $0 > $1 }, "second went back in time")
                subscription.dispose()
            }
        }
    }
}
