import XCTest
import Streams
import StreamsTest

final class OptionalTests: XCTestCase {
    func testFromOptional_some() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.from(optional: 5) }
            XCTAssertEqual(res.events, [.next(200, 5), .completed(200)])
        }
    }

    func testFromOptional_none() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.from(optional: nil)).events, [.completed])
        }
    }

    func testFromOptional_schedulerSome() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.from(optional: 5, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 5), .completed(202)])
        }
    }

    func testFromOptional_schedulerNone() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.from(optional: nil, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(201)])
        }
    }

    func testFromOptional_schedulerDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 202) { Observable.from(optional: 5, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 5)])
        }
    }
}
