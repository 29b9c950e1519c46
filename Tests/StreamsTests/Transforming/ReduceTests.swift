import Streams
import StreamsTest
import XCTest

final class ReduceTests: XCTestCase {
    func testReduce_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300)])
            let res = scheduler.start { xs.reduce(10, accumulator: +) }
            XCTAssertEqual(res.events, [.next(300, 19), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testReduce_mapResult() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(300)])
            let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
            XCTAssertEqual(res.events, [.next(300, "sum 5"), .completed(300)])
        }
    }

    func testReduce_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.reduce(7, accumulator: +) }
            XCTAssertEqual(res.events, [.next(250, 7), .completed(250)])
        }
    }

    func testReduce_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.reduce(0, accumulator: +) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testReduce_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TransformTestError(), Int.self)])
            let res = scheduler.start { xs.reduce(0, accumulator: +) }
            XCTAssertEqual(res.events, [.error(250, TransformTestError())])
        }
    }

    func testReduce_accumulatorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start {
                xs.reduce(0) { acc, x in
                    if x == 2 { throw TransformTestError(tag: 2) }
                    return acc + x
                }
            }
            XCTAssertEqual(res.events, [.error(220, TransformTestError(tag: 2))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testReduce_mapResultThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start {
                xs.reduce(0, accumulator: +, mapResult: { (_: Int) -> Int in throw TransformTestError(tag: 3) })
            }
            XCTAssertEqual(res.events, [.error(300, TransformTestError(tag: 3))])
        }
    }

    func testReduce_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.reduce(0, accumulator: +) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testReduce_synchronousSource() {
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable.of(1, 2, 3).reduce(0, accumulator: +))
            subscription.dispose()
            XCTAssertEqual(events, [.next(6), .completed])
        }
    }
}
