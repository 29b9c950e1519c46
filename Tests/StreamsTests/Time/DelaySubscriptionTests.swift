import Foundation
import Streams
import StreamsTest
import XCTest

private enum DelaySubscriptionError: Error, Equatable { case failed }

final class DelaySubscriptionTests: XCTestCase {
    func testDelaySubscription_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
            let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(280, 42), .next(290, 43), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    /// A hot source: elements before the delayed subscription are missed.
    func testDelaySubscription_hotSourceMissesEarlyElements() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(240, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
        }
    }

    func testDelaySubscription_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .error(70, DelaySubscriptionError.failed)])
            let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(280, 42), .error(300, DelaySubscriptionError.failed)])
            XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
        }
    }

    func testDelaySubscription_emptyAndNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createColdObservable([.completed(10, Int.self)])
            let res = scheduler.start { empty.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(240)])
            let virtual = TestScheduler(initialClock: 0)
            let never = virtual.createColdObservable([Recorded<Event<Int>>]())
            let res2 = virtual.start { never.delaySubscription(.seconds(30), scheduler: virtual) }
            XCTAssertEqual(res2.events, [])
            XCTAssertEqual(never.subscriptions, [Subscription(230, 1000)])
        }
    }

    func testDelaySubscription_disposeBeforeSubscribing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .completed(70)])
            let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testDelaySubscription_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
            let res = scheduler.start(disposed: 285) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(280, 42)])
            XCTAssertEqual(xs.subscriptions, [Subscription(230, 285)])
        }
    }

    /// On a real scheduler the source is subscribed on the scheduler, after the delay.
    func testDelaySubscription_realScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "delaySubscription")
            let result = Observable.of(1, 2, 3).delaySubscription(.milliseconds(20), scheduler: scheduler)
                .toBlocking(timeout: 5).materialize()
            guard case .completed(let elements) = result else { return XCTFail("\(result)") }
            XCTAssertEqual(elements, [1, 2, 3])
        }
    }
}
