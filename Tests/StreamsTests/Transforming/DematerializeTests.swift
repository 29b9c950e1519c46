import XCTest
import Streams
import StreamsTest

final class DematerializeTests: XCTestCase {
    func testDematerialize_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, Event.next(1)), .next(220, Event.next(2)), .next(230, Event<Int>.completed), .next(240, Event.next(3)),
            ])
            let res = scheduler.start { xs.dematerialize() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testDematerialize_errorElementFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .next(220, Event<Int>.error(TransformTestError())), .completed(300)])
            let res = scheduler.start { xs.dematerialize() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDematerialize_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Event<Int>>.empty().dematerialize()).events, [.completed])
        }
    }

    func testDematerialize_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Event<Int>>.never().dematerialize() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testDematerialize_sourceError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .error(220, TransformTestError(tag: 3), Event<Int>.self)])
            let res = scheduler.start { xs.dematerialize() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TransformTestError(tag: 3))])
        }
    }

    func testDematerialize_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .next(260, Event.next(2)), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.dematerialize() }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
