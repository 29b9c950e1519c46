import XCTest
import Streams
import StreamsTest

final class RangeTests: XCTestCase {
    func testRange_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.range(start: 3, count: 4) }
            XCTAssertEqual(res.events, [.next(200, 3), .next(200, 4), .next(200, 5), .next(200, 6), .completed(200)])
        }
    }

    func testRange_zeroCount() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.range(start: 10, count: 0)).events, [.completed])
        }
    }

    func testRange_negativeCountFails() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.range(start: 0, count: -1)).events, [.error(RxError.argumentOutOfRange)])
        }
    }

    func testRange_overflowFails() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int8>.range(start: 120, count: 9)).events, [.error(RxError.overflow)])
        }
    }

    func testRange_upToMaxDoesNotOverflow() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable<Int8>.range(start: 125, count: 3)).events
            XCTAssertEqual(events, [.next(125), .next(126), .next(127), .completed])
        }
    }

    func testRange_negativeStart() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.range(start: -2, count: 3)).events
            XCTAssertEqual(events, [.next(-2), .next(-1), .next(0), .completed])
        }
    }

    func testRange_scheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.range(start: 0, count: 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2), .completed(204)])
        }
    }

    func testRange_schedulerNegativeCountFailsOnScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.range(start: 0, count: -5, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.error(201, RxError.argumentOutOfRange)])
        }
    }

    func testRange_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 203) { Observable.range(start: 0, count: 100, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
        }
    }

    func testRange_hugeRangeStopsWhenDownstreamStops() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.range(start: 0, count: Int.max).firstElements(2)).events
            XCTAssertEqual(events, [.next(0), .next(1), .completed])
        }
    }
}
