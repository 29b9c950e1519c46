import Streams
import StreamsInspector
import StreamsTest
import XCTest

/// `filter(_:)` followed by `filter(_:)` runs as one fused stage (see the Performance article,
/// "Operator fusion"); these tests pin that it behaves exactly as the two stages did.
final class FilterFilterFusionTests: XCTestCase {
    func testFilterFilter_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 6), .completed(300)])
            let res = scheduler.start { xs.filter { $0 % 2 == 0 }.filter { $0 % 3 != 0 } }
            XCTAssertEqual(res.events, [.next(210, 2), .next(230, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testFilterFilter_callOrder_secondOnlyForWhatPassesFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            var calls: [String] = []
            let res = scheduler.start {
                xs.filter { value in
                    calls.append("first \(value)")
                    return value != 2
                }
                .filter { value in
                    calls.append("second \(value)")
                    return value != 3
                }
            }
            XCTAssertEqual(calls, ["first 1", "second 1", "first 2", "first 3", "second 3"])
            XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
        }
    }

    func testFilterFilter_firstThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            var tested: [Int] = []
            let res = scheduler.start {
                xs.filter { value in
                    if value == 2 { throw TransformTestError(tag: 2) }
                    return true
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

    func testFilterFilter_secondThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start {
                xs.filter { _ in true }.filter { value in
                    if value == 2 { throw TransformTestError(tag: 2) }
                    return true
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError(tag: 2))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFilterFilter_upstreamErrorAndDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TransformTestError())])
            let res = scheduler.start { xs.filter { _ in true }.filter { _ in true } }
            XCTAssertEqual(res.events, [.next(210, 2), .error(250, TransformTestError())])
            let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2), .completed(1300)])
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.filter { _ in true }.filter { _ in true } }
            XCTAssertEqual(disposed.events, [.next(1210, 1)])
            XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
        }
    }

    /// Unfused, a first predicate that disposes the subscription stops the first stage before
    /// it forwards: the second predicate never sees that element.
    func testFilterFilter_firstDisposesReentrantly_secondNotCalled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var tested: [Int] = []
            var subscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                subscription = xs.filter { value in
                    if value == 2 { subscription?.dispose() }
                    return true
                }
                .filter { value in
                    tested.append(value)
                    return true
                }
                .subscribe(observer)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 1)])
            XCTAssertEqual(tested, [1])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFilterFilter_oneSinkPerSubscription() {
        let subject = PublishSubject<Int>()
        let baseline = Resources.total
        let subscription = subject.filter { _ in true }.filter { _ in true }.subscribe(onNext: { _ in })
        XCTAssertEqual(Resources.total - baseline, 1)
        XCTAssertEqual(Resources.liveCounts.keys.filter { $0.hasPrefix("FilterFilterSink<") }.count, 1)
        subscription.dispose()
        XCTAssertEqual(Resources.total, baseline)
    }
}

#if Inspector
/// A fused chain built before the inspector starts and subscribed while it records shows the
/// operators as written.
final class FusionInspectorTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    func testInspector_showsFusedPairsAsWritten() throws {
        let subject = PublishSubject<Int>()
        let chain = subject.map { $0 + 1 }.filter { $0 > 0 }.filter { $0 < 100 }.filter { $0 != 50 }.named("fused")
        Inspector.start()
        let subscription = chain.subscribe(onNext: { _ in })
        subject.onNext(1)
        let recorded = try XCTUnwrap(Inspector.snapshot().chains.first)
        XCTAssertEqual(recorded.operators.map(\.name), ["named", "filter", "filter", "filter", "map", "PublishSubject"])
        XCTAssertEqual(Inspector.events().filter { $0.operatorName == "map" }.map(\.value), ["2"])
        XCTAssertEqual(Inspector.events().filter { $0.operatorName == "filter" }.map(\.value), ["2", "2", "2"])
        subscription.dispose()
    }
}
#endif
