import Streams
import StreamsTest
import XCTest

/// Pipelines on which Streams once recorded other events or subscriptions than RxSwift 6.10.2
/// (issue 42, from a differential campaign of random pipelines run in virtual time against
/// both). The expected values are RxSwift's recordings, written out.
///
/// `x0` is cold `next(10, 1), next(20, 2), completed(50)`, `x1` cold `next(30, 7), completed(40)`,
/// `h` hot `next(210, 1), next(220, 2), completed(250)`; `start` subscribes at 200.
final class RxSwiftParityTests: XCTestCase {
    struct TestError: Error, Equatable {}

    private func x0(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(50)])
    }

    private func x1(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(30, 7), .completed(40)])
    }

    private func h(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    }

    // MARK: 1. Inner sequences built with `just` emit without starting the trampoline

    /// RxSwift's recording of every `firstStage` variant: `of` below emits both elements of each
    /// inner sequence before the next element arrives, because `just` (the first stage's inner
    /// sequence) emits without starting the trampoline.
    private let sharedJustEvents: [Recorded<Event<Int>>] = [
        .next(210, 1), .next(210, 11), .next(210, 1001), .next(210, 1011),
        .next(220, 2), .next(220, 12), .next(220, 1002), .next(220, 1012),
        .completed(250),
    ]

    private func assertSharedJust(_ firstStage: @escaping (Observable<Int>) -> Observable<Int>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let h = h(scheduler)
            let res = scheduler.start {
                let s = firstStage(h.asObservable()).share()
                return Observable.merge(s, s.map { $0 + 1000 }).flatMapLatest { Observable.of($0, $0 + 10) }
            }
            XCTAssertEqual(res.events, sharedJustEvents, file: file, line: line)
            XCTAssertEqual(h.subscriptions, [Subscription(200, 250)], file: file, line: line)
        }
    }

    func testFlatMap_justInnerEmitsOffTheTrampoline() {
        assertSharedJust { $0.flatMap { Observable.just($0) } }
    }

    func testConcatMap_justInnerEmitsOffTheTrampoline() {
        assertSharedJust { $0.concatMap { Observable.just($0) } }
    }

    func testFlatMapLatest_justInnerEmitsOffTheTrampoline() {
        assertSharedJust { $0.flatMapLatest { Observable.just($0) } }
    }

    func testSwitchLatest_justInnerEmitsOffTheTrampoline() {
        assertSharedJust { $0.map { Observable.just($0) }.switchLatest() }
    }

    /// An operator inner sequence (`just(...).map`) subscribes on the trampoline, as in RxSwift:
    /// `of` below waits until the first stage's inner sequence has delivered to every observer
    /// of the shared sequence, so the later `flatMapLatest` switch cancels the earlier `of`.
    func testFlatMap_operatorInnerRunsOnTheTrampoline() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let h = h(scheduler)
            let res = scheduler.start {
                let s = h.flatMap { Observable.just($0).map { $0 } }.share()
                return Observable.merge(s, s.map { $0 + 1000 }).flatMapLatest { Observable.of($0, $0 + 10) }
            }
            XCTAssertEqual(res.events, [.next(210, 1001), .next(210, 1011), .next(220, 1002), .next(220, 1012), .completed(250)])
            XCTAssertEqual(h.subscriptions, [Subscription(200, 250)])
        }
    }

    // MARK: 2. Inputs after one that ended the output are subscribed and disposed at once

    func testWithLatestFrom_firstSubscribedAfterSecondFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x0 = x0(scheduler)
            let res = scheduler.start { x0.withLatestFrom(Observable<Int>.error(TestError())) }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(x0.subscriptions, [Subscription(200, 200)])
        }
    }

    func testTakeUntil_sourceSubscribedAfterOtherEmitted() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x0 = x0(scheduler)
            let res = scheduler.start { x0.take(until: Observable.just(0)) }
            XCTAssertEqual(res.events, [.completed(200)])
            XCTAssertEqual(x0.subscriptions, [Subscription(200, 200)])
        }
    }

    func testSkipUntil_otherSubscribedAfterSourceCompleted() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = x1(scheduler)
            let res = scheduler.start { Observable<Int>.empty().skip(until: x1) }
            // No completion while skipping, as in RxSwift (the completion is skipped too).
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(x1.subscriptions, [Subscription(200, 200)])
        }
    }

    func testCombineLatest_secondSubscribedAfterFirstFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = x1(scheduler)
            let res = scheduler.start { Observable.combineLatest(Observable<Int>.error(TestError()), x1) { $0 + $1 } }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(x1.subscriptions, [Subscription(200, 200)])
        }
    }

    func testZip_secondSubscribedAfterFirstFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = x1(scheduler)
            let res = scheduler.start { Observable.zip(Observable<Int>.error(TestError()), x1) { $0 + $1 } }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(x1.subscriptions, [Subscription(200, 200)])
        }
    }

    func testMerge_secondSubscribedAfterFirstFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = x1(scheduler)
            let res = scheduler.start { Observable.merge(Observable<Int>.error(TestError()), x1.asObservable()) }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(x1.subscriptions, [Subscription(200, 200)])
        }
    }

    func testAmb_loserSubscribedAfterWinnerEmitted() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = x1(scheduler)
            let res = scheduler.start { Observable.just(5).amb(x1) }
            XCTAssertEqual(res.events, [.next(200, 5), .completed(200)])
            XCTAssertEqual(x1.subscriptions, [Subscription(200, 200)])
        }
    }

    /// Found by the differential campaign (F2, case 370).
    func testSample_samplerSubscribedAfterSourceFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let sampler = scheduler.createHotObservable([.next(230, 4), .next(260, 3)])
            let res = scheduler.start { Observable<Int>.error(TestError()).sample(sampler) }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(sampler.subscriptions, [Subscription(200, 200)])
        }
    }

    /// The `deferred` factory of an input after a failed one runs, as in RxSwift.
    func testCombineLatest_deferredFactoryRunsAfterFirstFailed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var factoryRuns = 0
            let res = scheduler.start {
                Observable.combineLatest(
                    Observable<Int>.error(TestError()),
                    Observable.deferred {
                        factoryRuns += 1
                        return Observable.just(1)
                    }
                ) { $0 + $1 }
            }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(factoryRuns, 1)
        }
    }

    func testStartWith_sourceSubscribedAfterDownstreamTookEnough() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x0 = x0(scheduler)
            let res = scheduler.start { x0.startWith(6).take(1) }
            XCTAssertEqual(res.events, [.next(200, 6), .completed(200)])
            XCTAssertEqual(x0.subscriptions, [Subscription(200, 200)])
        }
    }

    // MARK: 3. Observer order after a removal: a freed first slot goes to the next observer

    /// Observers A, B subscribe; A is disposed; C subscribes: C gets each element before B.
    private func assertFreedFirstSlotOrder<S: ObservableType & ObserverType>(_ subject: S, file: StaticString = #filePath, line: UInt = #line)
    where S.Element == Int {
        var received: [String] = []
        let a = subject.subscribe(onNext: { received.append("A\($0)") })
        let b = subject.subscribe(onNext: { received.append("B\($0)") })
        a.dispose()
        let c = subject.subscribe(onNext: { received.append("C\($0)") })
        received.removeAll()  // a behavior subject's current value
        subject.onNext(1)
        XCTAssertEqual(received, ["C1", "B1"], file: file, line: line)
        let d = subject.subscribe(onNext: { received.append("D\($0)") })
        received.removeAll()
        subject.onNext(2)
        XCTAssertEqual(received, ["C2", "B2", "D2"], file: file, line: line)
        b.dispose()
        c.dispose()
        d.dispose()
    }

    func testPublishSubject_freedFirstSlotGoesToNextObserver() {
        XCTAssertNoLeaks { assertFreedFirstSlotOrder(PublishSubject<Int>()) }
    }

    func testBehaviorSubject_freedFirstSlotGoesToNextObserver() {
        XCTAssertNoLeaks { assertFreedFirstSlotOrder(BehaviorSubject<Int>(value: 0)) }
    }

    func testReplaySubject_freedFirstSlotGoesToNextObserver() {
        XCTAssertNoLeaks {
            let subject = ReplaySubject<Int>.create(bufferSize: 0)
            assertFreedFirstSlotOrder(subject)
        }
    }

    func testShare_freedFirstSlotGoesToNextObserver() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let shared = source.share()
            var received: [String] = []
            let a = shared.subscribe(onNext: { received.append("A\($0)") })
            let b = shared.subscribe(onNext: { received.append("B\($0)") })
            a.dispose()
            let c = shared.subscribe(onNext: { received.append("C\($0)") })
            source.onNext(1)
            XCTAssertEqual(received, ["C1", "B1"])
            b.dispose()
            c.dispose()
        }
    }

    /// A hot test observable orders its observers as RxTest's does.
    func testHotObservable_freedFirstSlotGoesToNextObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let h = scheduler.createHotObservable([.next(300, 9), .next(400, 6), .next(500, 8)])
            let observer = scheduler.createObserver(Int.self)
            var a: Disposable?
            var b: Disposable?
            var c: Disposable?
            scheduler.scheduleAt(200) {
                a = h.subscribe { _ in }
                b = h.map { $0 + 100 }.subscribe(observer)
            }
            scheduler.scheduleAt(250) { a?.dispose() }
            scheduler.scheduleAt(260) { c = h.map { $0 + 200 }.subscribe(observer) }
            scheduler.scheduleAt(600) {
                b?.dispose()
                c?.dispose()
            }
            scheduler.start()
            XCTAssertEqual(
                observer.events,
                [.next(300, 209), .next(300, 109), .next(400, 206), .next(400, 106), .next(500, 208), .next(500, 108)])
        }
    }

    /// The order decides outcomes: `flatMapLatest`'s inner sequence takes the first slot its
    /// predecessor freed, so it gets each element before the outer observer switches away.
    func testFlatMapLatest_innerTakesFreedFirstSlot() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let h = scheduler.createHotObservable([.next(300, 9), .next(400, 6), .next(500, 8)])
            let res = scheduler.start {
                h.startWith(1).concat(Observable.never()).flatMapLatest { v in h.map { v * 10 + $0 } }
            }
            XCTAssertEqual(res.events, [.next(300, 19), .next(400, 96), .next(500, 68)])
        }
    }

    // MARK: Periodic work on virtual time schedules its next run before its action

    /// Found by the differential campaign (F1, case 673): at 202 and 203 the next tick and the
    /// previous inner's delivery are due together; the tick, scheduled first (before the action
    /// ran, as RxSwift's `SchedulePeriodicRecursive`), wins and switches the inner away.
    func testInterval_nextTickScheduledBeforeTheAction() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable<Int>.interval(.seconds(1), scheduler: scheduler).take(3)
                    .flatMapLatest { v in Observable.just(v).observe(on: scheduler) }
            }
            XCTAssertEqual(res.events, [.next(204, 2), .completed(205)])
        }
    }

    // MARK: A retry(when:) trigger that emits and ends at once ends the output

    /// Found by the differential campaign (F7, case 16431): the replayed error fails the second
    /// subscription at once; the trigger answers it with its second element and completes in the
    /// same call. RxSwift queues that resubscription behind the running one, so the completion
    /// ends the output first: one replayed 6 at 300, not two.
    func testRetryWhen_triggerThatEmitsAndCompletesEndsBeforeResubscribing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            scheduler.scheduleAt(250) { subject.onNext(6) }
            scheduler.scheduleAt(300) { subject.onError(TestError()) }
            let res = scheduler.start(disposed: 400) {
                subject.retry(when: { (errors: Observable<Error>) in errors.enumerated().map { $0.index }.take(2) })
            }
            XCTAssertEqual(res.events, [.next(250, 6), .next(300, 6), .completed(300)])
        }
    }

    // MARK: 4. `amb` follows its winner (a deliberate difference)

    /// RxSwift records `200:6` and never completes here: its right-hand observer cancels the left
    /// subscription when the right sequence ends during its own subscription. Streams follows
    /// the winner to its end, as `amb` is documented (see <doc:DifferencesFromRxSwift>).
    func testAmb_followsWinnerWhenLoserEndsDuringSubscription() {
        for loser in [Observable.just(3), .empty(), .error(TestError())] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let x0 = x0(scheduler)
                let res = scheduler.start { x0.startWith(6).amb(loser) }
                XCTAssertEqual(res.events, [.next(200, 6), .next(210, 1), .next(220, 2), .completed(250)])
                XCTAssertEqual(x0.subscriptions, [Subscription(200, 250)])
            }
        }
    }

    /// RxSwift records `x0` subscribed at (200, 200) twice: its `flatMapLatest` still subscribes
    /// an inner sequence for the `4` that `create` sends after the first inner ended the output
    /// (campaign F6, case 3224). Streams starts no more work for an ended output (see
    /// <doc:DifferencesFromRxSwift>).
    func testFlatMapLatest_endedOutputSubscribesNoMoreInners() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x0 = scheduler.createHotObservable([.next(250, 4), .next(350, 6), .next(370, 3), .error(470, TestError())])
            var selected = 0
            let res = scheduler.start(disposed: 400) {
                Observable<Int>.create { o in
                    o.onNext(9)
                    o.onNext(4)
                    o.onCompleted()
                    return Disposables.create()
                }
                .flatMapLatest { _ -> Observable<Int> in
                    selected += 1
                    return x0.withLatestFrom(Observable<Int>.error(TestError()))
                }
            }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(x0.subscriptions, [Subscription(200, 200)])
            XCTAssertEqual(selected, 1)
        }
    }

    /// RxSwift records `x0` at (200, 220) (220, 220) for `.forever` (campaign F6, case 8712) and
    /// (200, 230) (230, 230) for `.whileConnected` with `delaySubscription(30)` (issue 42): the
    /// second observer's replay ends the pipeline, and its `refCount()` counts that observer only
    /// afterwards, so it connects again. Streams does not connect for an observer disposed during
    /// its own subscription (see <doc:DifferencesFromRxSwift>).
    func testShare_noReconnectForObserverDisposedByItsReplay() {
        for (scope, delay) in [(SubjectLifetimeScope.forever, 20), (.whileConnected, 30)] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let x0 = scheduler.createHotObservable([.next(201, 1), .next(231, 4), .next(331, 7), .next(341, 8), .next(346, 5)])
                let res = scheduler.start {
                    let shared = x0.share(replay: 2, scope: scope)
                    return shared.take(until: shared.delaySubscription(.seconds(delay), scheduler: scheduler))
                }
                XCTAssertEqual(res.events, [.next(201, 1), .completed(200 + delay)])
                XCTAssertEqual(x0.subscriptions, [Subscription(200, 200 + delay)])
            }
        }
    }
}
