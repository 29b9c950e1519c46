import XCTest
import Streams
import StreamsTest

final class DeferredTests: XCTestCase {
    func testDeferred_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var calls = 0
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let res = scheduler.start {
                Observable<Int>.deferred {
                    calls += 1
                    return xs.asObservable()
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(calls, 1)
        }
    }

    func testDeferred_factoryRunsPerSubscription() {
        XCTAssertNoLeaks {
            var calls = 0
            let source = Observable<Int>.deferred {
                calls += 1
                return .just(calls)
            }
            XCTAssertEqual(calls, 0)
            XCTAssertEqual(collectEvents(source).events, [.next(1), .completed])
            XCTAssertEqual(collectEvents(source).events, [.next(2), .completed])
        }
    }

    func testDeferred_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.deferred { .empty() }).events, [.completed])
        }
    }

    func testDeferred_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.deferred { .never() } }
            XCTAssertEqual(res.events, [])
        }
    }

    func testDeferred_error() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable<Int>.deferred { .error(TransformTestError(tag: 1)) }).events
            XCTAssertEqual(events, [.error(TransformTestError(tag: 1))])
        }
    }

    func testDeferred_factoryThrows() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable<Int>.deferred { throw TransformTestError(tag: 2) }).events
            XCTAssertEqual(events, [.error(TransformTestError(tag: 2))])
        }
    }

    func testDeferred_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
            let res = scheduler.start(disposed: 250) { Observable<Int>.deferred { xs.asObservable() } }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
