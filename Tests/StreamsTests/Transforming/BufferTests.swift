import Foundation
import Streams
import StreamsTest
import XCTest

final class BufferTests: XCTestCase {
    func testBuffer_countAndTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 0), .next(201, 1), .next(203, 2), .next(205, 3), .next(208, 4), .completed(217),
            ])
            let res = scheduler.start { xs.buffer(timeSpan: .seconds(5), count: 3, scheduler: scheduler) }
            XCTAssertEqual(
                res.events,
                [
                    .next(205, [1, 2, 3]), .next(210, [4]), .next(215, []), .next(217, []), .completed(217),
                ])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 217)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testBuffer_timeOnly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(260)])
            let res = scheduler.start { xs.buffer(timeSpan: .seconds(25), count: 100, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(225, [1, 2]), .next(250, [3]), .next(260, []), .completed(260)])
        }
    }

    func testBuffer_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(250, []), .completed(250)])
        }
    }

    func testBuffer_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start(disposed: 450) { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(300, []), .next(400, [])])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testBuffer_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TransformTestError(), Int.self)])
            let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.error(250, TransformTestError())])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testBuffer_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
            let res = scheduler.start(disposed: 245) { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, [1, 2, 3])])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testBuffer_reentrant() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            var events: [Event<[Int]>] = []
            let subscription = source.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe { event in
                events.append(event)
                if case .next([1, 2]) = event { source.onNext(3); source.onNext(4) }
            }
            source.onNext(1)
            source.onNext(2)
            source.onCompleted()
            XCTAssertEqual(events, [.next([1, 2]), .next([3, 4]), .next([]), .completed])
            subscription.dispose()
        }
    }

    /// Buffers close by count (on this thread) and by time (on a dispatch queue) concurrently:
    /// serialized delivery, every element exactly once, in order.
    func testBuffer_concurrent() {
        for _ in 0..<10 {
            XCTAssertNoLeaksEventually {
                let source = PublishSubject<Int>()
                let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
                let done = expectation(description: "terminated")
                let observer = ConcurrencyCheckingObserver<[Int]>(done)
                let subscription = source.buffer(timeSpan: .microseconds(50), count: 7, scheduler: scheduler).subscribe(observer)
                for value in 0..<5_000 { source.onNext(value) }
                source.onCompleted()
                wait(for: [done], timeout: 10)
                observer.assertGrammar()
                XCTAssertEqual(observer.elements.flatMap { $0 }, Array(0..<5_000))
                XCTAssertTrue(observer.elements.allSatisfy { $0.count <= 7 })
                subscription.dispose()
            }
        }
    }
}
