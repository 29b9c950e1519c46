import Foundation
import XCTest
import Streams
import StreamsTest

/// `merge()` and `merge(maxConcurrent:)` on a sequence of sequences.
final class MergeAllTests: XCTestCase {
    func testMergeAll_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let b = scheduler.createColdObservable([.next(10, 3), .completed(50)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(240)])
            let res = scheduler.start { xs.merge() }
            XCTAssertEqual(res.events, [.next(220, 1), .next(230, 3), .next(310, 2), .completed(320)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 320)])
            XCTAssertEqual(b.subscriptions, [Subscription(220, 270)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        }
    }

    func testMergeAll_maxConcurrentQueues() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let b = scheduler.createColdObservable([.next(10, 3), .completed(50)])
            let c = scheduler.createColdObservable([.next(10, 4), .completed(20)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .next(230, c), .completed(240)])
            let res = scheduler.start { xs.merge(maxConcurrent: 2) }
            XCTAssertEqual(res.events, [.next(220, 1), .next(230, 3), .next(280, 4), .next(310, 2), .completed(320)])
            XCTAssertEqual(c.subscriptions, [Subscription(270, 290)])
        }
    }

    func testMergeAll_maxConcurrentBelowOneFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Observable.just(1)), .completed(240)])
            let res = scheduler.start { xs.merge(maxConcurrent: 0) }
            XCTAssertEqual(res.events, [.error(200, RxError.argumentOutOfRange)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testMergeAll_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Observable<Int>>.empty().merge()).events, [.completed])
            XCTAssertEqual(collectEvents(Observable<Observable<Int>>.empty().merge(maxConcurrent: 3)).events, [.completed])
        }
    }

    func testMergeAll_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Observable<Int>>.never().merge() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testMergeAll_innerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let b = scheduler.createColdObservable([.next(10, 3), .error(20, TransformTestError(), Int.self)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(240)])
            let res = scheduler.start { xs.merge() }
            XCTAssertEqual(res.events, [.next(220, 1), .next(230, 3), .error(240, TransformTestError())])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        }
    }

    func testMergeAll_outerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let xs = scheduler.createHotObservable([.next(210, a), .error(230, TransformTestError(), TestableObservable<Int>.self)])
            let res = scheduler.start { xs.merge(maxConcurrent: 1) }
            XCTAssertEqual(res.events, [.next(220, 1), .error(230, TransformTestError())])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        }
    }

    func testMergeAll_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let xs = scheduler.createHotObservable([.next(210, a), .completed(240)])
            let res = scheduler.start(disposed: 250) { xs.merge() }
            XCTAssertEqual(res.events, [.next(220, 1)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 250)])
        }
    }

    func testMergeAll_synchronous() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(Observable.of(1, 2), .of(3), .empty()).merge()).events
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
        }
    }

    func testMergeAll_maxConcurrentMultiThreadStress() {
        XCTAssertNoLeaks {
            let inners = 200, perInner = 50, limit = 3
            let factory = AsyncInnerFactory()
            let recorder = GrammarRecorder<Int>()
            let subscription = Observable.from(0..<inners)
                .map { factory.make($0, count: perInner) }
                .merge(maxConcurrent: limit)
                .subscribe(recorder)
            recorder.waitForTerminal()
            factory.work.wait()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<inners * perInner))
            XCTAssertLessThanOrEqual(factory.maxActive.load(ordering: .relaxed), limit)
            subscription.dispose()
        }
    }
}
