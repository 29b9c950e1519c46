import Foundation
import Streams
import StreamsTest
import XCTest

final class SampleTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testSample_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(400)])
            let ys = scheduler.createHotObservable([
                .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
            ])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(500)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
        }
    }

    func testSample_defaultValue() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(210, "a"), .next(250, "b"), .next(260, "c"), .next(320, "d")])
            let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
            XCTAssertEqual(res.events, [.next(210, 0), .next(250, 3), .next(260, 0), .next(320, 0), .completed(320)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
        }
    }

    func testSample_samplerCompletesEmitsLatest() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.completed(250, String.self)])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [.next(250, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSample_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(220, Int.self)])
            let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b")])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [.completed(230)])
        }
    }

    func testSample_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let ys = scheduler.createHotObservable([.next(230, "a")])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testSample_sourceError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .error(240, TestError.first, Int.self)])
            let ys = scheduler.createHotObservable([.next(230, "a"), .next(250, "b")])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [.next(230, 2), .error(240, TestError.first)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
        }
    }

    func testSample_samplerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .completed(400)])
            let ys = scheduler.createHotObservable([.error(240, TestError.second, String.self)])
            let res = scheduler.start { xs.sample(ys) }
            XCTAssertEqual(res.events, [.error(240, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        }
    }

    func testSample_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(400)])
            let ys = scheduler.createHotObservable([.next(230, "a"), .next(270, "b")])
            let res = scheduler.start(disposed: 250) { xs.sample(ys) }
            XCTAssertEqual(res.events, [.next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        }
    }

    func testSample_reentrant() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let sampler = PublishSubject<Void>()
            var events: [Event<Int>] = []
            let subscription = source.sample(sampler).subscribe { event in
                events.append(event)
                if case .next(1) = event {
                    source.onNext(2)
                    sampler.onNext(())
                }
            }
            source.onNext(1)
            sampler.onNext(())
            source.onCompleted()
            sampler.onNext(())
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertFalse(sampler.hasObservers)
            subscription.dispose()
        }
    }

    /// Source and sampler on two threads: serialized output, each element at most once, one terminal.
    func testSample_concurrent() {
        for _ in 0..<20 {
            XCTAssertNoLeaks {
                let source = PublishSubject<Int>()
                let sampler = PublishSubject<Void>()
                let probe = CombiningSupport.ConcurrencyProbe<Int>()
                let subscription = source.sample(sampler).subscribe(probe)
                CombiningSupport.concurrently(2) { index in
                    if index == 0 {
                        for value in 0..<2_000 { source.onNext(value) }
                        source.onCompleted()
                    } else {
                        for _ in 0..<2_000 { sampler.onNext(()) }
                    }
                }
                sampler.onNext(())
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(probe.events.last, .completed)
                let elements = probe.elements
                XCTAssertEqual(elements, elements.sorted())
                XCTAssertEqual(Set(elements).count, elements.count, "an element was emitted twice")
                subscription.dispose()
            }
        }
    }
}
