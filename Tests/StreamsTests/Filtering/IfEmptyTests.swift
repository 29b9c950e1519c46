import Streams
import StreamsTest
import XCTest

final class IfEmptyTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testIfEmptyDefault_nonEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.ifEmpty(default: 9) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testIfEmptyDefault_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.ifEmpty(default: 9) }
            XCTAssertEqual(res.events, [.next(250, 9), .completed(250)])
        }
    }

    func testIfEmptyDefault_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.ifEmpty(default: 9) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testIfEmptyDefault_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.ifEmpty(default: 9) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
        }
    }

    func testIfEmptyDefault_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start(disposed: 250) { xs.ifEmpty(default: 9) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testIfEmptySwitchTo_nonEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 7), .completed(20)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
            XCTAssertEqual(ys.subscriptions, [])
        }
    }

    func testIfEmptySwitchTo_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 7), .next(20, 8), .completed(30)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(260, 7), .next(270, 8), .completed(280)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(250, 280)])
        }
    }

    func testIfEmptySwitchTo_otherFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let ys = scheduler.createColdObservable([.error(10, TestError.second, Int.self)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [.error(260, TestError.second)])
        }
    }

    func testIfEmptySwitchTo_sourceError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.error(250, TestError.first, Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 7)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
            XCTAssertEqual(ys.subscriptions, [])
        }
    }

    func testIfEmptySwitchTo_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let ys = scheduler.createColdObservable([.next(10, 7)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testIfEmptySwitchTo_disposeWhileSwitched() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 7), .next(100, 8)])
            let res = scheduler.start(disposed: 300) { xs.ifEmpty(switchTo: ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(260, 7)])
            XCTAssertEqual(ys.subscriptions, [Subscription(250, 300)])
        }
    }

    func testIfEmptySwitchTo_synchronousSources() {
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable<Int>.empty().ifEmpty(switchTo: Observable.of(1, 2)))
            subscription.dispose()
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
        }
    }
}
