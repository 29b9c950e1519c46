import XCTest
import Streams
import StreamsTest

final class MaterializeTests: XCTestCase {
    func testMaterialize_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.materialize() }
            XCTAssertEqual(res.events, [.next(210, Event.next(1)), .next(220, Event.next(2)), .next(300, Event.completed), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMaterialize_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.empty().materialize()).events, [.next(.completed), .completed])
        }
    }

    func testMaterialize_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.never().materialize() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testMaterialize_errorBecomesElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TransformTestError(), Int.self)])
            let res = scheduler.start { xs.materialize() }
            XCTAssertEqual(res.events, [.next(210, Event.next(1)), .next(250, Event.error(TransformTestError())), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMaterialize_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.materialize() }
            XCTAssertEqual(res.events, [.next(210, Event.next(1))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMaterialize_roundTrip() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(1, 2, 3).materialize().dematerialize()).events
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
        }
    }
}
