import XCTest
import Streams
import StreamsTest

final class BehaviorSubjectTests: XCTestCase {
    func testBehaviorSubject_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .completed(630), .next(640, 9), .completed(650),
            ])
            var subject: BehaviorSubject<Int>!
            var source: Disposable!
            var subscription1: Disposable!, subscription2: Disposable!, subscription3: Disposable!
            let results1 = scheduler.createObserver(Int.self)
            let results2 = scheduler.createObserver(Int.self)
            let results3 = scheduler.createObserver(Int.self)

            scheduler.scheduleAt(100) { subject = BehaviorSubject(value: 100) }
            scheduler.scheduleAt(200) { source = xs.subscribe(subject) }
            scheduler.scheduleAt(1000) { source.dispose() }
            scheduler.scheduleAt(300) { subscription1 = subject.subscribe(results1) }
            scheduler.scheduleAt(400) { subscription2 = subject.subscribe(results2) }
            scheduler.scheduleAt(900) { subscription3 = subject.subscribe(results3) }
            scheduler.scheduleAt(600) { subscription1.dispose() }
            scheduler.scheduleAt(700) { subscription2.dispose() }
            scheduler.scheduleAt(950) { subscription3.dispose() }
            scheduler.start()

            XCTAssertEqual(results1.events, [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(400, 5), .next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.completed(900)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testBehaviorSubject_initialValueOnly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = BehaviorSubject(value: 7)
            let res = scheduler.start { subject.asObservable() }
            XCTAssertEqual(res.events, [.next(200, 7)])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testBehaviorSubject_empty() throws {
        try XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            _ = subject.subscribe(early)
            subject.onCompleted()
            subject.onNext(1)
            _ = subject.subscribe(late)
            XCTAssertEqual(early.events, [.next(0), .completed])
            XCTAssertEqual(late.events, [.completed])
            XCTAssertEqual(try subject.value(), 0)
        }
    }

    func testBehaviorSubject_error() {
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            _ = subject.subscribe(early)
            subject.onNext(1)
            subject.onError(SubjectTestError())
            subject.onNext(2)
            _ = subject.subscribe(late)
            XCTAssertEqual(early.events, [.next(0), .next(1), .error(SubjectTestError())])
            XCTAssertEqual(late.events, [.error(SubjectTestError())])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testBehaviorSubject_value() throws {
        let subject = BehaviorSubject(value: 1)
        XCTAssertEqual(try subject.value(), 1)
        subject.onNext(2)
        XCTAssertEqual(try subject.value(), 2)
        subject.onCompleted()
        subject.onNext(3)
        XCTAssertEqual(try subject.value(), 2)
    }

    func testBehaviorSubject_valueThrowsAfterError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(SubjectTestError(code: 5))
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? SubjectTestError, SubjectTestError(code: 5))
        }
    }

    func testBehaviorSubject_valueThrowsAfterDispose() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? RxError, RxError.disposed(object: "BehaviorSubject"))
        }
    }

    func testBehaviorSubject_disposeSubscriptionMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3), .completed(300)])
            let subject = BehaviorSubject(value: 0)
            let source = xs.subscribe(subject)
            let res = scheduler.start(disposed: 250) { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [.next(200, 0), .next(210, 1), .next(240, 2)])
        }
    }

    func testBehaviorSubject_disposeSubject() {
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(1)
            subject.dispose()
            XCTAssertTrue(subject.isDisposed)
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(2)
            subject.onCompleted()
            XCTAssertEqual(recorder.events, [.next(0), .next(1)])

            let late = EventRecorder<Int>()
            _ = subject.subscribe(late)
            XCTAssertEqual(late.events, [.error(RxError.disposed(object: "BehaviorSubject"))])
            subscription.dispose()
        }
    }

    func testBehaviorSubject_hasObservers() {
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            XCTAssertFalse(subject.hasObservers)
            let first = subject.subscribe { _ in }
            let second = subject.subscribe { _ in }
            XCTAssertTrue(subject.hasObservers)
            first.dispose()
            XCTAssertTrue(subject.hasObservers)
            second.dispose()
            XCTAssertFalse(subject.hasObservers)
            _ = subject.subscribe { _ in }
            subject.onError(SubjectTestError())
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testBehaviorSubject_reentrantOnNextDuringReplay() throws {
        try XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            var received: [Int] = []
            let subscription = subject.subscribe(onNext: { value in
                received.append(value)
                if value < 3 { subject.onNext(value + 1) }
            })
            // The element sent while the current value is being replayed waits for the replay
            // to finish, then everything nested is delivered: no deadlock, nothing lost.
            XCTAssertEqual(received, [0, 1, 2, 3])
            XCTAssertEqual(try subject.value(), 3)
            subject.onNext(10)
            XCTAssertEqual(received, [0, 1, 2, 3, 10])
            subscription.dispose()
        }
    }

    func testBehaviorSubject_reentrantSubscribeAndDispose() {
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            let inner = EventRecorder<Int>()
            var innerSubscription: Disposable?
            var outerSubscription: Disposable?
            outerSubscription = subject.subscribe(onNext: { value in
                if value == 1 { innerSubscription = subject.subscribe(inner) }
                if value == 2 { outerSubscription?.dispose() }
            })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertTrue(subject.hasObservers)
            innerSubscription?.dispose()
            XCTAssertFalse(subject.hasObservers)
            XCTAssertEqual(inner.events, [.next(1), .next(2)])
        }
    }

    func testBehaviorSubject_releasesObserversAndItself() {
        weak var weakSubject: BehaviorSubject<Int>?
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            weakSubject = subject
            let subscription = subject.subscribe(onNext: { _ in _ = subject.hasObservers })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertNil(weakSubject)
    }

    /// The value an element replaces is released after the subject's lock: a value whose deinit
    /// reads the subject (taking that lock) would otherwise deadlock. Sent on another thread, so
    /// a regression fails the wait instead of hanging the suite.
    func testBehaviorSubject_replacedValueIsReleasedOutsideTheLock() {
        final class Probe: @unchecked Sendable {
            // Safety: `onDeinit` is set before the probe is shared and only read in `deinit`.
            var onDeinit: () -> Void = {}
            deinit { onDeinit() }
        }
        let subject = BehaviorSubject(value: Probe())
        let reads = ThreadSafeTestBox(0)
        /// Sends a probe that only the subject holds once this returns.
        @Sendable func sendProbe() {
            let probe = Probe()
            probe.onDeinit = { [weak subject] in
                _ = try? subject?.value()
                reads.mutate { $0 += 1 }
            }
            subject.onNext(probe)
        }
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            sendProbe()
            subject.onNext(Probe())  // replaces the probe: its deinit reads the subject
            sent.signal()
        }
        XCTAssertEqual(sent.wait(timeout: .now() + 60), .success, "deadlock: released under the lock")
        XCTAssertEqual(reads.value, 1)
    }

    /// One thread sends while others subscribe: every observer must see a contiguous, increasing
    /// sequence that starts at the value current when it subscribed (nothing overtakes the replay).
    func testBehaviorSubject_stressReplayIsNeverOvertaken() {
        XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            let count = 5_000
            let results = stressSubscribeWhileSending(subject, count: count, send: { subject.onNext($0) }, finish: { subject.onCompleted() })
            let trials = results.trials.withLock { $0 }
            XCTAssertGreaterThanOrEqual(trials.count, 600)
            for trial in trials {
                let events = trial.recorder.events
                let elements = trial.recorder.elements
                assertGrammar(events)
                assertContiguous(elements)
                guard let first = elements.first else {
                    // Only an observer that subscribed after completion gets no value.
                    XCTAssertEqual(events, [.completed])
                    continue
                }
                XCTAssertGreaterThanOrEqual(first, trial.sentBefore)
                XCTAssertLessThanOrEqual(first, trial.sentAfter + 1)
                if trial.kept {
                    XCTAssertEqual(elements.last, count)
                    XCTAssertEqual(events.last, .completed)
                }
            }
            XCTAssertFalse(subject.hasObservers)
            results.disposeKept()
        }
    }

    func testBehaviorSubject_stressSubscribeAndDisposeWhileSending() throws {
        try XCTAssertNoLeaks {
            let subject = BehaviorSubject(value: 0)
            runConcurrently(
                subscribers: 3,
                sender: {
                    for value in 1...20_000 { subject.onNext(value) }
                },
                subscriber: { _ in
                    for _ in 0..<300 {
                        let recorder = EventRecorder<Int>()
                        let subscription = subject.subscribe(recorder)
                        subscription.dispose()
                        XCTAssertFalse(recorder.elements.isEmpty)
                        assertContiguous(recorder.elements)
                    }
                })
            XCTAssertFalse(subject.hasObservers)
            XCTAssertEqual(try subject.value(), 20_000)
        }
    }
}
