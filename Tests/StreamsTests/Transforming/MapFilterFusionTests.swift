import Streams
import StreamsTest
import XCTest

/// `map(_:)` followed by `filter(_:)` runs as one fused stage (see the Performance article,
/// "Operator fusion"); these tests pin that it behaves exactly as the two stages did.
final class MapFilterFusionTests: XCTestCase {
    func testMapFilter_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300)])
            let res = scheduler.start { xs.map { $0 * 10 }.filter { $0 % 20 == 0 } }
            XCTAssertEqual(res.events, [.next(210, 20), .next(230, 40), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMapFilter_changesType() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 22), .next(230, 333), .completed(300)])
            let res = scheduler.start { xs.map { String($0) }.filter { $0.count != 2 } }
            XCTAssertEqual(res.events, [.next(210, "1"), .next(230, "333"), .completed(300)])
        }
    }

    func testMapFilter_callOrder() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            var calls: [String] = []
            let res = scheduler.start {
                xs.map { value -> Int in
                    calls.append("map \(value)")
                    return value * 10
                }
                .filter { value in
                    calls.append("filter \(value)")
                    return value > 10
                }
            }
            XCTAssertEqual(calls, ["map 1", "filter 10", "map 2", "filter 20"])
            XCTAssertEqual(res.events, [.next(220, 20), .completed(300)])
        }
    }

    func testMapFilter_upstreamError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TransformTestError()), .next(260, 4)])
            let res = scheduler.start { xs.map { $0 * 10 }.filter { _ in true } }
            XCTAssertEqual(res.events, [.next(210, 20), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMapFilter_transformThrows_predicateNotCalled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            var tested: [Int] = []
            let res = scheduler.start {
                xs.map { value -> Int in
                    if value == 2 { throw TransformTestError(tag: 2) }
                    return value
                }
                .filter { value in
                    tested.append(value)
                    return true
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError(tag: 2))])
            XCTAssertEqual(tested, [1])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMapFilter_predicateThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            var mapped: [Int] = []
            let res = scheduler.start {
                xs.map { value -> Int in
                    mapped.append(value)
                    return value * 10
                }
                .filter { value in
                    if value == 20 { throw TransformTestError(tag: 20) }
                    return true
                }
            }
            XCTAssertEqual(res.events, [.next(210, 10), .error(220, TransformTestError(tag: 20))])
            XCTAssertEqual(mapped, [1, 2])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMapFilter_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.map { $0 + 1 }.filter { _ in true } }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// Unfused, a `transform` that disposes the subscription stops the `map` stage before it
    /// forwards: the `filter` stage never sees that element.
    func testMapFilter_transformDisposesReentrantly_predicateNotCalled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var tested: [Int] = []
            var subscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                subscription = xs.map { value -> Int in
                    if value == 2 { subscription?.dispose() }
                    return value * 10
                }
                .filter { value in
                    tested.append(value)
                    return true
                }
                .subscribe(observer)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 10)])
            XCTAssertEqual(tested, [10])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMapFilter_predicateDisposesReentrantly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var mapped: [Int] = []
            var subscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                subscription = xs.map { value -> Int in
                    mapped.append(value)
                    return value * 10
                }
                .filter { value in
                    if value == 20 { subscription?.dispose() }
                    return true
                }
                .subscribe(observer)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 10)])
            XCTAssertEqual(mapped, [1, 2])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    /// An observer that feeds the source again while an element is being delivered sees the
    /// nested element mapped and filtered, in the order the unfused stages delivered them.
    func testMapFilter_reentrantSend() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.map { $0 + 1 }.filter { $0 != 3 }.subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subject.onNext(3) }
            })
            subject.onNext(1)
            subject.onNext(2)
            subscription.dispose()
            XCTAssertEqual(received, [2, 4])
        }
    }

    /// The `map` stage stays usable on its own and under several fused `filter`s.
    func testMapFilter_sharedMapStage() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let mapped = xs.map { $0 * 10 }
            let evens = scheduler.createObserver(Int.self)
            let odds = scheduler.createObserver(Int.self)
            let all = scheduler.createObserver(Int.self)
            _ = scheduler.scheduleAt(200) {
                _ = mapped.filter { $0 % 20 == 0 }.subscribe(evens)
                _ = mapped.filter { $0 % 20 != 0 }.subscribe(odds)
                _ = mapped.subscribe(all)
            }
            scheduler.start()
            XCTAssertEqual(evens.events, [.next(220, 20), .completed(300)])
            XCTAssertEqual(odds.events, [.next(210, 10), .next(230, 30), .completed(300)])
            XCTAssertEqual(all.events, [.next(210, 10), .next(220, 20), .next(230, 30), .completed(300)])
            XCTAssertEqual(xs.subscriptions.count, 3)
        }
    }

    /// The fused stage is one sink where the unfused chain had two; the count returns to its
    /// baseline on disposal as before.
    func testMapFilter_oneSinkPerSubscription() {
        let subject = PublishSubject<Int>()
        let baseline = Resources.total
        let subscription = subject.map { $0 + 1 }.filter { _ in true }.subscribe(onNext: { _ in })
        XCTAssertEqual(Resources.total - baseline, 1)
        XCTAssertEqual(Resources.liveCounts.keys.filter { $0.hasPrefix("MapFilterSink<") }.count, 1)
        subscription.dispose()
        XCTAssertEqual(Resources.total, baseline)
    }
}
