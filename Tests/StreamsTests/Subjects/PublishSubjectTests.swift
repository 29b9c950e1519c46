import XCTest
import Streams
import StreamsTest

final class PublishSubjectTests: XCTestCase {
    func testPublishSubject_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .completed(630), .next(640, 9), .completed(650),
            ])
            var subject: PublishSubject<Int>!
            var source: Disposable!
            var subscription1: Disposable!, subscription2: Disposable!, subscription3: Disposable!
            let results1 = scheduler.createObserver(Int.self)
            let results2 = scheduler.createObserver(Int.self)
            let results3 = scheduler.createObserver(Int.self)

            scheduler.scheduleAt(100) { subject = PublishSubject() }
            scheduler.scheduleAt(200) { source = xs.subscribe(subject) }
            scheduler.scheduleAt(1000) { source.dispose() }
            scheduler.scheduleAt(300) { subscription1 = subject.subscribe(results1) }
            scheduler.scheduleAt(400) { subscription2 = subject.subscribe(results2) }
            scheduler.scheduleAt(900) { subscription3 = subject.subscribe(results3) }
            scheduler.scheduleAt(600) { subscription1.dispose() }
            scheduler.scheduleAt(700) { subscription2.dispose() }
            scheduler.scheduleAt(800) { subscription1.dispose() }
            scheduler.scheduleAt(950) { subscription3.dispose() }
            scheduler.start()

            XCTAssertEqual(results1.events, [.next(340, 5), .next(410, 6), .next(520, 7)])
            XCTAssertEqual(results2.events, [.next(410, 6), .next(520, 7), .completed(630)])
            XCTAssertEqual(results3.events, [.completed(900)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testPublishSubject_empty() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            _ = subject.subscribe(early)
            subject.onCompleted()
            subject.onNext(1)
            _ = subject.subscribe(late)
            XCTAssertEqual(early.events, [.completed])
            XCTAssertEqual(late.events, [.completed])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testPublishSubject_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let subject = PublishSubject<Int>()
            let source = xs.subscribe(subject)
            let res = scheduler.start { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testPublishSubject_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(300, SubjectTestError()), .next(310, 2)])
            let subject = PublishSubject<Int>()
            let source = xs.subscribe(subject)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
            let res = scheduler.start { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [.next(210, 1), .error(300, SubjectTestError())])
            XCTAssertEqual(late.events, [.error(400, SubjectTestError())])
        }
    }

    func testPublishSubject_disposeSubscriptionMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3), .completed(300)])
            let subject = PublishSubject<Int>()
            let source = xs.subscribe(subject)
            let res = scheduler.start(disposed: 250) { subject.asObservable() }
            source.dispose()
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 2)])
        }
    }

    func testPublishSubject_disposeSubject() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
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
            XCTAssertEqual(late.events, [.error(RxError.disposed(object: "PublishSubject"))])
            subscription.dispose()
            subject.dispose()
        }
    }

    func testPublishSubject_hasObservers() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            XCTAssertFalse(subject.hasObservers)
            let first = subject.subscribe { _ in }
            XCTAssertTrue(subject.hasObservers)
            let second = subject.subscribe { _ in }
            first.dispose()
            XCTAssertTrue(subject.hasObservers)
            second.dispose()
            XCTAssertFalse(subject.hasObservers)
            second.dispose()
            _ = subject.subscribe { _ in }
            XCTAssertTrue(subject.hasObservers)
            subject.onCompleted()
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testPublishSubject_reentrantOnNext() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var first: [Int] = []
            var second: [Int] = []
            let a = subject.subscribe(onNext: { value in
                first.append(value)
                if value < 3 { subject.onNext(value + 1) }
            })
            let b = subject.subscribe(onNext: { second.append($0) })
            subject.onNext(1)
            // Nested sends are delivered depth-first, as in RxSwift: the second observer
            // sees the reentrant elements before the one that caused them.
            XCTAssertEqual(first, [1, 2, 3])
            XCTAssertEqual(second, [3, 2, 1])
            a.dispose()
            b.dispose()
        }
    }

    func testPublishSubject_reentrantTerminationAndDispose() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            var subscription: Disposable?
            subscription = subject.subscribe(onNext: { value in
                if value == 2 { subscription?.dispose() }
            })
            let other = subject.subscribe(recorder)
            let completer = subject.subscribe(onNext: { value in
                if value == 3 { subject.onCompleted() }
            })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertTrue(subject.hasObservers)
            subject.onNext(3)
            subject.onNext(4)
            XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
            XCTAssertFalse(subject.hasObservers)
            other.dispose()
            completer.dispose()
        }
    }

    func testPublishSubject_subscribeFromInsideObserver() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let inner = EventRecorder<Int>()
            var innerSubscription: Disposable?
            let outer = subject.subscribe(onNext: { value in
                if value == 1 { innerSubscription = subject.subscribe(inner) }
            })
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            XCTAssertEqual(inner.events, [.next(2), .completed])
            outer.dispose()
            innerSubscription?.dispose()
        }
    }

    func testPublishSubject_releasesObserversAndItself() {
        weak var weakSubject: PublishSubject<Int>?
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            // The observer captures the subject: a cycle until the subscription ends.
            let subscription = subject.subscribe(onNext: { _ in _ = subject.hasObservers })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertNil(weakSubject)
    }

    func testPublishSubject_stressSubscribeWhileSending() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let count = 5_000
            let results = stressSubscribeWhileSending(subject, count: count, send: { subject.onNext($0) }, finish: { subject.onCompleted() })
            let trials = results.trials.withLock { $0 }
            XCTAssertGreaterThanOrEqual(trials.count, 600)
            for trial in trials {
                let events = trial.recorder.events
                let elements = trial.recorder.elements
                assertGrammar(events)
                assertContiguous(elements)
                if let first = elements.first {
                    XCTAssertGreaterThan(first, trial.sentBefore)
                }
                if trial.kept {
                    XCTAssertEqual(events.last, .completed)
                    if let first = elements.first {
                        // An element being sent while subscribing (not yet counted) may miss
                        // the new observer; the one after it may not.
                        XCTAssertLessThanOrEqual(first, trial.sentAfter + 2)
                        XCTAssertEqual(elements.last, count)
                    }
                }
            }
            XCTAssertFalse(subject.hasObservers)
            results.disposeKept()
        }
    }

    func testPublishSubject_stressSubscribeAndDisposeWhileSending() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            runConcurrently(
                subscribers: 3,
                sender: {
                    for value in 1...20_000 { subject.onNext(value) }
                },
                subscriber: { _ in
                    for _ in 0..<300 {
                        let recorder = EventRecorder<Int>()
                        let subscription = subject.subscribe(recorder)
                        _ = subject.hasObservers
                        subscription.dispose()
                        assertContiguous(recorder.elements)
                    }
                })
            XCTAssertFalse(subject.hasObservers)
            subject.onCompleted()
        }
    }
}

/// Subscriptions leave a subject in any order; the right observers stay (the list is searched
/// by key).
final class ObserverListRemovalTests: XCTestCase {
    func testObserverList_removalInAnyOrderKeepsTheOthers() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received = Array(repeating: 0, count: 200)
            var subscriptions = (0..<200).map { index in subject.subscribe(onNext: { received[index] += $0 }) }
            // Last-first, then every other one from the front, then the rest.
            for index in stride(from: 199, through: 150, by: -1) { subscriptions[index].dispose() }
            for index in stride(from: 0, to: 150, by: 2) { subscriptions[index].dispose() }
            subject.onNext(1)
            XCTAssertEqual(received.enumerated().filter { $0.element == 1 }.map(\.offset), Array(stride(from: 1, to: 150, by: 2)))
            subscriptions[1].dispose()
            subscriptions[1].dispose()  // twice: nothing else is removed
            subject.onNext(1)
            XCTAssertEqual(received[3], 2)
            XCTAssertEqual(received[1], 1)
            for subscription in subscriptions { subscription.dispose() }
            subscriptions.removeAll()
            XCTAssertFalse(subject.hasObservers)
        }
    }

    /// The subject holds each registered observer once (its node is moved into the list): a
    /// subscription's observer, a closure observer registered as its own node or a plain observer
    /// behind a node, lives while subscribed and is released on dispose; one rejected after
    /// termination is released at once.
    func testPublishSubject_holdsEachObserverUntilItsSubscriptionEnds() {
        final class Token: @unchecked Sendable {}
        let subject = PublishSubject<Int>()
        weak var loneToken: Token?
        do {
            let token = Token()
            loneToken = token
            let lone = subject.subscribe(onNext: { _ in _ = token })
            subject.onNext(0)
            lone.dispose()
        }
        XCTAssertNil(loneToken, "a lone observer (held inline) is released on dispose")
        weak var closureToken: Token?
        weak var plainToken: Token?
        var subscriptions: [Disposable] = []
        do {
            let first = Token(), second = Token()
            closureToken = first
            plainToken = second
            subscriptions.append(subject.subscribe(onNext: { _ in _ = first }))
            subscriptions.append(subject.subscribe(AnyObserver<Int> { _ in _ = second }))
        }
        subject.onNext(1)
        XCTAssertNotNil(closureToken, "a closure observer lives while subscribed")
        XCTAssertNotNil(plainToken, "a plain observer's node lives while subscribed")
        subscriptions[0].dispose()
        XCTAssertNil(closureToken, "released on dispose")
        XCTAssertNotNil(plainToken)
        subscriptions[1].dispose()
        XCTAssertNil(plainToken, "released on dispose")
        XCTAssertFalse(subject.hasObservers)

        subject.onCompleted()
        weak var lateToken: Token?
        var late: Disposable?
        do {
            let token = Token()
            lateToken = token
            late = subject.subscribe(onNext: { _ in _ = token })
        }
        XCTAssertNil(lateToken, "a rejected observer is not kept")
        late?.dispose()
    }
}
