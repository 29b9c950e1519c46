import XCTest
import Streams
import StreamsTest

final class CompactMapTests: XCTestCase {
    func testCompactMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300)])
            let res = scheduler.start { xs.compactMap { Int($0) } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testCompactMap_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, String.self)])
            let res = scheduler.start { xs.compactMap { Int($0) } }
            XCTAssertEqual(res.events, [.completed(300)])
        }
    }

    func testCompactMap_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<String>>]())
            let res = scheduler.start { xs.compactMap { Int($0) } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testCompactMap_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "1"), .error(220, TransformTestError(), String.self)])
            let res = scheduler.start { xs.compactMap { Int($0) } }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testCompactMap_transformThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start {
                xs.compactMap { value -> Int? in
                    if value == 2 { throw TransformTestError() }
                    return nil
                }
            }
            XCTAssertEqual(res.events, [.error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testCompactMap_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.compactMap { $0 } }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
