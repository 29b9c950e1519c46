import Foundation
import Streams
import StreamsTest
import XCTest

final class TakeTimeTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testTakeTime_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        }
    }

    func testTakeTime_sourceCompletesFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testTakeTime_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testTakeTime_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.first, Int.self)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.first)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testTakeTime_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let res = scheduler.start(disposed: 230) { xs.take(for: .seconds(50), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testTakeTime_reentrant() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = source.take(for: .seconds(10), scheduler: scheduler).subscribe { event in
                events.append(event)
                if case .next(1) = event { source.onNext(2) }
            }
            source.onNext(1)
            scheduler.start()
            source.onNext(3)
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertFalse(source.hasObservers)
            subscription.dispose()
        }
    }

    /// The timer's completion races elements sent from two threads.
    func testTakeTime_concurrent() {
        for _ in 0..<10 {
            XCTAssertNoLeaksEventually {
                let source = PublishSubject<Int>()
                let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
                let done = expectation(description: "terminated")
                let observer = ConcurrencyCheckingObserver<Int>(done)
                let subscription = source.take(for: .milliseconds(1), scheduler: scheduler).subscribe(observer)
                // The timer fires on the dispatch queue while this thread sends.
                for value in 0..<2_000 { source.onNext(value) }
                wait(for: [done], timeout: 10)
                observer.assertGrammar()
                let elements = observer.elements
                XCTAssertEqual(elements, Array(0..<elements.count), "elements must be a contiguous prefix")
                XCTAssertEqual(observer.events.last, .completed)
                subscription.dispose()
            }
        }
    }
}
