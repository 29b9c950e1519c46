import XCTest
import Streams
import StreamsTest

final class MapTests: XCTestCase {
    func testMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(210, 20), .next(220, 30), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMap_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMap_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testMap_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TransformTestError())])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(210, 20), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMap_transformThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start {
                xs.map { value -> Int in
                    if value == 2 { throw TransformTestError(tag: 2) }
                    return value
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError(tag: 2))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMap_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.map { $0 + 1 } }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
