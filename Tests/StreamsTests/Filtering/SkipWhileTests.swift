import Streams
import StreamsTest
import XCTest

final class SkipWhileTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSkipWhile_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
            let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
            XCTAssertEqual(res.events, [.next(230, 3), .next(240, 1), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSkipWhile_predicateNotCalledAfterFirstFailure() {
        XCTAssertNoLeaks {
            var calls = 0
            let (events, subscription) = collectEvents(
                Observable.of(1, 5, 1, 1).skip(while: {
                    calls += 1; return $0 < 3
                }))
            subscription.dispose()
            XCTAssertEqual(events, [.next(5), .next(1), .next(1), .completed])
            XCTAssertEqual(calls, 2)
        }
    }

    func testSkipWhile_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.skip(while: { _ in true }) }
            XCTAssertEqual(res.events, [.completed(250)])
        }
    }

    func testSkipWhile_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.skip(while: { _ in true }) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSkipWhile_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.skip(while: { _ in true }) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
        }
    }

    func testSkipWhile_predicateThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start {
                xs.skip(while: { value in
                    if value == 2 { throw TestError.selector }
                    return true
                })
            }
            XCTAssertEqual(res.events, [.error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSkipWhile_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 5), .next(260, 6), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.skip(while: { $0 < 3 }) }
            XCTAssertEqual(res.events, [.next(210, 5)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    @available(*, deprecated)
    func testSkipWhile_deprecatedName() {
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable.of(1, 2, 3).skipWhile { $0 < 2 })
            subscription.dispose()
            XCTAssertEqual(events, [.next(2), .next(3), .completed])
        }
    }
}
