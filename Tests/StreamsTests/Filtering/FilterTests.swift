import Streams
import StreamsTest
import XCTest

final class FilterTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testFilter_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
            let res = scheduler.start { xs.filter { $0.isMultiple(of: 2) } }
            XCTAssertEqual(res.events, [.next(220, 2), .next(240, 4), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testFilter_emptyAndNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.completed(250, Int.self)])
            let never = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.merge(empty.filter { _ in true }, never.filter { _ in true }) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(empty.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testFilter_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError.first, Int.self)])
            let res = scheduler.start { xs.filter { $0 > 1 } }
            XCTAssertEqual(res.events, [.next(210, 2), .error(220, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFilter_predicateThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
            let res = scheduler.start {
                xs.filter { value -> Bool in
                    if value == 2 { throw TestError.selector }
                    return true
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFilter_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 4), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.filter { _ in true } }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testFilter_reentrant() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.filter { $0 > 0 }.subscribe(onNext: { value in
                received.append(value)
                if value == 1 {
                    subject.onNext(0)
                    subject.onNext(2)
                }
            })
            subject.onNext(1)
            XCTAssertEqual(received, [1, 2])
            subscription.dispose()
        }
    }
}
