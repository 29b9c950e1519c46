import Streams
import StreamsTest
import XCTest

final class ElementAtTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testElementAt_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.element(at: 1) }
            XCTAssertEqual(res.events, [.next(220, 2), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testElementAt_first() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.element(at: 0) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        }
    }

    func testElementAt_outOfRange() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.element(at: 2) }
            XCTAssertEqual(res.events, [.error(300, RxError.argumentOutOfRange)])
        }
    }

    func testElementAt_negativeIndex() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start { xs.element(at: -1) }
            XCTAssertEqual(res.events, [.error(200, RxError.argumentOutOfRange)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testElementAt_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.element(at: 0) }
            XCTAssertEqual(res.events, [.error(250, RxError.argumentOutOfRange)])
        }
    }

    func testElementAt_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.element(at: 3) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testElementAt_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.element(at: 3) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
        }
    }

    func testElementAt_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.element(at: 1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testElementAt_stopsSynchronousSource() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let (events, subscription) = collectEvents(Observable.from(naturals).element(at: 2))
            subscription.dispose()
            XCTAssertEqual(events, [.next(2), .completed])
            XCTAssertLessThanOrEqual(naturals.pulled.load(ordering: .relaxed), 4)
        }
    }

    @available(*, deprecated)
    func testElementAt_deprecatedName() {
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable.of(1, 2, 3).elementAt(2))
            subscription.dispose()
            XCTAssertEqual(events, [.next(3), .completed])
        }
    }
}
