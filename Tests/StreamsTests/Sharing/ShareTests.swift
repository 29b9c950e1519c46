import Dispatch
import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

/// A thread-safe recording of one subscriber's events (for multi-threaded tests).
private final class ThreadSafeRecorder<Element>: ObserverType, @unchecked Sendable {
    // Safety: `events` is only accessed under its lock.
    private let storage = LockedState([Event<Element>]())
    var events: [Event<Element>] { storage.withLock { $0 } }
    func on(_ event: Event<Element>) { storage.withLock { $0.append(event) } }
}

final class ShareTests: XCTestCase {
    // MARK: - Scenario: two subscribers overlap, both leave, a third comes later

    private func runOverlapScenario(replay: Int, scope: SubjectLifetimeScope, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoLeaks(file: file, line: line) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(205, 10), .next(215, 11), .next(225, 12), .next(235, 13), .next(245, 14),
                .next(310, 15), .next(520, 16),
            ])
            var ys: Observable<Int>?
            var d1: Disposable?, d2: Disposable?, d3: Disposable?
            let r1 = scheduler.createObserver(Int.self)
            let r2 = scheduler.createObserver(Int.self)
            let r3 = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.share(replay: replay, scope: scope) }
            scheduler.scheduleAt(200) { d1 = ys?.subscribe(r1) }
            scheduler.scheduleAt(300) { d2 = ys?.subscribe(r2) }
            scheduler.scheduleAt(340) { d1?.dispose() }
            scheduler.scheduleAt(400) { d2?.dispose() }
            scheduler.scheduleAt(500) { d3 = ys?.subscribe(r3) }
            scheduler.scheduleAt(600) {
                d3?.dispose(); ys = nil
            }
            scheduler.start()

            XCTAssertEqual(r1.events, [.next(205, 10), .next(215, 11), .next(225, 12), .next(235, 13), .next(245, 14), .next(310, 15)], file: file, line: line)
            let replayedAt300 = Array([10, 11, 12, 13, 14].suffix(max(0, replay))).map { Recorded.next(300, $0) }
            XCTAssertEqual(r2.events, replayedAt300 + [.next(310, 15)], file: file, line: line)
            let replayedAt500 = scope == .forever ? Array([10, 11, 12, 13, 14, 15].suffix(max(0, replay))).map { Recorded.next(500, $0) } : []
            XCTAssertEqual(r3.events, replayedAt500 + [.next(520, 16)], file: file, line: line)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400), Subscription(500, 600)], file: file, line: line)
        }
    }

    func testShare_defaultArgumentsShareWithoutReplay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(320, 2), .next(520, 3)])
            var ys: Observable<Int>?
            var d1: Disposable?, d2: Disposable?, d3: Disposable?
            let r1 = scheduler.createObserver(Int.self)
            let r2 = scheduler.createObserver(Int.self)
            let r3 = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.share() }
            scheduler.scheduleAt(200) { d1 = ys?.subscribe(r1) }
            scheduler.scheduleAt(300) { d2 = ys?.subscribe(r2) }
            scheduler.scheduleAt(350) { d1?.dispose() }
            scheduler.scheduleAt(400) { d2?.dispose() }
            scheduler.scheduleAt(500) { d3 = ys?.subscribe(r3) }
            scheduler.scheduleAt(600) {
                d3?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(r1.events, [.next(210, 1), .next(320, 2)])
            XCTAssertEqual(r2.events, [.next(320, 2)])
            XCTAssertEqual(r3.events, [.next(520, 3)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400), Subscription(500, 600)])
        }
    }

    func testShare_whileConnectedReplaysOnlyWithinAConnection() {
        for replay in 0..<7 {
            runOverlapScenario(replay: replay, scope: .whileConnected)
        }
    }

    func testShare_foreverKeepsReplayAcrossConnections() {
        for replay in 0..<7 {
            runOverlapScenario(replay: replay, scope: .forever)
        }
    }

    func testShare_negativeReplayCountsAsZero() {
        runOverlapScenario(replay: -3, scope: .whileConnected)
    }

    // MARK: - Termination

    /// Source terminates at 330; each early subscriber resubscribes from inside its terminal handler.
    private func runTerminationScenario(
        terminal: Recorded<Event<Int>>, replay: Int, scope: SubjectLifetimeScope, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNoLeaks(file: file, line: line) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(320, 4),
                terminal,
                .next(340, 5), .next(550, 6),
            ])
            var ys: Observable<Int>?
            var d1: Disposable?, d2: Disposable?, d3: Disposable?
            let r1 = scheduler.createObserver(Int.self)
            let r2 = scheduler.createObserver(Int.self)
            let again1 = scheduler.createObserver(Int.self)
            let again2 = scheduler.createObserver(Int.self)
            let r3 = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.share(replay: replay, scope: scope) }
            scheduler.scheduleAt(200) {
                d1 = ys?.subscribe { event in
                    r1.on(event)
                    if event.isStopEvent { d1 = ys?.subscribe(again1) }
                }
            }
            scheduler.scheduleAt(300) {
                d2 = ys?.subscribe { event in
                    r2.on(event)
                    if event.isStopEvent { d2 = ys?.subscribe(again2) }
                }
            }
            scheduler.scheduleAt(350) { d1?.dispose() }
            scheduler.scheduleAt(400) { d2?.dispose() }
            scheduler.scheduleAt(500) { d3 = ys?.subscribe(r3) }
            scheduler.scheduleAt(600) {
                d3?.dispose(); ys = nil; d1 = nil; d2 = nil
            }
            scheduler.start()

            let stop = terminal.value
            XCTAssertEqual(r1.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(320, 4), Recorded(time: 330, value: stop)], file: file, line: line)
            let replayAt300 = Array([1, 2, 3].suffix(max(0, replay))).map { Recorded.next(300, $0) }
            XCTAssertEqual(r2.events, replayAt300 + [.next(320, 4), Recorded(time: 330, value: stop)], file: file, line: line)
            switch scope {
            case .forever:
                // The terminal event is kept: late observers get the replay and the terminal event; no resubscription.
                let replayAt330 = Array([1, 2, 3, 4].suffix(max(0, replay))).map { Recorded.next(330, $0) }
                XCTAssertEqual(again1.events, replayAt330 + [Recorded(time: 330, value: stop)], file: file, line: line)
                XCTAssertEqual(again2.events, replayAt330 + [Recorded(time: 330, value: stop)], file: file, line: line)
                let replayAt500 = Array([1, 2, 3, 4].suffix(max(0, replay))).map { Recorded.next(500, $0) }
                XCTAssertEqual(r3.events, replayAt500 + [Recorded(time: 500, value: stop)], file: file, line: line)
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 330)], file: file, line: line)
            case .whileConnected:
                // A fresh connection: the resubscribers share it, nothing is replayed.
                XCTAssertEqual(again1.events, [.next(340, 5)], file: file, line: line)
                XCTAssertEqual(again2.events, [.next(340, 5)], file: file, line: line)
                XCTAssertEqual(r3.events, [.next(550, 6)], file: file, line: line)
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)], file: file, line: line)
            }
        }
    }

    func testShare_whileConnectedCompletedResubscribesSource() {
        for replay in 0..<5 { runTerminationScenario(terminal: .completed(330), replay: replay, scope: .whileConnected) }
    }

    func testShare_whileConnectedErrorResubscribesSource() {
        for replay in 0..<5 { runTerminationScenario(terminal: .error(330, TestError()), replay: replay, scope: .whileConnected) }
    }

    func testShare_foreverCompletedIsReplayed() {
        for replay in 0..<5 { runTerminationScenario(terminal: .completed(330), replay: replay, scope: .forever) }
    }

    func testShare_foreverErrorIsReplayed() {
        for replay in 0..<5 { runTerminationScenario(terminal: .error(330, TestError()), replay: replay, scope: .forever) }
    }

    // MARK: - Standard cases

    func testShare_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.share(replay: 1) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testShare_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(250, Int.self)])
            let res = scheduler.start { xs.share(replay: 1) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testShare_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.share(replay: 1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testShare_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let res = scheduler.start { xs.share(replay: 1) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testShare_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.share(replay: 1, scope: .forever) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testShare_synchronousSourceWhileConnectedRunsAgainForEachSubscriber() {
        XCTAssertNoLeaks {
            var runs = 0
            let source = Observable<Int>.create { observer in
                runs += 1
                observer.onNext(runs)
                observer.onCompleted()
                return Disposables.create()
            }
            let shared = source.share(replay: 1, scope: .whileConnected)
            var seen: [Int] = []
            for _ in 0..<3 {
                _ = shared.subscribe(onNext: { seen.append($0) })
            }
            XCTAssertEqual(seen, [1, 2, 3])
            XCTAssertEqual(runs, 3)
        }
    }

    func testShare_synchronousSourceForeverRunsOnce() {
        XCTAssertNoLeaks {
            var runs = 0
            let source = Observable<Int>.create { observer in
                runs += 1
                observer.onNext(runs)
                observer.onCompleted()
                return Disposables.create()
            }
            let shared = source.share(replay: 1, scope: .forever)
            var events: [Event<Int>] = []
            for _ in 0..<3 {
                _ = shared.subscribe { events.append($0) }
            }
            XCTAssertEqual(events, [.next(1), .completed, .next(1), .completed, .next(1), .completed])
            XCTAssertEqual(runs, 1)
        }
    }

    func testShare_sourceDisposedWhenLastObserverLeaves() {
        XCTAssertNoLeaks {
            var subscribed = 0
            var disposed = 0
            let source = Observable<Int>.create { _ in
                subscribed += 1
                return Disposables.create { disposed += 1 }
            }
            let shared = source.share()
            let a = shared.subscribe()
            let b = shared.subscribe()
            XCTAssertEqual(subscribed, 1)
            a.dispose()
            a.dispose()
            XCTAssertEqual(disposed, 0)
            b.dispose()
            XCTAssertEqual(disposed, 1)
            let c = shared.subscribe()
            XCTAssertEqual(subscribed, 2)
            c.dispose()
            XCTAssertEqual(disposed, 2)
        }
    }

    // MARK: - Reentrancy

    func testShare_reentrantSubscribeDuringDeliveryGetsReplay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let shared = xs.share(replay: 1)
            let outer = scheduler.createObserver(Int.self)
            let inner = scheduler.createObserver(Int.self)
            var innerSubscription: Disposable?
            var outerSubscription: Disposable?
            scheduler.scheduleAt(200) {
                outerSubscription = shared.subscribe { event in
                    outer.on(event)
                    if case .next(2) = event { innerSubscription = shared.subscribe(inner) }
                }
            }
            scheduler.start()
            XCTAssertEqual(outer.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            XCTAssertEqual(inner.events, [.next(220, 2), .next(230, 3), .completed(240)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
            innerSubscription?.dispose()
            outerSubscription?.dispose()
        }
    }

    func testShare_reentrantDisposeOfLastObserverDisconnects() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
            let shared = xs.share(replay: 1)
            let res = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = shared.subscribe { event in
                    res.on(event)
                    if case .next(2) = event { subscription?.dispose() }
                }
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    // MARK: - Threads

    /// Subscribers join (and some leave) from several threads while the source emits; each must see
    /// consecutive elements (the replayed one, then every later one), never a gap or a duplicate.
    func testShare_replayOneConcurrentSubscribersSeeConsecutiveElements() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            XCTAssertNoLeaks {
                let subject = PublishSubject<Int>()
                // Safety: the shared sequence is thread-safe by design; that is what this test checks.
                let box = SendableBox(subject.share(replay: 1, scope: scope))
                let anchor = ThreadSafeRecorder<Int>()
                let anchorSubscription = box.value.subscribe(anchor)
                let joinersPerThread = 1_000
                let threads = 4
                let finished = CounterBox()
                let emitted = CounterBox()
                let recorders = LockedState([(ThreadSafeRecorder<Int>, Bool)]())

                DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
                    if index == 0 {
                        // Emit until every joiner is done, so joining always overlaps emission.
                        while finished.value < threads {
                            subject.onNext(emitted.value)
                            emitted.increment()
                        }
                        return
                    }
                    for joiner in 0..<joinersPerThread {
                        let recorder = ThreadSafeRecorder<Int>()
                        let subscription = box.value.subscribe(recorder)
                        let leaves = joiner % 3 == 0
                        if leaves { subscription.dispose() }
                        recorders.withLock { $0.append((recorder, leaves)) }
                    }
                    finished.increment()
                }
                let count = emitted.value
                subject.onNext(count)
                subject.onCompleted()

                XCTAssertEqual(anchor.events, (0...count).map { Event.next($0) } + [.completed])
                let all = recorders.withLock { $0 }
                XCTAssertEqual(all.count, threads * joinersPerThread)
                for (recorder, left) in all {
                    let events = recorder.events
                    let values = events.compactMap(\.element)
                    for (a, b) in zip(values, values.dropFirst()) where b != a + 1 {
                        XCTFail("gap or duplicate: \(a) then \(b)")
                        break
                    }
                    if !left {
                        XCTAssertEqual(values.last, count)
                        XCTAssertEqual(events.last.map { $0.isCompleted }, true)
                        XCTAssertEqual(events.filter(\.isStopEvent).count, 1)
                    } else {
                        XCTAssertFalse(events.contains { $0.isStopEvent })
                    }
                }
                anchorSubscription.dispose()
                XCTAssertFalse(subject.hasObservers)
            }
        }
    }

    /// Observers join and leave from several threads, repeatedly taking the count through zero,
    /// while the source emits: the connection must end up disposed, and a later observer must be
    /// connected again.
    func testShare_concurrentJoinAndLeaveKeepsConnectionConsistent() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            // Safety: the shared sequence is thread-safe by design; that is what this test checks.
            let box = SendableBox(subject.share(replay: 1))
            let finished = CounterBox()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index == 0 {
                    var value = 0
                    while finished.value < 3 && value < 2_000_000 {
                        subject.onNext(value)
                        value += 1
                    }
                    return
                }
                for _ in 0..<2_000 {
                    let recorder = ThreadSafeRecorder<Int>()
                    let subscription = box.value.subscribe(recorder)
                    subscription.dispose()
                    let values = recorder.events.compactMap(\.element)
                    for (a, b) in zip(values, values.dropFirst()) where b != a + 1 {
                        XCTFail("gap or duplicate: \(a) then \(b)")
                        break
                    }
                }
                finished.increment()
            }
            XCTAssertFalse(subject.hasObservers)
            let late = ThreadSafeRecorder<Int>()
            let subscription = box.value.subscribe(late)
            subject.onNext(-1)
            subject.onCompleted()
            XCTAssertEqual(late.events, [.next(-1), .completed])
            subscription.dispose()
        }
    }
}

/// A counter shared between test threads.
private final class CounterBox: @unchecked Sendable {
    // Safety: the counter is only accessed under its lock.
    private let counter = LockedState(0)
    var value: Int { counter.withLock { $0 } }
    func increment() { counter.withLock { $0 += 1 } }
}

/// Carries a value the test knows to be thread-safe into a `@Sendable` closure.
private struct SendableBox<Value>: @unchecked Sendable {
    // Safety: only used for values (shared sequences) whose thread-safety is under test.
    let value: Value
    init(_ value: Value) { self.value = value }
}
