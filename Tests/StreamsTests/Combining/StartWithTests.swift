import Streams
import StreamsTest
import XCTest

final class StartWithTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testStartWith_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(250)])
            let res = scheduler.start { xs.startWith(10, 11) }
            XCTAssertEqual(res.events, [.next(200, 10), .next(200, 11), .next(220, 2), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testStartWith_noElements() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .completed(250)])
            let res = scheduler.start { xs.startWith() }
            XCTAssertEqual(res.events, [.next(220, 2), .completed(250)])
        }
    }

    func testStartWith_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.startWith(1) }
            XCTAssertEqual(res.events, [.next(200, 1), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testStartWith_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.startWith(1) }
            XCTAssertEqual(res.events, [.next(200, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testStartWith_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.startWith(1) }
            XCTAssertEqual(res.events, [.next(200, 1), .next(220, 2), .error(250, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testStartWith_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.startWith(1) }
            XCTAssertEqual(res.events, [.next(200, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testStartWith_chained() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.just(3).startWith(2).startWith(0, 1).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(0), .next(1), .next(2), .next(3), .completed])
        }
    }

    /// A downstream that stops early stops the prefix and the source.
    func testStartWith_takeStopsEarly() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var events: [Event<Int>] = []
            _ = subject.startWith(1, 2, 3).take(2).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertFalse(subject.hasObservers)
        }
    }
}
