import Streams
import StreamsTest
import XCTest

final class TakeLastTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testTakeLast_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
            let res = scheduler.start { xs.takeLast(2) }
            XCTAssertEqual(res.events, [.next(300, 3), .next(300, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testTakeLast_fewerThanCount() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.takeLast(5) }
            XCTAssertEqual(res.events, [.next(300, 1), .next(300, 2), .completed(300)])
        }
    }

    func testTakeLast_zero() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start { xs.takeLast(0) }
            XCTAssertEqual(res.events, [.completed(300)])
        }
    }

    func testTakeLast_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.takeLast(1) }
            XCTAssertEqual(res.events, [.completed(250)])
        }
    }

    func testTakeLast_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let res = scheduler.start { xs.takeLast(1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testTakeLast_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let res = scheduler.start { xs.takeLast(1) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
        }
    }

    func testTakeLast_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.takeLast(1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// Disposing from inside the observer stops the flush.
    func testTakeLast_reentrantDispose() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let disposable = SingleAssignmentDisposable()
            disposable.setDisposable(
                subject.takeLast(3).subscribe(onNext: { value in
                    received.append(value)
                    disposable.dispose()
                }))
            for value in 1...5 { subject.onNext(value) }
            subject.onCompleted()
            XCTAssertEqual(received, [3])
        }
    }
}
