import XCTest
import Streams
import StreamsTest

final class JustTests: XCTestCase {
    func testJust_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(42) }
            XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])
        }
    }

    func testJust_eachSubscriptionGetsTheElement() {
        XCTAssertNoLeaks {
            let just = Observable.just("a")
            XCTAssertEqual(collectEvents(just).events, [.next("a"), .completed])
            XCTAssertEqual(collectEvents(just).events, [.next("a"), .completed])
        }
    }

    func testJust_scheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
        }
    }

    func testJust_schedulerDisposedBeforeEmitting() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 200) { Observable.just(42, scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
        }
    }

    func testJust_schedulerDisposedMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 202) { Observable.just(42, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 42)])
        }
    }

    func testEmpty_completes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.empty() }
            XCTAssertEqual(res.events, [.completed(200)])
        }
    }

    func testNever_emitsNothing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.never() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testError_fails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.error(TransformTestError(tag: 7)) }
            XCTAssertEqual(res.events, [.error(200, TransformTestError(tag: 7))])
        }
    }

    func testJust_downstreamStopsAfterFirst() {
        XCTAssertNoLeaks {
            let (events, _) = collectEvents(Observable.just(1).firstElements(0))
            XCTAssertEqual(events, [.completed])
        }
    }
}
