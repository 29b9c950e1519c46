import Foundation
import XCTest
import Streams
import StreamsTest

final class FlatMapTests: XCTestCase {
    func testFlatMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(250, 2), .completed(300)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .next(60, 12), .completed(70)])
            let ys2 = scheduler.createColdObservable([.next(5, 21), .next(100, 22), .completed(110)])
            let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(255, 21), .next(270, 12), .next(350, 22), .completed(360)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 280)])
            XCTAssertEqual(ys2.subscriptions, [Subscription(250, 360)])
        }
    }

    func testFlatMap_completesWhenOuterCompletesLast() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
            let ys = scheduler.createColdObservable([.next(10, 11), .completed(20)])
            let res = scheduler.start { xs.flatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .completed(400)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        }
    }

    func testFlatMap_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start { xs.flatMap { Observable.just($0) } }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testFlatMap_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.flatMap { Observable.just($0) } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testFlatMap_innerNeverKeepsOutputOpen() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 11)])
            let res = scheduler.start { xs.flatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 1000)])
        }
    }

    func testFlatMap_outerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TransformTestError(), Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(100, 12), .completed(200)])
            let res = scheduler.start { xs.flatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
        }
    }

    func testFlatMap_innerErrorDisposesEverything() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(500)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .next(100, 12)])
            let ys2 = scheduler.createColdObservable([.next(10, 21), .error(30, TransformTestError(tag: 2))])
            let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(230, 21), .error(250, TransformTestError(tag: 2))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
            XCTAssertEqual(ys2.subscriptions, [Subscription(220, 250)])
        }
    }

    func testFlatMap_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let ys = scheduler.createColdObservable([.next(5, 11), .next(50, 12)])
            let res = scheduler.start {
                xs.flatMap { value -> TestableObservable<Int> in
                    if value == 2 { throw TransformTestError() }
                    return ys
                }
            }
            XCTAssertEqual(res.events, [.next(215, 11), .error(220, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
        }
    }

    func testFlatMap_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(100, 12), .completed(200)])
            let res = scheduler.start(disposed: 250) { xs.flatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(230, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 250), Subscription(220, 250)])
        }
    }

    /// An inner sequence that completes while it is being subscribed has its subscription
    /// disposed once `subscribe` returns; one still running is held until it completes.
    func testFlatMap_innerSubscriptionsAreDisposedOnceWhenDone() {
        XCTAssertNoLeaks {
            var disposals = 0
            let running = PublishSubject<Int>()
            let subject = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription =
                subject
                .flatMap { value -> Observable<Int> in
                    let inner: Observable<Int> = value == 0 ? running.asObservable() : .just(value)
                    return inner.reportingDisposal { disposals += 1 }
                }
                .subscribe { events.append($0) }
            subject.onNext(1)
            XCTAssertEqual(disposals, 1, "a synchronous inner is disposed after its subscribe returns")
            subject.onNext(0)
            XCTAssertEqual(disposals, 1, "a running inner is kept")
            running.onNext(5)
            subject.onNext(2)
            XCTAssertEqual(disposals, 2)
            running.onCompleted()
            XCTAssertEqual(disposals, 3, "a running inner is disposed when it completes")
            subject.onCompleted()
            XCTAssertEqual(events, [.next(1), .next(5), .next(2), .completed])
            subscription.dispose()
            XCTAssertEqual(disposals, 3, "nothing is disposed twice")
        }
    }

    /// Disposing the output from inside a synchronous inner sequence's element (`take(1)`) stops
    /// it: its subscription is disposed as soon as `subscribe` returns, and nothing more arrives.
    func testFlatMap_disposedDuringSynchronousInner() {
        XCTAssertNoLeaks {
            var disposed = false
            var emitted: [Int] = []
            let inner = Observable<Int>.create { observer in
                for value in 1...3 { emitted.append(value); observer.onNext(value) }
                observer.onCompleted()
                return Disposables.create { disposed = true }
            }
            let events = collectEvents(Observable.just(0).flatMap { _ in inner }.take(1)).events
            XCTAssertEqual(events, [.next(1), .completed])
            XCTAssertTrue(disposed)
        }
    }

    /// A running inner sequence held by the sink is disposed with it.
    func testFlatMap_disposeReachesRunningInners() {
        XCTAssertNoLeaks {
            var disposals = 0
            let subject = PublishSubject<Int>()
            let subscription =
                subject
                .flatMap { _ in
                    Observable<Int>.create { _ in Disposables.create { disposals += 1 } }
                }
                .subscribe()
            for value in 0..<20 { subject.onNext(value) }
            XCTAssertEqual(disposals, 0)
            subscription.dispose()
            XCTAssertEqual(disposals, 20)
        }
    }

    func testFlatMap_synchronousInners() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) }).events
            XCTAssertEqual(events, [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed])
        }
    }

    /// Inner sequences that complete while they are being subscribed leave their completion to the
    /// pumping thread (no lock of their own): with a concurrency limit the queued ones still start
    /// one after the other, each subscription is disposed once, and the output completes last.
    func testFlatMap_innersCompletingWhileSubscribed_areCountedOnce() {
        XCTAssertNoLeaks {
            var disposals = 0
            let inner = { (value: Int) in
                Observable<Int>.create { observer in
                    observer.onNext(value)
                    observer.onCompleted()
                    return Disposables.create { disposals += 1 }
                }
            }
            let merged = collectEvents(Observable.of(1, 2, 3, 4).map { inner($0) }.merge(maxConcurrent: 2)).events
            XCTAssertEqual(merged, [.next(1), .next(2), .next(3), .next(4), .completed])
            let concatenated = collectEvents(Observable.of(5, 6).concatMap { inner($0) }).events
            XCTAssertEqual(concatenated, [.next(5), .next(6), .completed])
            XCTAssertEqual(disposals, 6)
        }
    }

    /// An inner sequence that completes on another thread before its subscription returns (the
    /// subscribe call waits for that thread) is accounted for once, whichever thread claims it.
    func testFlatMap_innerCompletingOnAnotherThreadWhileSubscribed() {
        XCTAssertNoLeaks {
            let inner = { (value: Int) in
                Observable<Int>.create { observer in
                    let finished = DispatchSemaphore(value: 0)
                    let box = ObserverHandOff(observer)
                    DispatchQueue.global().async {
                        box.observer?.onNext(value)
                        box.observer?.onCompleted()
                        box.observer = nil
                        finished.signal()
                    }
                    finished.wait()
                    return Disposables.create()
                }
            }
            let recorder = GrammarRecorder<Int>()
            let subscription = Observable.from(0..<50).map { inner($0) }.merge(maxConcurrent: 3).subscribe(recorder)
            recorder.waitForTerminal()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<50))
            subscription.dispose()
        }
    }

    func testFlatMap_reentrantOuterElementIsSerialized() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = outer.flatMap { Observable.of($0, $0 + 1) }.subscribe(onNext: { value in
                received.append(value)
                // Re-entering the source while the first inner sequence is still emitting: the
                // second inner's first element is a trampoline step queued before the first
                // inner's next element (RxSwift's order).
                if value == 1 { outer.onNext(10) }
            })
            outer.onNext(1)
            XCTAssertEqual(received, [1, 10, 2, 11])
            subscription.dispose()
        }
    }

    func testFlatMap_reentrantOuterElementDuringCreateInner() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var received: [Int] = []
            let subscription =
                outer
                .flatMap { value in
                    Observable<Int>.create { observer in
                        observer.onNext(value)
                        observer.onNext(value + 1)
                        observer.onCompleted()
                        return Disposables.create()
                    }
                }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 { outer.onNext(10) }
                })
            outer.onNext(1)
            XCTAssertEqual(received, [1, 2, 10, 11])
            subscription.dispose()
        }
    }

    func testFlatMap_reentrantInnerEventIsDeliveredAfterCurrentCall() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>(), b = PublishSubject<Int>()
            var log: [String] = []
            let subscription = Observable.of(a, b).flatMap { $0 }.subscribe(onNext: { value in
                log.append("begin \(value)")
                if value == 1 { b.onNext(100) }
                log.append("end \(value)")
            })
            a.onNext(1)
            XCTAssertEqual(log, ["begin 1", "end 1", "begin 100", "end 100"])
            subscription.dispose()
        }
    }

    func testFlatMap_multiThreadStress() {
        XCTAssertNoLeaks {
            let threads = 8, perThread = 2_000
            let inners = (0..<threads).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let subscription = outer.flatMap { inners[$0] }.subscribe(recorder)
            for index in 0..<threads { outer.onNext(index) }
            outer.onCompleted()
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                for value in 0..<perThread { inners[index].onNext(index * perThread + value) }
                inners[index].onCompleted()
            }
            recorder.waitForTerminal()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            let elements = recorder.elements
            XCTAssertEqual(elements.count, threads * perThread)
            XCTAssertEqual(Set(elements).count, threads * perThread)
            for index in 0..<threads {
                let fromThread = elements.filter { $0 / perThread == index }
                XCTAssertEqual(fromThread, Array(index * perThread..<(index + 1) * perThread), "per-inner order kept")
            }
            subscription.dispose()
        }
    }

    func testFlatMap_multiThreadStressWithError() {
        XCTAssertNoLeaks {
            let threads = 8, perThread = 2_000
            let inners = (0..<threads).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let subscription = outer.flatMap { inners[$0] }.subscribe(recorder)
            for index in 0..<threads { outer.onNext(index) }
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                for value in 0..<perThread {
                    if index == 3 && value == perThread / 2 {
                        inners[index].onError(TransformTestError())
                        return
                    }
                    inners[index].onNext(value)
                }
                inners[index].onCompleted()
            }
            recorder.waitForTerminal()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.error(TransformTestError())])
            XCTAssertLessThan(recorder.elements.count, threads * perThread)
            XCTAssertFalse(outer.hasObservers, "the source is disposed after the error")
            for inner in inners { XCTAssertFalse(inner.hasObservers, "every inner is disposed after the error") }
            subscription.dispose()
        }
    }

    func testFlatMap_multiThreadDisposeRace() {
        XCTAssertNoLeaks {
            let threads = 4, perThread = 5_000
            let inners = (0..<threads).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            // Safety: `dispose()` of a Streams subscription is thread-safe.
            nonisolated(unsafe) let subscription = outer.flatMap { inners[$0] }.subscribe(recorder)
            for index in 0..<threads { outer.onNext(index) }
            DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
                if index == threads {
                    subscription.dispose()
                    return
                }
                for value in 0..<perThread { inners[index].onNext(value) }
            }
            XCTAssertEqual(recorder.terminals.count, 0)
            XCTAssertEqual(recorder.overlappingCalls, 0)
            XCTAssertFalse(outer.hasObservers)
            for inner in inners { XCTAssertFalse(inner.hasObservers) }
        }
    }

    func testFlatMap_asyncInnersStress() {
        XCTAssertNoLeaks {
            let inners = 100, perInner = 100
            let factory = AsyncInnerFactory()
            let recorder = GrammarRecorder<Int>()
            let subscription = Observable.from(0..<inners)
                .flatMap { factory.make($0, count: perInner) }
                .subscribe(recorder)
            recorder.waitForTerminal()
            factory.work.wait()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<inners * perInner))
            subscription.dispose()
        }
    }
}

/// Hands an observer to one dispatched block.
private final class ObserverHandOff: @unchecked Sendable {
    // Safety: only the one dispatched block reads and clears `observer`, while the thread that
    // made it waits for that block to finish.
    var observer: AnyObserver<Int>?
    init(_ observer: AnyObserver<Int>) { self.observer = observer }
}
