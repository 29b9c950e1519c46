import Foundation
import Streams
import StreamsTest
import XCTest

final class SkipTimeTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSkipTime_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(215, 2), .next(220, 3), .next(230, 4), .completed(300)])
            let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(220, 3), .next(230, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSkipTime_zero() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
        }
    }

    func testSkipTime_completesDuringWindow() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(220)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testSkipTime_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.skip(.seconds(10), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSkipTime_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(215, TestError.first, Int.self)])
            let res = scheduler.start { xs.skip(.seconds(10), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.error(215, TestError.first)])
        }
    }

    func testSkipTime_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.skip(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(240, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// The timer (on a dispatch queue) races elements sent from another thread.
    func testSkipTime_concurrent() {
        for _ in 0..<10 {
            XCTAssertNoLeaksEventually {
                let source = PublishSubject<Int>()
                let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
                let done = expectation(description: "terminated")
                let observer = ConcurrencyCheckingObserver<Int>(done)
                let subscription = source.skip(.milliseconds(1), scheduler: scheduler).subscribe(observer)
                // The timer fires on the dispatch queue while this thread sends.
                for value in 0..<2_000 { source.onNext(value) }
                source.onCompleted()
                wait(for: [done], timeout: 10)
                observer.assertGrammar()
                let elements = observer.elements
                if let first = elements.first {
                    XCTAssertEqual(elements, Array(first..<2_000), "elements must be a contiguous suffix")
                }
                subscription.dispose()
            }
        }
    }
}
