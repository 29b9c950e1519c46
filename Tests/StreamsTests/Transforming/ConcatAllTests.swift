import XCTest
import Streams
import StreamsTest

/// `concat()` on a sequence of sequences.
final class ConcatAllTests: XCTestCase {
    func testConcatAll_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let b = scheduler.createColdObservable([.next(5, 3), .completed(10)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(215, b), .completed(220)])
            let res = scheduler.start { xs.concat() }
            XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .next(245, 3), .completed(250)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
            XCTAssertEqual(b.subscriptions, [Subscription(240, 250)])
        }
    }

    func testConcatAll_waitsForOuterCompletion() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let xs = scheduler.createHotObservable([.next(210, a), .completed(400)])
            let res = scheduler.start { xs.concat() }
            XCTAssertEqual(res.events, [.next(220, 1), .completed(400)])
        }
    }

    func testConcatAll_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Observable<Int>>.empty().concat()).events, [.completed])
        }
    }

    func testConcatAll_never() {
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable.of(Observable<Int>.never(), .just(1)).concat())
            XCTAssertEqual(events, [])
            subscription.dispose()
        }
    }

    func testConcatAll_error() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(Observable.just(1), .error(TransformTestError()), .just(2)).concat()).events
            XCTAssertEqual(events, [.next(1), .error(TransformTestError())])
        }
    }

    func testConcatAll_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
            let b = scheduler.createColdObservable([.next(10, 3), .completed(20)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(230)])
            let res = scheduler.start(disposed: 250) { xs.concat() }
            XCTAssertEqual(res.events, [.next(220, 1)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 250)])
            XCTAssertEqual(b.subscriptions, [])
        }
    }

    func testConcatAll_synchronousOrder() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(Observable.of(1, 2), .of(3, 4)).concat()).events
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .next(4), .completed])
        }
    }
}
