import Streams
import StreamsInspector
import StreamsTest
import XCTest

/// `map(_:)` followed by `map(_:)` runs as one fused stage (see the Performance article,
/// "Operator fusion"); these tests pin that it behaves exactly as the separate stages did.
final class MapMapFusionTests: XCTestCase {
    func testMapMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
            let res = scheduler.start { xs.map { $0 + 1 }.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(210, 30), .next(220, 40), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    /// Values of several sizes and kinds pass through the one buffer: a larger tuple, a string,
    /// a class instance.
    func testMapMap_changesTypes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 22), .completed(300)])
            let res = scheduler.start {
                xs.map { ($0, $0 * 2, $0 * 3, String($0)) }
                    .map { Box("\($0.3):\($0.0 + $0.1 + $0.2)") }
                    .map { $0.value }
                    .map { $0.count }
            }
            XCTAssertEqual(res.events, [.next(210, 3), .next(220, 6), .completed(300)])  // "1:6", "22:132"
        }
    }

    func testMapMap_twentyStages() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var chain = subject.asObservable()
            for _ in 0..<20 { chain = chain.map { $0 + 1 } }
            var received: [Int] = []
            let subscription = chain.subscribe(onNext: { received.append($0) })
            subject.onNext(0)
            subject.onNext(100)
            subscription.dispose()
            XCTAssertEqual(received, [20, 120])
        }
    }

    func testMapMap_callOrder() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            var calls: [String] = []
            let res = scheduler.start {
                xs.map { value -> Int in
                    calls.append("a \(value)")
                    return value * 10
                }
                .map { value -> Int in
                    calls.append("b \(value)")
                    return value + 1
                }
                .map { value -> String in
                    calls.append("c \(value)")
                    return String(value)
                }
            }
            XCTAssertEqual(calls, ["a 1", "b 10", "c 11", "a 2", "b 20", "c 21"])
            XCTAssertEqual(res.events, [.next(210, "11"), .next(220, "21"), .completed(300)])
        }
    }

    func testMapMap_middleTransformThrows_laterNotCalled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            var last: [String] = []
            let res = scheduler.start {
                xs.map { $0 * 10 }
                    .map { value -> String in
                        if value == 20 { throw TransformTestError(tag: 2) }
                        return String(value)
                    }
                    .map { value -> String in
                        last.append(value)
                        return value + "!"
                    }
            }
            XCTAssertEqual(res.events, [.next(210, "10!"), .error(220, TransformTestError(tag: 2))])
            XCTAssertEqual(last, ["10"])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMapMap_upstreamError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TransformTestError()), .next(260, 4)])
            let res = scheduler.start { xs.map { $0 * 10 }.map { $0 + 1 } }
            XCTAssertEqual(res.events, [.next(210, 21), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMapMap_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.map { $0 + 1 }.map { $0 * 2 } }
            XCTAssertEqual(res.events, [.next(210, 4)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// Unfused, a transform that disposes the subscription stops its `map` stage before it
    /// forwards: the later transforms never see that element, and the value in flight (here a
    /// class instance) is released.
    func testMapMap_transformDisposesReentrantly_laterNotCalled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var later: [String] = []
            var subscription: Disposable?
            weak var discarded: Box?
            _ = scheduler.scheduleAt(200) {
                subscription = xs.map { value -> Box in
                    let box = Box("\(value)")
                    if value == 2 {
                        discarded = box
                        subscription?.dispose()
                    }
                    return box
                }
                .map { box -> Int in
                    later.append(box.value)
                    return box.value.count
                }
                .map { $0 * 10 }
                .subscribe(observer)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 10)])
            XCTAssertEqual(later, ["1"])
            XCTAssertNil(discarded, "the value in flight is released")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testMapMap_lastTransformDisposesReentrantly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var first: [Int] = []
            var subscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                subscription = xs.map { value -> Int in
                    first.append(value)
                    return value * 10
                }
                .map { value -> Int in
                    if value == 20 { subscription?.dispose() }
                    return value
                }
                .subscribe(observer)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 10)])
            XCTAssertEqual(first, [1, 2])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    /// An observer that feeds the source again while an element is delivered sees the nested
    /// element mapped, in the order the unfused stages delivered them.
    func testMapMap_reentrantSend() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.map { $0 + 1 }.map { $0 * 2 }.subscribe(onNext: { value in
                received.append(value)
                if value == 4 { subject.onNext(5) }
            })
            subject.onNext(1)
            subject.onNext(2)
            subscription.dispose()
            XCTAssertEqual(received, [4, 12, 6])
        }
    }

    /// A transform that sends into the source while its own element is in flight.
    func testMapMap_transformSendsReentrantly() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [String] = []
            let subscription = subject.map { value -> Int in
                if value == 1 { subject.onNext(10) }
                return value
            }
            .map { String($0) }
            .subscribe(onNext: { received.append($0) })
            subject.onNext(1)
            subscription.dispose()
            XCTAssertEqual(received, ["10", "1"])
        }
    }

    /// The first `map` stays usable on its own and under several fused `map`s.
    func testMapMap_sharedFirstStage() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let mapped = xs.map { $0 * 10 }
            let plusOne = scheduler.createObserver(Int.self)
            let strings = scheduler.createObserver(String.self)
            let all = scheduler.createObserver(Int.self)
            _ = scheduler.scheduleAt(200) {
                _ = mapped.map { $0 + 1 }.subscribe(plusOne)
                _ = mapped.map { String($0) }.subscribe(strings)
                _ = mapped.subscribe(all)
            }
            scheduler.start()
            XCTAssertEqual(plusOne.events, [.next(210, 11), .next(220, 21), .completed(300)])
            XCTAssertEqual(strings.events, [.next(210, "10"), .next(220, "20"), .completed(300)])
            XCTAssertEqual(all.events, [.next(210, 10), .next(220, 20), .completed(300)])
            XCTAssertEqual(xs.subscriptions.count, 3)
        }
    }

    /// A synchronous source and a `just(…).map(…)` source under a chain of `map`s.
    func testMapMap_onSynchronousSources() {
        XCTAssertNoLeaks {
            var received: [Int] = []
            _ = Observable.of(1, 2, 3).map { $0 * 2 }.map { $0 + 1 }.subscribe(onNext: { received.append($0) })
            _ = Observable.just(5).map { $0 * 2 }.map { $0 + 1 }.map { -$0 }.subscribe(onNext: { received.append($0) })
            XCTAssertEqual(received, [3, 5, 7, -11])
        }
    }

    /// The fused chain is one sink where the unfused chain had one per `map`; the count returns
    /// to its baseline on disposal.
    func testMapMap_oneSinkPerSubscription() {
        let subject = PublishSubject<Int>()
        let baseline = Resources.total
        let subscription = subject.map { $0 + 1 }.map { $0 + 2 }.map { $0 + 3 }.subscribe(onNext: { _ in })
        XCTAssertEqual(Resources.total - baseline, 1)
        XCTAssertEqual(Resources.liveCounts.keys.filter { $0.hasPrefix("MapMapSink<") }.count, 1)
        subscription.dispose()
        XCTAssertEqual(Resources.total, baseline)
    }

    #if Inspector
    /// While the inspector records, the chain runs as written: every `map` is recorded.
    func testMapMap_inspectorSeesEveryMap() throws {
        Inspector.reset()
        Inspector.start()
        defer {
            Inspector.stop()
            Inspector.reset()
        }
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.map { $0 * 2 }.map { $0 - 1 }.named("maps").subscribe(onNext: { _ in })
        subject.onNext(1)
        let chain = try XCTUnwrap(Inspector.snapshot().chains.first)
        XCTAssertEqual(chain.operators.map(\.name), ["named", "map", "map", "map", "PublishSubject"])
        let values = Inspector.events(ofChainNamed: "maps").filter { $0.operatorName == "map" }.map(\.value)
        XCTAssertEqual(values.compactMap { $0 }.sorted(), ["2", "3", "4"])
        subscription.dispose()
    }
    #endif
}

/// A class instance carried through a chain (its release is observable through a weak reference).
private final class Box {
    let value: String
    init(_ value: String) { self.value = value }
}
