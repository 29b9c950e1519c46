import Streams
import StreamsTest
import XCTest

final class IgnoreElementsTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testIgnoreElements_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.ignoreElements() }
            XCTAssertEqual(res.events, [.completed(300, Never.self)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testIgnoreElements_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.ignoreElements() }
            XCTAssertEqual(res.events, [.completed(250, Never.self)])
        }
    }

    func testIgnoreElements_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.ignoreElements() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testIgnoreElements_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.ignoreElements() }
            XCTAssertEqual(res.events, [.error(250, TestError.first, Never.self)])
        }
    }

    func testIgnoreElements_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.ignoreElements() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
