import Streams
import StreamsTest
import XCTest

final class RepeatTests: XCTestCase {
    func testRepeatElement_synchronousWithTake() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.repeatElement(7).take(3).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(7), .next(7), .next(7), .completed])
        }
    }

    func testRepeatElement_onScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 204) { Observable.repeatElement(42, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 42), .next(202, 42), .next(203, 42)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    /// Stops when a downstream operator fails, too.
    func testRepeatElement_stopsWhenDownstreamFails() {
        struct Failure: Error {}
        XCTAssertNoLeaks {
            var count = 0
            var events: [Event<Int>] = []
            _ = Observable.repeatElement(1).map { value -> Int in
                count += 1
                if count == 5 { throw Failure() }
                return value
            }.subscribe { events.append($0) }
            XCTAssertEqual(events.count, 5)
            XCTAssertEqual(events.last?.isStopEvent, true)
            XCTAssertEqual(count, 5)
        }
    }

    func testRepeatElement_disposeMidStreamWithTakeUntil() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let stop = scheduler.createHotObservable([.next(203, ())])
            let res = scheduler.start { Observable.repeatElement("a", scheduler: scheduler).take(until: stop) }
            XCTAssertEqual(res.events, [.next(201, "a"), .next(202, "a"), .completed(203)])
        }
    }
}
