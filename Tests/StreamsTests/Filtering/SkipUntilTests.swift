import Foundation
import Streams
import StreamsTest
import XCTest

final class SkipUntilTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSkipUntil_otherEmits() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(240, 4), .completed(300)])
            let other = scheduler.createHotObservable([.next(150, "x"), .next(225, "y"), .next(260, "z"), .completed(280)])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [.next(240, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
        }
    }

    func testSkipUntil_otherFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(300)])
            let other = scheduler.createHotObservable([.error(230, TestError.second, Int.self)])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [.error(230, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])
        }
    }

    func testSkipUntil_otherCompletesWithoutElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .error(300, TestError.first, Int.self)])
            let other = scheduler.createHotObservable([.completed(225, Int.self)])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [.error(300, TestError.first)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
        }
    }

    /// As RxSwift: the source completing before the gate opens ends everything without a terminal event.
    func testSkipUntil_sourceCompletesBeforeOther() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
            let other = scheduler.createHotObservable([.next(250, "x")])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSkipUntil_sourceFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError.first, Int.self)])
            let other = scheduler.createHotObservable([.next(250, "x")])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [.error(220, TestError.first)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSkipUntil_neverNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let other = scheduler.createHotObservable([.next(150, "x")])
            let res = scheduler.start { xs.skip(until: other) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSkipUntil_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .next(260, 5), .completed(300)])
            let other = scheduler.createHotObservable([.next(230, "x")])
            let res = scheduler.start(disposed: 250) { xs.skip(until: other) }
            XCTAssertEqual(res.events, [.next(240, 4)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])
        }
    }

    @available(*, deprecated)
    func testSkipUntil_deprecatedName() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4)])
            let other = scheduler.createHotObservable([.next(230, "y")])
            let res = scheduler.start { xs.skipUntil(other) }
            XCTAssertEqual(res.events, [.next(240, 4)])
        }
    }

    func testSkipUntil_reentrant() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let gate = PublishSubject<Void>()
            var events: [Event<Int>] = []
            let subscription = source.skip(until: gate).subscribe { event in
                events.append(event)
                if case .next(1) = event { source.onNext(2) }
            }
            source.onNext(0)
            gate.onNext(())
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertFalse(gate.hasObservers)
            subscription.dispose()
        }
    }

    /// The source and the gate race: output is serialized, ordered, and terminates once.
    func testSkipUntil_concurrent() {
        for _ in 0..<20 {
            XCTAssertNoLeaks {
                let source = PublishSubject<Int>()
                let gate = PublishSubject<Void>()
                let probe = CombiningSupport.ConcurrencyProbe<Int>()
                let subscription = source.skip(until: gate).subscribe(probe)
                CombiningSupport.concurrently(2) { index in
                    if index == 0 {
                        for value in 0..<2_000 { source.onNext(value) }
                    } else {
                        gate.onNext(())
                    }
                }
                source.onNext(2_000)
                source.onCompleted()
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(probe.events.last, .completed)
                let elements = probe.elements
                XCTAssertEqual(elements.last, 2_000)
                if let first = elements.first {
                    XCTAssertEqual(elements, Array(first...2_000), "elements out of order or missing")
                }
                subscription.dispose()
            }
        }
    }
}
