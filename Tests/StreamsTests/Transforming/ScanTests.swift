import XCTest
import Streams
import StreamsTest

final class ScanTests: XCTestCase {
    func testScan_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 100), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.scan(10) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(210, 11), .next(220, 13), .next(230, 16), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testScan_into() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }
            XCTAssertEqual(res.events, [.next(210, [1]), .next(220, [1, 2]), .completed(300)])
        }
    }

    func testScan_seedIsFreshPerSubscription() {
        XCTAssertNoLeaks {
            let source = Observable.of(1, 2).scan(into: [Int]()) { $0.append($1) }
            XCTAssertEqual(collectEvents(source).events, [.next([1]), .next([1, 2]), .completed])
            XCTAssertEqual(collectEvents(source).events, [.next([1]), .next([1, 2]), .completed])
        }
    }

    func testScan_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start { xs.scan(0, accumulator: +) }
            XCTAssertEqual(res.events, [.completed(300)])
        }
    }

    func testScan_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.never().scan(0, accumulator: +) }
            XCTAssertEqual(res.events, [])
        }
    }

    func testScan_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TransformTestError(), Int.self)])
            let res = scheduler.start { xs.scan(0, accumulator: +) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testScan_accumulatorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start {
                xs.scan(0) { sum, value in
                    if value == 2 { throw TransformTestError() }
                    return sum + value
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testScan_intoAccumulatorThrows() {
        XCTAssertNoLeaks {
            let source = Observable.of(1, 2, 3).scan(into: 0) { sum, value in
                if value == 3 { throw TransformTestError() }
                sum += value
            }
            XCTAssertEqual(collectEvents(source).events, [.next(1), .next(3), .error(TransformTestError())])
        }
    }

    func testScan_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.scan(0, accumulator: +) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
