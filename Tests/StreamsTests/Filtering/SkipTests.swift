import Streams
import StreamsTest
import XCTest

final class SkipTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSkip_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.skip(2) }
            XCTAssertEqual(res.events, [.next(230, 3), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSkip_zeroAndNegativeSkipNothing() {
        XCTAssertNoLeaks {
            for count in [0, -3] {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
                let res = scheduler.start { xs.skip(count) }
                XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            }
        }
    }

    func testSkip_moreThanAvailable() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.skip(5) }
            XCTAssertEqual(res.events, [.completed(300)])
        }
    }

    func testSkip_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.skip(1) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testSkip_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.skip(1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSkip_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError.first, Int.self)])
            let res = scheduler.start { xs.skip(1) }
            XCTAssertEqual(res.events, [.next(220, 2), .error(230, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testSkip_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.skip(1) }
            XCTAssertEqual(res.events, [.next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testSkip_reentrant() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.skip(1).subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subject.onNext(3) }
            })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(received, [2, 3])
            subscription.dispose()
        }
    }
}
