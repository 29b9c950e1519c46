import Streams
import StreamsTest
import XCTest

final class TakeTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testTake_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.take(2) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTake_moreThanAvailable() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.take(5) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTake_zeroCompletesWithoutSubscribing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let res = scheduler.start { xs.take(0) }
            XCTAssertEqual(res.events, [.completed(200)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    /// RxSwift stops the program on a negative count; Streams fails the sequence instead.
    func testTake_negativeCountFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let res = scheduler.start { xs.take(-1) }
            XCTAssertEqual(res.events, [.error(200, RxError.argumentOutOfRange)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testTake_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(230, Int.self)])
            let res = scheduler.start { xs.take(1) }
            XCTAssertEqual(res.events, [.completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTake_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.take(1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testTake_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.first, Int.self)])
            let res = scheduler.start { xs.take(3) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testTake_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.take(3) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// The observer feeds the source while receiving: the count still holds.
    func testTake_reentrant() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var events: [Event<Int>] = []
            _ = subject.take(3).subscribe { event in
                events.append(event)
                if case .next(let value) = event, value < 10 { subject.onNext(value + 1) }
            }
            subject.onNext(1)
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testTake_synchronousSource() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.concat(Observable.just(1), Observable.just(2), Observable.just(3)).take(2).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
        }
    }
}
