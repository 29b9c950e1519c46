import XCTest
import Streams
import StreamsTest

/// The test kit's objects used inline, with no local reference, behave as RxTest's: what the
/// scheduler has yet to play stays alive until it has played, and nothing outlives the scheduler.
final class TestKitLifetimeTests: XCTestCase {
    // Fails on ce3e235: the hot observable captured itself weakly, so inline it recorded `[]`.
    func testHotObservable_inline_bindToRelay_playsEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        relay.bind(to: observer).disposed(by: bag)
        scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)]).bind(to: relay).disposed(by: bag)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
    }

    // Fails on ce3e235 (records `[]`).
    func testHotObservable_inline_marbles_playsEveryEvent() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        try scheduler.createHotObservable("--a--b--|").subscribe(observer).disposed(by: bag)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(220, "a"), .next(250, "b"), .completed(280)])
    }

    /// Inside `start`, the created chain holds its source, so this held before the fix too.
    func testHotObservable_inlineInsideStart_playsAndIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) {
            scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(240, 3)]).map { $0 * 10 }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(230, 20)])
    }

    // Fails on ce3e235 (records `[]`): a view model subscribing its input to an inline hot
    // observable, as ReactorKit's tests do (`createHotObservable(...).subscribe(reactor.action)`).
    func testHotObservable_inline_subscribeSubject_viewModelSeesInputs() {
        let scheduler = TestScheduler(initialClock: 0)
        let input = PublishSubject<Int>()
        let total = input.scan(0, accumulator: +)
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        total.subscribe(observer).disposed(by: bag)
        scheduler.createHotObservable([.next(100, 1), .next(200, 2), .next(300, 3)]).subscribe(input).disposed(by: bag)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(100, 1), .next(200, 3), .next(300, 6)])
    }

    /// Disposing an inline hot observable's subscription stops its events at once.
    func testHotObservable_inline_disposedMidStream_stops() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let subscription = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)]).subscribe(observer)
        scheduler.scheduleAt(215) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1)])
    }

    /// The record of subscriptions still reads right on a hot observable that is kept.
    func testHotObservable_kept_recordsSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    /// A cold observable created inline plays each subscription's events (this already held).
    func testColdObservable_inline_playsRelativeToSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) {
            scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)]).subscribe(observer).disposed(by: bag)
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(230)])
    }

    func testColdObservable_inline_marbles_bindToRelay() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: "-")
        let observer = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        relay.bind(to: observer).disposed(by: bag)
        try scheduler.createColdObservable("-a-b").bind(to: relay).disposed(by: bag)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(0, "-"), .next(10, "a"), .next(30, "b")])
    }

    /// The sequence `start` creates is held by `start` itself from `created` to `disposed`.
    func testStart_createdSequenceInline_isHeldUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 400) {
            scheduler.createColdObservable([.next(50, 1), .next(150, 2), .next(250, 3)]).asObservable().map { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.next(250, 2), .next(350, 3)])
    }

    /// An observer created inline still records what reaches it.
    func testTestableObserver_usedInline_recordsThroughRelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let bag = DisposeBag()
        var recorded: TestableObserver<Int>?
        scheduler.scheduleAt(100) {
            let observer = scheduler.createObserver(Int.self)
            recorded = observer
            relay.bind(to: observer).disposed(by: bag)
        }
        scheduler.scheduleAt(150) { relay.accept(7) }
        scheduler.start()
        XCTAssertEqual(recorded?.events, [.next(150, 7)])
    }

    /// The leak check keeps working with inline test observables: once the subscriptions are
    /// disposed, nothing of the chains is left.
    func testInlineTestObservables_disposed_leaveNoResources() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.createHotObservable([.next(210, 1), .next(220, 2)]).map { $0 * 2 }.subscribe(observer).disposed(by: bag)
            scheduler.createColdObservable([.next(5, 3), .next(500, 4)]).map { $0 * 2 }.subscribe(observer).disposed(by: bag)
            scheduler.advanceTo(300)
            XCTAssertEqual(observer.events, [.next(5, 6), .next(210, 2), .next(220, 4)])
        }
    }

    /// A scheduler released before it played everything releases the pending work and what it
    /// captured. Fails on ce3e235: the work queue and its items referenced each other, so the
    /// pending closures (and the subject here) leaked with them.
    func testSchedulerReleasedWithPendingWork_releasesWhatItCaptured() {
        weak var weakScheduler: TestScheduler?
        weak var weakTarget: PublishSubject<Int>?
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            weakScheduler = scheduler
            let target = PublishSubject<Int>()
            weakTarget = target
            scheduler.scheduleAt(500) { target.onNext(1) }
            _ = scheduler.createHotObservable([.next(210, 1), .next(600, 2)]).subscribe(target)
            scheduler.advanceTo(300)
        }
        XCTAssertNil(weakScheduler)
        XCTAssertNil(weakTarget)
    }
}
