import XCTest
import Streams
import StreamsTest

final class AsyncSubjectTests: XCTestCase {
    func testAsyncSubject_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .completed(630), .next(640, 9), .completed(650),
            ])
            var subject: AsyncSubject<Int>!
            var source: Disposable!
            var subscription1: Disposable!, subscription2: Disposable!, subscription3: Disposable!
            let results1 = scheduler.createObserver(Int.self)
            let results2 = scheduler.createObserver(Int.self)
            let results3 = scheduler.createObserver(Int.self)

            scheduler.scheduleAt(100) { subject = AsyncSubject() }
            scheduler.scheduleAt(200) { source = xs.subscribe(subject) }
            scheduler.scheduleAt(1000) { source.dispose() }
            scheduler.scheduleAt(300) { subscription1 = subject.subscribe(results1) }
            scheduler.scheduleAt(400) { subscription2 = subject.subscribe(results2) }
            scheduler.scheduleAt(900) { subscription3 = subject.subscribe(results3) }
            scheduler.scheduleAt(600) { subscription1.dispose() }
            scheduler.scheduleAt(700) { subscription2.dispose() }
            scheduler.scheduleAt(950) { subscription3.dispose() }
            scheduler.start()

            XCTAssertEqual(results1.events, [])
            XCTAssertEqual(results2.events, [.next(630, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.next(900, 7), .completed(900)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testAsyncSubject_empty() {
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            _ = subject.subscribe(early)
            subject.onCompleted()
            subject.onNext(1)
            _ = subject.subscribe(late)
            XCTAssertEqual(early.events, [.completed])
            XCTAssertEqual(late.events, [.completed])
        }
    }

    func testAsyncSubject_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
            let subject = AsyncSubject<Int>()
            let source = xs.subscribe(subject)
            let res = scheduler.start { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testAsyncSubject_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(300, SubjectTestError()), .next(310, 2), .completed(320)])
            let subject = AsyncSubject<Int>()
            let source = xs.subscribe(subject)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
            let res = scheduler.start { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [.error(300, SubjectTestError())])
            XCTAssertEqual(late.events, [.error(400, SubjectTestError())])
        }
    }

    func testAsyncSubject_errorReleasesLastElement() {
        final class Box {}
        weak var weakBox: Box?
        let subject = AsyncSubject<Box>()
        do {
            let box = Box()
            weakBox = box
            subject.onNext(box)
        }
        XCTAssertNotNil(weakBox)
        subject.onError(SubjectTestError())
        XCTAssertNil(weakBox)
    }

    func testAsyncSubject_disposeSubscriptionBeforeCompletion() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let subject = AsyncSubject<Int>()
            let source = xs.subscribe(subject)
            let res = scheduler.start(disposed: 250) { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [])
        }
    }

    func testAsyncSubject_hasObservers() {
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            XCTAssertFalse(subject.hasObservers)
            let first = subject.subscribe { _ in }
            let second = subject.subscribe { _ in }
            XCTAssertTrue(subject.hasObservers)
            first.dispose()
            XCTAssertTrue(subject.hasObservers)
            subject.onNext(1)
            XCTAssertTrue(subject.hasObservers)
            subject.onCompleted()
            XCTAssertFalse(subject.hasObservers)
            second.dispose()
            _ = subject.subscribe { _ in }
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testAsyncSubject_reentrantSendAndSubscribe() {
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            let inner = EventRecorder<Int>()
            let outer = EventRecorder<Int>()
            let reentrant = subject.subscribe(onNext: { value in
                subject.onNext(value + 100)  // ignored: the subject has terminated
                _ = subject.subscribe(inner)
            })
            let recorded = subject.subscribe(outer)
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            XCTAssertEqual(inner.events, [.next(2), .completed])
            XCTAssertEqual(outer.events, [.next(2), .completed])
            reentrant.dispose()
            recorded.dispose()
        }
    }

    func testAsyncSubject_reentrantCompletionFromObserver() {
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            let source = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let feed = source.subscribe(subject)
            // Completes the subject from inside an observer of its own source.
            let trigger = source.subscribe(onNext: { value in
                if value == 2 { subject.onCompleted() }
            })
            let recorded = subject.subscribe(recorder)
            source.onNext(1)
            source.onNext(2)
            source.onNext(3)
            XCTAssertEqual(recorder.events, [.next(2), .completed])
            feed.dispose()
            trigger.dispose()
            recorded.dispose()
        }
    }

    func testAsyncSubject_releasesObserversAndItself() {
        weak var weakSubject: AsyncSubject<Int>?
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            weakSubject = subject
            let subscription = subject.subscribe(onNext: { _ in _ = subject.hasObservers })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertNil(weakSubject)
    }

    /// Several threads subscribe and unsubscribe while one sends and completes: every observer
    /// gets either nothing or exactly the last element and `completed`.
    func testAsyncSubject_stressSubscribeWhileSending() {
        XCTAssertNoLeaks {
            let subject = AsyncSubject<Int>()
            let count = 5_000
            let results = stressSubscribeWhileSending(subject, count: count, send: { subject.onNext($0) }, finish: { subject.onCompleted() })
            let trials = results.trials.withLock { $0 }
            XCTAssertGreaterThanOrEqual(trials.count, 600)
            for trial in trials {
                let events = trial.recorder.events
                if trial.kept {
                    XCTAssertEqual(events, [.next(count), .completed])
                } else {
                    XCTAssertTrue(events == [] || events == [.next(count), .completed], "\(events)")
                }
            }
            XCTAssertFalse(subject.hasObservers)
            results.disposeKept()
        }
    }
}
