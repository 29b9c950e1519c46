import Streams
import StreamsTest
import XCTest

final class SingleElementTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSingle_oneElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(300)])
            let res = scheduler.start { xs.single() }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSingle_moreThanOne() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.single() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, RxError.moreThanOneElement)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSingle_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.single() }
            XCTAssertEqual(res.events, [.error(250, RxError.noElements)])
        }
    }

    func testSingle_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.single() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSingle_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.single() }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
        }
    }

    func testSingle_predicate() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.single { $0 % 2 == 0 } }
            XCTAssertEqual(res.events, [.next(220, 2), .completed(300)])
        }
    }

    func testSingle_predicateMoreThanOne() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
            let res = scheduler.start { xs.single { $0 % 2 == 0 } }
            XCTAssertEqual(res.events, [.next(220, 2), .error(240, RxError.moreThanOneElement)])
        }
    }

    func testSingle_predicateNoMatch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.single { $0 % 2 == 0 } }
            XCTAssertEqual(res.events, [.error(300, RxError.noElements)])
        }
    }

    func testSingle_predicateThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start {
                xs.single { value in
                    if value == 2 { throw TestError.selector }
                    return false
                }
            }
            XCTAssertEqual(res.events, [.error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSingle_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.single() }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
