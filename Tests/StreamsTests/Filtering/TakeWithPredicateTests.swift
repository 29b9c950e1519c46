import Streams
import StreamsTest
import XCTest

final class TakeWithPredicateTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
    }

    func testTakeWhile_exclusive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.take(while: { $0 < 3 }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTakeWhile_inclusive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.take(while: { $0 < 3 }, behavior: .inclusive) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        }
    }

    func testTakeWhile_allPass() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.take(while: { _ in true }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        }
    }

    func testTakeUntilPredicate_exclusive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.take(until: { $0 == 2 }) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTakeUntilPredicate_inclusive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.take(until: { $0 == 2 }, behavior: .inclusive) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
        }
    }

    func testTakeWhile_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.take(while: { _ in true }) }
            XCTAssertEqual(res.events, [.completed(250)])
        }
    }

    func testTakeWhile_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.take(until: { _ in true }) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testTakeWhile_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.take(while: { _ in true }) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError.first)])
        }
    }

    func testTakeWhile_predicateThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start {
                xs.take(while: { value in
                    if value == 2 { throw TestError.selector }
                    return true
                })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTakeWhile_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start(disposed: 225) { xs.take(while: { _ in true }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        }
    }

    func testTakeWhile_stopsSynchronousSource() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let (events, subscription) = collectEvents(Observable.from(naturals).take(while: { $0 < 3 }))
            subscription.dispose()
            XCTAssertEqual(events, [.next(0), .next(1), .next(2), .completed])
            XCTAssertLessThanOrEqual(naturals.pulled.load(ordering: .relaxed), 5)
        }
    }

    @available(*, deprecated)
    func testTakeWhile_deprecatedNames() {
        XCTAssertNoLeaks {
            let a = collectEvents(Observable.of(1, 2, 3).takeWhile { $0 < 2 })
            let b = collectEvents(Observable.of(1, 2, 3).takeUntil(.inclusive) { $0 == 2 })
            a.subscription.dispose()
            b.subscription.dispose()
            XCTAssertEqual(a.events, [.next(1), .completed])
            XCTAssertEqual(b.events, [.next(1), .next(2), .completed])
        }
    }
}
