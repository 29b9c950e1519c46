import XCTest
import Streams
import StreamsTest

final class FilterNilTests: XCTestCase {
    func testFilterNil_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Int?.some(1)), .next(220, nil), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.filterNil() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testFilterNil_typeIsUnwrapped() {
        XCTAssertNoLeaks {
            let source: Observable<String?> = .of("a", nil, "b")
            let unwrapped: Observable<String> = source.filterNil()
            XCTAssertEqual(collectEvents(unwrapped).events, [.next("a"), .next("b"), .completed])
        }
    }

    func testFilterNil_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int?>.of(nil, nil).filterNil()).events, [.completed])
        }
    }

    func testFilterNil_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int?>.never().filterNil() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testFilterNil_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Int?.some(1)), .error(220, TransformTestError(), Int?.self)])
            let res = scheduler.start { xs.filterNil() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFilterNil_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Int?.some(1)), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.filterNil() }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
