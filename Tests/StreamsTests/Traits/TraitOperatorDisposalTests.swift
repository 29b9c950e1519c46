import XCTest
import Streams
import StreamsTest

/// Disposal mid-stream, with no leaked resources, for the trait operators of `Single.swift`,
/// `Maybe.swift`, `Completable.swift`, `PrimitiveSequence.swift`, `ObservableType+Traits.swift`,
/// `Infallible.swift` and `SharedSequence.swift` not covered by `TraitDisposalTests`. Each test
/// disposes before the source terminates and checks the events received and the subscriptions.
final class TraitOperatorDisposalTests: XCTestCase {
    // MARK: Single

    func testSingleCompactMap_disposesMidStream() {
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().compactMap { $0 }.asObservable()
        }
    }

    func testSingleFilter_disposesMidStream() {
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().filter { _ in true }.asObservable()
        }
    }

    func testSingleCatchAndReturn_disposesMidStream() {
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().catchAndReturn(0).asObservable()
        }
    }

    func testSingleDo_disposesMidStreamAndRunsOnDisposeOnce() {
        var disposals = 0
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().do(onSuccess: { _ in XCTFail("no element expected") }, onDispose: { disposals += 1 }).asObservable()
        }
        XCTAssertEqual(disposals, 1)
    }

    func testSingleAsMaybeAndAsCompletable_disposeMidStream() {
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().asMaybe().asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Never>>](), [Subscription(200, 210)]) { c in
            c.source.asSingle().asCompletable().asObservable()
        }
    }

    func testSingleZipCollection_disposesEverySource() {
        // The second `Single` succeeds at 205 (its subscription ends there); the first is disposed at 210.
        assertContract(.disposed, source: .one, [Recorded<Event<[Int]>>](), [Subscription(200, 210)], others: [[Subscription(200, 205)]]) { c in
            Single.zip([c.source.asSingle(), c.hot([.next(205, 2), .completed(205)]).asSingle()]).asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)], others: [[Subscription(200, 205)]]) { c in
            Single.zip([c.source.asSingle(), c.hot([.next(205, 2), .completed(205)]).asSingle()]) { $0.reduce(0, +) }.asObservable()
        }
    }

    func testSingleZipArities_disposeEverySource() {
        assertContract(
            .disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)],
            others: [[Subscription(200, 210)], [Subscription(200, 210)], [Subscription(200, 210)]]
        ) { c in
            let b = c.hot([]).asSingle(), d = c.hot([]).asSingle(), e = c.hot([]).asSingle()
            return Single.zip(c.source.asSingle(), b, d, e) { $0 + $1 + $2 + $3 }.asObservable()
        }
        assertContract(
            .disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)], others: [[Subscription(200, 210)], [Subscription(200, 210)]]
        ) { c in
            Single.zip(c.source.asSingle(), c.hot([]).asSingle(), c.hot([]).asSingle()) { $0 + $1 + $2 }.asObservable()
        }
    }

    func testSingleCreate_disposesTheSubscribeDisposable() {
        let disposed = BooleanDisposable()
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), []) { _ in
            Single<Int>.create { _ in disposed }.asObservable()
        }
        XCTAssertTrue(disposed.isDisposed)
    }

    func testSingleAndMaybeJustOnScheduler_disposeBeforeDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // Disposal at 201 was scheduled before the element's step due at 201.
            XCTAssertEqual(scheduler.start(disposed: 201) { Single.just(1, scheduler: scheduler).asObservable() }.events, [])
            XCTAssertEqual(scheduler.start(created: 300, subscribed: 400, disposed: 401) { Maybe.just(1, scheduler: scheduler).asObservable() }.events, [])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: Maybe and Completable

    func testMaybeCompactMapCatchAndReturnDo_disposeMidStream() {
        var disposals = 0
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asMaybe().compactMap { $0 }.asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asMaybe().catchAndReturn(0).asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            c.source.asMaybe().do(onNext: { _ in XCTFail("no element expected") }, onDispose: { disposals += 1 }).asObservable()
        }
        XCTAssertEqual(disposals, 1)
    }

    func testMaybeAsCompletableAndCreate_disposeMidStream() {
        assertContract(.disposed, source: .one, [Recorded<Event<Never>>](), [Subscription(200, 210)]) { c in
            c.source.asMaybe().asCompletable().asObservable()
        }
        let disposed = BooleanDisposable()
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), []) { _ in
            Maybe<Int>.create { _ in disposed }.asObservable()
        }
        XCTAssertTrue(disposed.isDisposed)
    }

    func testCompletableDoCatchCreate_disposeMidStream() {
        var disposals = 0
        assertContract(.disposed, source: .one, [Recorded<Event<Never>>](), [Subscription(200, 210)]) { c in
            c.source.ignoreElements().asCompletable().do(onCompleted: { XCTFail("no completion expected") }, onDispose: { disposals += 1 }).asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Never>>](), [Subscription(200, 210)]) { c in
            c.source.ignoreElements().asCompletable().catchAndReturn().asObservable()
        }
        let disposed = BooleanDisposable()
        assertContract(.disposed, source: .one, [Recorded<Event<Never>>](), []) { _ in
            Completable.create { _ in disposed }.asObservable()
        }
        XCTAssertEqual(disposals, 1)
        XCTAssertTrue(disposed.isDisposed)
    }

    func testPrimitiveSequenceDeferred_disposesCreatedTrait() {
        var created = 0
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), [Subscription(200, 210)]) { c in
            Single.deferred {
                created += 1
                return c.source.asSingle()
            }.asObservable()
        }
        XCTAssertEqual(created, 1)
    }

    func testToArrayAndFirst_disposeMidStream() {
        assertContract(.disposed, [Recorded<Event<[Int]>>](), [Subscription(200, 215)]) { c in c.source.toArray().asObservable() }
        assertContract(.disposed, [Recorded<Event<Int?>>](), [Subscription(200, 215)]) { c in
            c.source.filter { $0 > 5 }.first().asObservable()
        }
    }

    // MARK: Infallible

    private func inf(_ c: ContractContext) -> Infallible<Int> { c.source.asInfallible(onErrorJustReturn: -1) }

    func testInfallibleSingleSourceOperators_disposeMidStream() {
        assertContract(.disposed, [.next(210, 10)], [Subscription(200, 215)]) { [self] c in inf(c).compactMap { $0 * 10 }.asObservable() }
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)]) { [self] c in inf(c).distinctUntilChanged().asObservable() }
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)]) { [self] c in inf(c).distinctUntilChanged { $0 == $1 }.asObservable() }
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)]) { [self] c in inf(c).scan(into: 0) { $0 += $1 }.asObservable() }
        assertContract(.disposed, [.next(200, 0), .next(210, 1)], [Subscription(200, 215)]) { [self] c in inf(c).startWith(0).asObservable() }
    }

    func testInfallibleMergeVariadic_disposesEverySource() {
        assertContract(.disposed, [.next(210, 1), .next(212, 20)], [Subscription(200, 215)], others: [[Subscription(200, 215)]]) { [self] c in
            Infallible.merge(inf(c), c.hot([.next(212, 20)]).asInfallible(onErrorJustReturn: 0)).asObservable()
        }
    }

    func testInfallibleFallbacks_disposeTheFallback() {
        assertContract(.error, [.next(210, 1)], [Subscription(200, 250)], others: [[Subscription(250, 1000)]]) { c in
            let fallback = c.cold([]).asInfallible(onErrorJustReturn: 0)
            return c.source.asInfallible(onErrorFallbackTo: fallback).asObservable()
        }
        assertContract(.error, [.next(210, 1)], [Subscription(200, 250)], others: [[Subscription(250, 1000)]]) { c in
            let fallback = c.cold([]).asInfallible(onErrorJustReturn: 0)
            return c.source.asInfallible(onErrorRecover: { _ in fallback }).asObservable()
        }
    }

    func testInfallibleFactories_disposeBeforeDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            XCTAssertEqual(scheduler.start(disposed: 201) { Infallible.just(1, scheduler: scheduler).asObservable() }.events, [])
            XCTAssertEqual(
                scheduler.start(created: 300, subscribed: 400, disposed: 402) { Infallible.of(1, 2, 3, scheduler: scheduler).asObservable() }.events,
                [.next(401, 1)])
            XCTAssertEqual(
                scheduler.start(created: 500, subscribed: 600, disposed: 602) { Infallible.from([1, 2, 3], scheduler: scheduler).asObservable() }.events,
                [.next(601, 1)])
            XCTAssertNoPendingWork(scheduler)
        }
        let disposed = BooleanDisposable()
        assertContract(.disposed, [Recorded<Event<Int>>](), []) { _ in Infallible<Int>.create { _ in disposed }.asObservable() }
        XCTAssertTrue(disposed.isDisposed)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)]) { [self] c in Infallible.deferred { self.inf(c) }.asObservable() }
    }

    func testInfallibleSubscriptions_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let source = xs.asInfallible(onErrorJustReturn: 0)
            let observer = scheduler.createObserver(Int.self)
            let relay = BehaviorRelay(value: 0)
            var got: [Int] = []
            var disposedCount = 0
            final class Owner {}
            let owner = Owner()
            var subscriptions: [Disposable] = []
            _ = scheduler.scheduleAt(200) {
                subscriptions = [
                    source.bind(to: observer), source.bind(to: relay), source.bind(onNext: { got.append($0) }),
                    source.subscribe(with: owner, onNext: { _, v in got.append(v * 10) }, onDisposed: { _ in disposedCount += 1 }),
                    source.subscribe(onNext: { got.append($0 * 100) }, onDisposed: { disposedCount += 1 }),
                ]
            }
            _ = scheduler.scheduleAt(215) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 1)])
            XCTAssertEqual(relay.value, 1)
            XCTAssertEqual(got, [1, 10, 100])
            XCTAssertEqual(disposedCount, 2)
            XCTAssertEqual(xs.subscriptions, Array(repeating: Subscription(200, 215), count: 5))
        }
    }

    // MARK: Driver and Signal

    private func drv(_ c: ContractContext) -> Driver<Int> { c.source.asDriver(onErrorJustReturn: -1) }

    func testSharedSequenceSingleSourceOperators_disposeMidStream() {
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)]) { [self] c in drv(c).distinctUntilChanged().asObservable() }
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)]) { [self] c in drv(c).distinctUntilChanged { $0 == $1 }.asObservable() }
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)]) { [self] c in drv(c).scan(0, accumulator: +).asObservable() }
        assertContract(.disposed, [.next(200, 0), .next(211, 1)], [Subscription(200, 215)]) { [self] c in drv(c).startWith(0).asObservable() }
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)]) { c in c.source.asSignal(onErrorJustReturn: -1).startWith(0).skip(1).asObservable()
        }
    }

    func testSharedSequenceMergeVariadic_disposesEverySource() {
        assertContract(.disposed, [.next(211, 1), .next(213, 20)], [Subscription(200, 215)], others: [[Subscription(200, 215)]]) { [self] c in
            Driver.merge(drv(c), c.hot([.next(212, 20)]).asDriver(onErrorJustReturn: 0)).asObservable()
        }
    }

    func testSharedSequenceFallbacks_disposeTheFallback() {
        assertContract(.error, [.next(211, 1)], [Subscription(200, 250)], others: [[Subscription(251, 1000)]]) { c in
            let fallback = c.cold([]).asDriver(onErrorJustReturn: 0)
            return c.source.asDriver(onErrorDriveWith: fallback).asObservable()
        }
        assertContract(.error, [.next(211, 1)], [Subscription(200, 250)], others: [[Subscription(251, 1000)]]) { c in
            let fallback = c.cold([]).asSignal(onErrorJustReturn: 0)
            return c.source.asSignal(onErrorRecover: { _ in fallback }).asObservable()
        }
        assertContract(.error, [.next(211, 1)], [Subscription(200, 250)], others: [[Subscription(251, 1000)]]) { c in
            let fallback = c.cold([]).asSignal(onErrorJustReturn: 0)
            return c.source.asSignal(onErrorSignalWith: fallback).asObservable()
        }
    }

    func testSharedSequenceFactories_disposeBeforeDelivery() {
        assertContract(.disposed, [Recorded<Event<Int>>](), []) { _ in Driver<Int>.never().asObservable() }
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                XCTAssertEqual(scheduler.start(disposed: 201) { Driver.just(1).asObservable() }.events, [])
                XCTAssertEqual(scheduler.start(created: 300, subscribed: 400, disposed: 401) { Signal<Int>.empty().asObservable() }.events, [])
                XCTAssertNoPendingWork(scheduler)
            }
        }
    }

    func testDriveAndEmit_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            SharingScheduler.mock(scheduler: scheduler) {
                let driver = xs.asDriver(onErrorJustReturn: 0)
                let signal = xs.asSignal(onErrorJustReturn: 0)
                let o1 = scheduler.createObserver(Int.self), o2 = scheduler.createObserver(Int.self)
                let behavior = BehaviorRelay(value: 0), publish = PublishRelay<Int>()
                var got: [Int] = []
                var disposedCount = 0
                final class Owner {}
                let owner = Owner()
                let p = publish.subscribe(onNext: { got.append($0 * 1000) })
                var subscriptions: [Disposable] = []
                _ = scheduler.scheduleAt(200) {
                    subscriptions = [
                        driver.drive(o1), driver.drive(behavior), driver.drive(onNext: { got.append($0) }, onDisposed: { disposedCount += 1 }),
                        driver.drive(with: owner, onNext: { _, v in got.append(v * 10) }, onDisposed: { _ in disposedCount += 1 }),
                        signal.emit(to: o2), signal.emit(to: publish), signal.emit(onNext: { got.append($0 * 100) }, onDisposed: { disposedCount += 1 }),
                        signal.emit(with: owner, onNext: { _, v in got.append(v * 10000) }),
                    ]
                }
                _ = scheduler.scheduleAt(215) { subscriptions.forEach { $0.dispose() } }
                scheduler.start()
                p.dispose()
                XCTAssertEqual(o1.events, [.next(211, 1)])
                XCTAssertEqual(o2.events, [.next(211, 1)])
                XCTAssertEqual(behavior.value, 1)
                XCTAssertEqual(got.sorted(), [1, 10, 100, 1000, 10000])
                XCTAssertEqual(disposedCount, 3)
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 215), Subscription(200, 215)])
            }
        }
    }
}
