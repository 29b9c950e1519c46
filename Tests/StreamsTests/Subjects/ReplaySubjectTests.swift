import XCTest
import Streams
import StreamsTest

final class ReplaySubjectTests: XCTestCase {
    /// Runs the RxSwift-style scenario: a hot source feeds the subject from 200; observers
    /// subscribe at 300, 400 and 900 and leave at 600, 700 and 950.
    private func runScenario(
        _ makeSubject: @escaping () -> ReplaySubject<Int>,
        terminal: Recorded<Event<Int>> = .completed(630)
    ) -> (TestableObserver<Int>, TestableObserver<Int>, TestableObserver<Int>, [Subscription]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
            .next(410, 6), .next(520, 7), terminal, .next(640, 9), .completed(650),
        ])
        var subject: ReplaySubject<Int>!
        var source: Disposable!
        var subscription1: Disposable!, subscription2: Disposable!, subscription3: Disposable!
        let results1 = scheduler.createObserver(Int.self)
        let results2 = scheduler.createObserver(Int.self)
        let results3 = scheduler.createObserver(Int.self)

        scheduler.scheduleAt(100) { subject = makeSubject() }
        scheduler.scheduleAt(200) { source = xs.subscribe(subject) }
        scheduler.scheduleAt(1000) { source.dispose() }
        scheduler.scheduleAt(300) { subscription1 = subject.subscribe(results1) }
        scheduler.scheduleAt(400) { subscription2 = subject.subscribe(results2) }
        scheduler.scheduleAt(900) { subscription3 = subject.subscribe(results3) }
        scheduler.scheduleAt(600) { subscription1.dispose() }
        scheduler.scheduleAt(700) { subscription2.dispose() }
        scheduler.scheduleAt(950) { subscription3.dispose() }
        scheduler.start()
        return (results1, results2, results3, xs.subscriptions)
    }

    func testReplaySubject_bounded() {
        XCTAssertNoLeaks {
            let (results1, results2, results3, subscriptions) = runScenario { ReplaySubject.create(bufferSize: 3) }
            XCTAssertEqual(results1.events, [.next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(400, 3), .next(400, 4), .next(400, 5), .next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.next(900, 5), .next(900, 6), .next(900, 7), .completed(900)])
            XCTAssertEqual(subscriptions, [Subscription(200, 1000)])
        }
    }

    func testReplaySubject_bufferSizeOne() {
        XCTAssertNoLeaks {
            let (results1, results2, results3, _) = runScenario { ReplaySubject.create(bufferSize: 1) }
            XCTAssertEqual(results1.events, [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(400, 5), .next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.next(900, 7), .completed(900)])
        }
    }

    func testReplaySubject_unbounded() {
        XCTAssertNoLeaks {
            let (results1, results2, results3, _) = runScenario { ReplaySubject.createUnbounded() }
            XCTAssertEqual(results1.events, [.next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(400, 3), .next(400, 4), .next(400, 5), .next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.next(900, 3), .next(900, 4), .next(900, 5), .next(900, 6), .next(900, 7), .completed(900)])
        }
    }

    func testReplaySubject_error() {
        XCTAssertNoLeaks {
            let (results1, results2, results3, _) = runScenario({ ReplaySubject.create(bufferSize: 2) }, terminal: .error(630, SubjectTestError()))
            XCTAssertEqual(results1.events, [.next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(400, 4), .next(400, 5), .next(410, 6), .next(520, 7), .error(630, SubjectTestError())])
            XCTAssertEqual(results3.events, [.next(900, 6), .next(900, 7), .error(900, SubjectTestError())])
        }
    }

    func testReplaySubject_bufferSizeZeroReplaysOnlyTheTerminalEvent() {
        XCTAssertNoLeaks {
            let (results1, results2, results3, _) = runScenario { ReplaySubject.create(bufferSize: 0) }
            XCTAssertEqual(results1.events, [.next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.completed(900)])
        }
    }

    func testReplaySubject_negativeBufferSizeBehavesAsZero() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.create(bufferSize: -5)
            subject.onNext(1)
            subject.onNext(2)
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(3)
            subject.onCompleted()
            let late = EventRecorder<Int>()
            _ = subject.subscribe(late)
            XCTAssertEqual(recorder.events, [.next(3), .completed])
            XCTAssertEqual(late.events, [.completed])
            subscription.dispose()
        }
    }

    func testReplaySubject_ringBufferKeepsOrderAfterWrapping() {
        XCTAssertNoLeaks {
            for bufferSize in 1...5 {
                let subject = ReplaySubject<Int>.create(bufferSize: bufferSize)
                for count in 0...12 {
                    let recorder = EventRecorder<Int>()
                    _ = subject.subscribe(recorder).dispose()
                    let expected = Array(max(1, count - bufferSize + 1)..<count + 1)
                    XCTAssertEqual(recorder.elements, count == 0 ? [] : expected, "bufferSize \(bufferSize), after \(count)")
                    subject.onNext(count + 1)
                }
            }
        }
    }

    func testReplaySubject_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = ReplaySubject<Int>.create(bufferSize: 3)
            let res = scheduler.start { subject.asObservable() }
            XCTAssertEqual(res.events, [])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testReplaySubject_emptyLateSubscriber() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.createUnbounded()
            subject.onCompleted()
            subject.onNext(1)
            let recorder = EventRecorder<Int>()
            _ = subject.subscribe(recorder)
            XCTAssertEqual(recorder.events, [.completed])
        }
    }

    func testReplaySubject_disposeSubscriptionMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .next(260, 4), .completed(300)])
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            let source = xs.subscribe(subject)
            let res = scheduler.start(disposed: 250) { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [.next(200, 1), .next(210, 2), .next(240, 3)])
        }
    }

    func testReplaySubject_disposeSubject() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.createUnbounded()
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(1)
            XCTAssertFalse(subject.isDisposed)
            subject.dispose()
            XCTAssertTrue(subject.isDisposed)
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(2)
            subject.onCompleted()
            XCTAssertEqual(recorder.events, [.next(1)])

            let late = EventRecorder<Int>()
            _ = subject.subscribe(late)
            XCTAssertEqual(late.events, [.error(RxError.disposed(object: "ReplaySubject"))])
            subscription.dispose()
        }
    }

    func testReplaySubject_disposeReleasesBufferedElements() {
        final class Box {}
        weak var weakBox: Box?
        let subject = ReplaySubject<Box>.createUnbounded()
        do {
            let box = Box()
            weakBox = box
            subject.onNext(box)
        }
        XCTAssertNotNil(weakBox)
        subject.dispose()
        XCTAssertNil(weakBox)
    }

    func testReplaySubject_evictedElementsAreReleased() {
        final class Box {}
        weak var weakBox: Box?
        let subject = ReplaySubject<Box>.create(bufferSize: 1)
        do {
            let box = Box()
            weakBox = box
            subject.onNext(box)
        }
        XCTAssertNotNil(weakBox)
        subject.onNext(Box())
        XCTAssertNil(weakBox)
    }

    func testReplaySubject_hasObservers() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            XCTAssertFalse(subject.hasObservers)
            let first = subject.subscribe { _ in }
            let second = subject.subscribe { _ in }
            XCTAssertTrue(subject.hasObservers)
            first.dispose()
            XCTAssertTrue(subject.hasObservers)
            second.dispose()
            XCTAssertFalse(subject.hasObservers)
            _ = subject.subscribe { _ in }
            subject.onCompleted()
            XCTAssertFalse(subject.hasObservers)
            _ = subject.subscribe { _ in }
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testReplaySubject_reentrantOnNextDuringReplay() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            subject.onNext(1)
            subject.onNext(2)
            var received: [Int] = []
            let subscription = subject.subscribe(onNext: { value in
                received.append(value)
                if value == 1 { subject.onNext(3) }
                if value == 3 { subject.onNext(4) }
            })
            // 3 is sent while 1 is being replayed: it waits until the replay (1, 2) is done.
            XCTAssertEqual(received, [1, 2, 3, 4])
            subject.onNext(5)
            XCTAssertEqual(received, [1, 2, 3, 4, 5])
            subscription.dispose()
        }
    }

    func testReplaySubject_reentrantTerminationDuringReplay() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.createUnbounded()
            subject.onNext(1)
            subject.onNext(2)
            let recorder = EventRecorder<Int>()
            let completer = subject.subscribe(onNext: { value in
                if value == 1 { subject.onCompleted() }
            })
            _ = subject.subscribe(recorder)
            XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
            XCTAssertFalse(subject.hasObservers)
            completer.dispose()
        }
    }

    func testReplaySubject_releasesObserversAndItself() {
        weak var weakSubject: ReplaySubject<Int>?
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            weakSubject = subject
            subject.onNext(1)
            let subscription = subject.subscribe(onNext: { _ in _ = subject.hasObservers })
            subject.onNext(2)
            subscription.dispose()
        }
        XCTAssertNil(weakSubject)
    }

    /// One thread sends while others subscribe: every observer must see a contiguous, increasing
    /// sequence starting with its replay (nothing overtakes the replay).
    func testReplaySubject_stressBoundedReplayIsNeverOvertaken() {
        XCTAssertNoLeaks {
            let bufferSize = 3
            let subject = ReplaySubject<Int>.create(bufferSize: bufferSize)
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
                    // Only an observer that subscribed before anything was sent, and left at
                    // once, may see nothing.
                    XCTAssertEqual(trial.sentBefore, 0)
                    XCTAssertFalse(trial.kept)
                    continue
                }
                // The replay is the latest `bufferSize` elements at the time of subscribing.
                XCTAssertGreaterThanOrEqual(first, max(1, trial.sentBefore - bufferSize + 1))
                XCTAssertLessThanOrEqual(first, max(1, trial.sentAfter + 1 - bufferSize + 1))
                if trial.kept {
                    XCTAssertEqual(elements.last, count)
                    XCTAssertEqual(events.last, .completed)
                }
            }
            XCTAssertFalse(subject.hasObservers)
            results.disposeKept()
        }
    }

    func testReplaySubject_stressUnboundedReplayIsNeverOvertaken() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.createUnbounded()
            let count = 3_000
            let results = stressSubscribeWhileSending(
                subject, count: count, cycles: 60, send: { subject.onNext($0) }, finish: { subject.onCompleted() })
            for trial in results.trials.withLock({ $0 }) {
                let events = trial.recorder.events
                let elements = trial.recorder.elements
                assertGrammar(events)
                assertContiguous(elements)
                if let first = elements.first { XCTAssertEqual(first, 1) }
                XCTAssertGreaterThanOrEqual(elements.count, trial.sentBefore)
                if trial.kept {
                    XCTAssertEqual(elements, Array(1...count))
                    XCTAssertEqual(events.last, .completed)
                }
            }
            XCTAssertFalse(subject.hasObservers)
            results.disposeKept()
        }
    }
}
