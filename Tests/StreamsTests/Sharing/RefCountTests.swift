import Dispatch
import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

private final class ThreadSafeRecorder<Element>: ObserverType, @unchecked Sendable {
    // Safety: `events` is only accessed under its lock.
    private let storage = LockedState([Event<Element>]())
    var events: [Event<Element>] { storage.withLock { $0 } }
    func on(_ event: Event<Element>) { storage.withLock { $0.append(event) } }
}

/// Carries a value the test knows to be thread-safe into a `@Sendable` closure.
private struct SendableBox<Value>: @unchecked Sendable {
    // Safety: only used for values (shared sequences) whose thread-safety is under test.
    let value: Value
    init(_ value: Value) { self.value = value }
}

final class RefCountTests: XCTestCase {
    func testRefCount_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
            let res = scheduler.start { xs.publish().refCount() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testRefCount_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(250, Int.self)])
            let res = scheduler.start { xs.publish().refCount() }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testRefCount_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.publish().refCount() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testRefCount_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let res = scheduler.start { xs.publish().refCount() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testRefCount_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.publish().refCount() }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// Connects on the first observer, disconnects when the last one leaves, reconnects for the next.
    func testRefCount_connectsOnFirstAndDisconnectsOnLast() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5),
                .next(260, 6), .next(270, 7), .next(280, 8), .next(290, 9), .completed(300),
            ])
            var ys: Observable<Int>?
            var d1: Disposable?, d2: Disposable?, d3: Disposable?, d4: Disposable?
            let o1 = scheduler.createObserver(Int.self)
            let o2 = scheduler.createObserver(Int.self)
            let o3 = scheduler.createObserver(Int.self)
            let o4 = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish().refCount() }
            scheduler.scheduleAt(205) { d1 = ys?.subscribe(o1) }
            scheduler.scheduleAt(215) { d2 = ys?.subscribe(o2) }
            scheduler.scheduleAt(225) { d1?.dispose() }
            scheduler.scheduleAt(245) { d3 = ys?.subscribe(o3) }
            scheduler.scheduleAt(255) { d3?.dispose() }
            scheduler.scheduleAt(265) { d2?.dispose() }
            scheduler.scheduleAt(275) { d4 = ys?.subscribe(o4) }
            scheduler.scheduleAt(320) {
                d4?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(o1.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(o2.events, [.next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6)])
            XCTAssertEqual(o3.events, [.next(250, 5)])
            XCTAssertEqual(o4.events, [.next(280, 8), .next(290, 9), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(205, 265), Subscription(275, 300)])
        }
    }

    /// A connectable whose subject already terminated sends the terminal event and never connects.
    func testRefCount_terminatedSubjectDoesNotConnect() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let subject = PublishSubject<Int>()
            subject.onError(TestError())
            let res = scheduler.start { xs.multicast(subject).refCount() }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    /// After the source terminates, the next observer connects again (fresh subject with `publish`).
    func testRefCount_resubscribingFromTerminalHandlerReconnects() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = [
                scheduler.createColdObservable([.next(10, 1), .completed(20)]),
                scheduler.createColdObservable([.next(10, 2), .error(30, TestError())]),
                scheduler.createColdObservable([.next(10, 3), .completed(40)]),
            ]
            var attempt = 0
            let source = Observable<Int>.create { observer in
                defer { attempt += 1 }
                return sources[min(attempt, 2)].subscribe(observer)
            }
            var ys: Observable<Int>? = source.publish().refCount()
            let o1 = scheduler.createObserver(Int.self)
            let o2 = scheduler.createObserver(Int.self)
            let o3 = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(215) {
                _ = ys?.subscribe { event in
                    o1.on(event)
                    if event.isCompleted { _ = ys?.subscribe(o1) }
                }
            }
            scheduler.scheduleAt(220) {
                _ = ys?.subscribe { event in
                    o2.on(event)
                    if event.isCompleted { _ = ys?.subscribe(o2) }
                }
            }
            scheduler.scheduleAt(400) { _ = ys?.subscribe(o3) }
            scheduler.scheduleAt(500) { ys = nil }
            scheduler.start()
            XCTAssertEqual(o1.events, [.next(225, 1), .completed(235), .next(245, 2), .error(265, TestError())])
            XCTAssertEqual(o2.events, [.next(225, 1), .completed(235), .next(245, 2), .error(265, TestError())])
            XCTAssertEqual(o3.events, [.next(410, 3), .completed(440)])
            XCTAssertEqual(sources[0].subscriptions, [Subscription(215, 235)])
            XCTAssertEqual(sources[1].subscriptions, [Subscription(235, 265)])
            XCTAssertEqual(sources[2].subscriptions, [Subscription(400, 440)])
        }
    }

    func testRefCount_countsObservers() {
        XCTAssertNoLeaks {
            var subscribed = 0
            var disconnected = 0
            let source = Observable<Int>.create { _ in
                subscribed += 1
                return Disposables.create { disconnected += 1 }
            }
            let shared = source.publish().refCount()
            let a = shared.subscribe()
            XCTAssertEqual(subscribed, 1)
            let b = shared.subscribe()
            XCTAssertEqual(subscribed, 1)
            a.dispose()
            a.dispose()
            XCTAssertEqual(disconnected, 0)
            b.dispose()
            XCTAssertEqual(disconnected, 1)
            let c = shared.subscribe()
            XCTAssertEqual(subscribed, 2)
            c.dispose()
            XCTAssertEqual(disconnected, 2)
        }
    }

    func testRefCount_synchronousSourceRunsForEachObserverAfterCompletion() {
        XCTAssertNoLeaks {
            var runs = 0
            let source = Observable<Int>.create { observer in
                runs += 1
                observer.onNext(runs)
                observer.onCompleted()
                return Disposables.create()
            }
            let shared = source.publish().refCount()
            var events: [Event<Int>] = []
            _ = shared.subscribe { events.append($0) }
            _ = shared.subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .completed, .next(2), .completed])
        }
    }

    /// The only observer leaves while the source is emitting synchronously inside `connect()`:
    /// the connection is disposed as soon as `connect()` returns.
    func testRefCount_observerLeavingDuringSynchronousConnect() {
        XCTAssertNoLeaks {
            var disconnected = 0
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                return Disposables.create { disconnected += 1 }
            }
            let shared = source.publish().refCount()
            var seen: [Int] = []
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                shared.subscribe(onNext: { value in
                    seen.append(value)
                    subscription.dispose()
                }))
            XCTAssertEqual(disconnected, 1)
            XCTAssertEqual(seen.first, 1)
        }
    }

    func testRefCount_reentrantSubscribeDuringDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let shared = xs.publish().refCount()
            let outer = scheduler.createObserver(Int.self)
            let inner = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) {
                _ = shared.subscribe { event in
                    outer.on(event)
                    if case .next(1) = event { _ = shared.subscribe(inner) }
                }
            }
            scheduler.start()
            XCTAssertEqual(outer.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            XCTAssertEqual(inner.events, [.next(220, 2), .next(230, 3), .completed(240)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        }
    }

    /// Observers come and go from several threads, taking the count through zero many times;
    /// afterwards the source must be disconnected, and a new observer connected again.
    func testRefCount_concurrentSubscribeAndDispose() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            // Safety: refCount's bookkeeping is thread-safe by design; that is what this test checks.
            let box = SendableBox(subject.publish().refCount())
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for step in 0..<2_000 {
                    if index == 0 {
                        subject.onNext(step)
                        continue
                    }
                    let recorder = ThreadSafeRecorder<Int>()
                    let subscription = box.value.subscribe(recorder)
                    subscription.dispose()
                    let values = recorder.events.compactMap(\.element)
                    XCTAssertEqual(values, values.sorted())
                }
            }
            XCTAssertFalse(subject.hasObservers)
            let late = ThreadSafeRecorder<Int>()
            let subscription = box.value.subscribe(late)
            XCTAssertTrue(subject.hasObservers)
            subject.onNext(-1)
            subject.onCompleted()
            XCTAssertEqual(late.events, [.next(-1), .completed])
            subscription.dispose()
        }
    }
}
