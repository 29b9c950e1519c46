import Foundation
import XCTest
import Streams
import StreamsTest

final class FlatMapLatestTests: XCTestCase {
    func testFlatMapLatest_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(250, 2), .completed(300)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .next(30, 12), .next(60, 13), .completed(70)])
            let ys2 = scheduler.createColdObservable([.next(10, 21), .next(20, 22), .completed(80)])
            let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(240, 12), .next(260, 21), .next(270, 22), .completed(330)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
            XCTAssertEqual(ys2.subscriptions, [Subscription(250, 330)])
        }
    }

    func testFlatMapLatest_innerCompletesFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 11), .completed(20)])
            let res = scheduler.start { xs.flatMapLatest { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .completed(300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        }
    }

    func testFlatMapLatest_replacedInnerCompletionDoesNotComplete() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let ys1 = scheduler.createColdObservable([.completed(30, Int.self)])
            let ys2 = scheduler.createColdObservable([.next(50, 21), .completed(60)])
            let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
            XCTAssertEqual(res.events, [.next(270, 21), .completed(280)])
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 220)])
        }
    }

    func testFlatMapLatest_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testFlatMapLatest_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let ys = scheduler.createColdObservable([.next(10, 11)])
            let res = scheduler.start { xs.flatMapLatest { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 1000)])
        }
    }

    func testFlatMapLatest_outerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(240, TransformTestError(), Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(100, 12)])
            let res = scheduler.start { xs.flatMapLatest { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(240, TransformTestError())])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
        }
    }

    func testFlatMapLatest_innerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
            let ys = scheduler.createColdObservable([.next(10, 11), .error(20, TransformTestError(tag: 4), Int.self)])
            let res = scheduler.start { xs.flatMapLatest { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TransformTestError(tag: 4))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        }
    }

    func testFlatMapLatest_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let ys = scheduler.createColdObservable([.next(5, 11), .next(50, 12)])
            let res = scheduler.start {
                xs.flatMapLatest { value -> TestableObservable<Int> in
                    if value == 2 { throw TransformTestError() }
                    return ys
                }
            }
            XCTAssertEqual(res.events, [.next(215, 11), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
        }
    }

    func testFlatMapLatest_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(100, 12)])
            let res = scheduler.start(disposed: 250) { xs.flatMapLatest { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
        }
    }

    func testFlatMapLatest_innerEmitsSynchronouslyOnSubscribe() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.flatMapLatest { Observable.of($0, $0 * 10) } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(210, 10), .next(220, 2), .next(220, 20), .completed(300)])
        }
    }

    func testFlatMapLatest_synchronousSource() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(1, 2, 3).flatMapLatest { Observable.of($0, $0) }).events
            // RxSwift's order: each outer element is a trampoline step that replaces the inner
            // sequence after its first element.
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .next(3), .completed])
        }
    }

    func testFlatMapLatest_reentrantSwitchStopsInfiniteInner() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var received: [Int] = []
            var completed = false
            let subscription =
                outer
                .flatMapLatest { value -> Observable<Int> in
                    value == 1 ? Observable.from(CountingNaturals()) : .of(200, 201)
                }
                .subscribe(
                    onNext: { value in
                        received.append(value)
                        // Switching from inside the first inner sequence's (endless) synchronous loop.
                        if value == 0 { outer.onNext(2) }
                    }, onCompleted: { completed = true })
            outer.onNext(1)
            XCTAssertEqual(received, [0, 200, 201])
            XCTAssertFalse(completed)
            outer.onCompleted()
            XCTAssertTrue(completed)
            subscription.dispose()
        }
    }

    /// An inner sequence that completes while it is being subscribed is disposed right away,
    /// not kept until the next source element.
    func testFlatMapLatest_synchronouslyCompletedInnerIsDisposedAtOnce() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var disposedInners: [Int] = []
            let subscription =
                outer
                .flatMapLatest { value in
                    Observable<Int>.create { observer in
                        observer.onNext(value)
                        observer.onCompleted()
                        return Disposables.create { disposedInners.append(value) }
                    }
                }
                .subscribe()
            outer.onNext(1)
            XCTAssertEqual(disposedInners, [1])
            outer.onNext(2)
            XCTAssertEqual(disposedInners, [1, 2])
            subscription.dispose()
            XCTAssertEqual(disposedInners, [1, 2])
        }
    }

    /// As RxSwift: the previous inner subscription is disposed before the next one starts.
    func testFlatMapLatest_previousInnerDisposedBeforeNextSubscribes() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var log: [String] = []
            let subscription =
                outer
                .flatMapLatest { value in
                    Observable<Int>.never().do(
                        onSubscribe: { log.append("subscribe \(value)") },
                        onDispose: { log.append("dispose \(value)") }
                    )
                }
                .subscribe()
            outer.onNext(1)
            outer.onNext(2)
            subscription.dispose()
            XCTAssertEqual(log, ["subscribe 1", "dispose 1", "subscribe 2", "dispose 2"])
        }
    }

    func testFlatMapLatest_multiThreadStress() {
        XCTAssertNoLeaks {
            let innerCount = 40, emitters = 4, rounds = 300, tag = 1_000_000
            let inners = (0..<innerCount).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let subscription = outer.flatMapLatest { inners[$0] }.subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: emitters + 1) { worker in
                if worker == emitters {
                    for index in 0..<innerCount { outer.onNext(index) }
                    return
                }
                // Each inner subject is driven by exactly one thread.
                for round in 0..<rounds {
                    for index in stride(from: worker, to: innerCount, by: emitters) {
                        inners[index].onNext(index * tag + round)
                    }
                }
            }
            let last = innerCount - 1
            for value in 0..<10 { inners[last].onNext(last * tag + rounds + value) }
            outer.onCompleted()
            XCTAssertEqual(recorder.terminals, [], "the latest inner is still running")
            inners[last].onCompleted()
            recorder.waitForTerminal()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            let sources = recorder.elements.map { $0 / tag }
            XCTAssertEqual(sources, sources.sorted(), "an older inner never emits after a newer one")
            XCTAssertEqual(Array(recorder.elements.suffix(10)), (0..<10).map { last * tag + rounds + $0 })
            for inner in inners { XCTAssertFalse(inner.hasObservers) }
            subscription.dispose()
        }
    }

    func testFlatMapLatest_multiThreadStressWithError() {
        XCTAssertNoLeaks {
            let innerCount = 20, emitters = 4, rounds = 300
            let inners = (0..<innerCount).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let subscription = outer.flatMapLatest { inners[$0] }.subscribe(recorder)
            outer.onNext(0)
            DispatchQueue.concurrentPerform(iterations: emitters + 1) { worker in
                if worker == emitters {
                    for index in 1..<innerCount { outer.onNext(index) }
                    inners[innerCount - 1].onError(TransformTestError())
                    return
                }
                for round in 0..<rounds {
                    for index in stride(from: worker, to: innerCount - 1, by: emitters) {
                        inners[index].onNext(round)
                    }
                }
            }
            recorder.waitForTerminal()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.error(TransformTestError())])
            XCTAssertFalse(outer.hasObservers)
            subscription.dispose()
        }
    }
}
