import XCTest
import Streams
import StreamsTest

/// Disposal mid-stream of the trait operators that delegate to `Observable` operators: each test
/// disposes at 250, before the sources terminate, and checks the events received and every
/// source's subscriptions, with no leaked resources.
final class TraitDisposalTests: XCTestCase {
    struct TestError: Error {}

    /// Builds a sequence (with `SharingScheduler` mocked to the test scheduler), subscribes at 200,
    /// disposes at 250, and asserts the events and the subscriptions of each source in `sources`.
    private func assertDisposedAt250<R: Equatable>(
        _ expectedEvents: [Recorded<Event<R>>],
        _ expectedSubscriptions: [[Subscription]],
        file: StaticString = #filePath, line: UInt = #line,
        _ build: (TestScheduler) -> (sequence: Observable<R>, sources: [() -> [Subscription]])
    ) {
        XCTAssertNoLeaks(file: file, line: line) {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let (sequence, sources) = build(scheduler)
                let res = scheduler.start(disposed: 250) { sequence }
                XCTAssertEqual(res.events, expectedEvents, file: file, line: line)
                XCTAssertEqual(sources.map { $0() }, expectedSubscriptions, file: file, line: line)
            }
        }
    }

    /// A hot source that succeeds after the disposal time.
    private func late(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(300, 1), .completed(300)])
    }

    /// A hot source that succeeds at 210, before the disposal time.
    private func early(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(210, 1), .completed(210)])
    }

    /// A cold source that succeeds 100 ticks after subscription.
    private func slow(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(100, 5), .completed(100)])
    }

    /// A hot source of several elements that completes after the disposal time.
    private func elements(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
    }

    // MARK: Single

    func testSingle_map_disposesMidStream() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)]]) { s in
            let xs = late(s)
            return (xs.asSingle().map { $0 * 2 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_flatMap_disposesInner() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.asSingle().flatMap { _ in ys.asSingle() }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSingle_flatMapMaybe_disposesInner() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.asSingle().flatMapMaybe { _ in ys.asMaybe() }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSingle_flatMapCompletable_disposesInner() {
        assertDisposedAt250([Recorded<Event<Never>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.asSingle().flatMapCompletable { _ in ys.ignoreElements().asCompletable() }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSingle_catch_disposesHandlerSequence() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs: TestableObservable<Int> = s.createHotObservable([.error(210, TestError())])
            let ys = slow(s)
            return (xs.asSingle().catch { _ in ys.asSingle() }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSingle_retry_disposesCurrentAttempt() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 230), Subscription(230, 250)]]) { s in
            let xs: TestableObservable<Int> = s.createColdObservable([.error(30, TestError())])
            return (xs.asSingle().retry(5).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_retryForever_disposesCurrentAttempt() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 230), Subscription(230, 250)]]) { s in
            let xs: TestableObservable<Int> = s.createColdObservable([.error(30, TestError())])
            return (xs.asSingle().retry().asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_timeout_disposesBeforeDueTime() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)]]) { s in
            let xs = late(s)
            return (xs.asSingle().timeout(.seconds(80), scheduler: s).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_timeoutOther_disposesOther() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 220)], [Subscription(220, 250)]]) { s in
            let xs = late(s), ys = slow(s)
            return (xs.asSingle().timeout(.seconds(20), other: ys.asSingle(), scheduler: s).asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSingle_delay_dropsPendingEvent() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)]]) { s in
            let xs = early(s)
            return (xs.asSingle().delay(.seconds(100), scheduler: s).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_observeOn_disposesMidStream() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)]]) { s in
            let xs = late(s)
            return (xs.asSingle().observe(on: s).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_subscribeOn_disposesOnScheduler() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(201, 251)]]) { s in
            let xs = late(s)
            return (xs.asSingle().subscribe(on: s).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSingle_zip_disposesPendingSource() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(200, 250)]]) { s in
            let xs = early(s), ys = late(s)
            return (Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    // MARK: Maybe

    func testMaybe_map_disposesMidStream() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)]]) { s in
            let xs = late(s)
            return (xs.asMaybe().map { $0 * 2 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testMaybe_filter_disposesMidStream() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)]]) { s in
            let xs = late(s)
            return (xs.asMaybe().filter { $0 > 0 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testMaybe_flatMap_disposesInner() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.asMaybe().flatMap { _ in ys.asMaybe() }.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    // MARK: Completable

    func testCompletable_andThenSingle_disposesSecond() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.ignoreElements().asCompletable().andThen(ys.asSingle()).asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testCompletable_andThenMaybe_disposesSecond() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (xs.ignoreElements().asCompletable().andThen(ys.asMaybe()).asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testCompletable_andThenCompletable_disposesSecond() {
        assertDisposedAt250([Recorded<Event<Never>>](), [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s), ys = slow(s)
            return (
                xs.ignoreElements().asCompletable().andThen(ys.ignoreElements().asCompletable()).asObservable(), [{ xs.subscriptions }, { ys.subscriptions }]
            )
        }
    }

    func testCompletable_andThenObservable_disposesSecond() {
        assertDisposedAt250([.next(230, 7)], [[Subscription(200, 210)], [Subscription(210, 250)]]) { s in
            let xs = early(s)
            let ys: TestableObservable<Int> = s.createColdObservable([.next(20, 7), .next(100, 8), .completed(100)])
            return (xs.ignoreElements().asCompletable().andThen(ys.asObservable()), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testCompletable_andThenFirst_disposesFirst() {
        assertDisposedAt250([Recorded<Event<Int>>](), [[Subscription(200, 250)], []]) { s in
            let xs = late(s), ys = slow(s)
            return (xs.ignoreElements().asCompletable().andThen(ys.asSingle()).asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    // MARK: Infallible

    func testInfallible_map_disposesMidStream() {
        assertDisposedAt250([.next(210, 10)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asInfallible(onErrorJustReturn: 0).map { $0 * 10 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testInfallible_filter_disposesMidStream() {
        assertDisposedAt250([.next(210, 1)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asInfallible(onErrorJustReturn: 0).filter { $0 > 0 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testInfallible_flatMap_disposesOuterAndInner() {
        assertDisposedAt250([.next(220, 101)], [[Subscription(200, 250)], [Subscription(210, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createColdObservable([.next(10, 100), .next(100, 200), .completed(100)])
            let out = xs.asInfallible(onErrorJustReturn: 0).flatMap { v in ys.asInfallible(onErrorJustReturn: 0).map { $0 + v } }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testInfallible_flatMapLatest_disposesOuterAndInner() {
        assertDisposedAt250([.next(220, 101)], [[Subscription(200, 250)], [Subscription(210, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createColdObservable([.next(10, 100), .next(100, 200), .completed(100)])
            let out = xs.asInfallible(onErrorJustReturn: 0).flatMapLatest { v in ys.asInfallible(onErrorJustReturn: 0).map { $0 + v } }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testInfallible_scan_disposesMidStream() {
        assertDisposedAt250([.next(210, 11)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asInfallible(onErrorJustReturn: 0).scan(10, accumulator: +).asObservable(), [{ xs.subscriptions }])
        }
    }

    func testInfallible_withLatestFrom_disposesBoth() {
        assertDisposedAt250([.next(210, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = xs.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testInfallible_combineLatest_disposesBoth() {
        assertDisposedAt250([.next(210, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = Infallible.combineLatest(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    // MARK: Driver / Signal (SharingScheduler mocked: elements arrive 1 tick later)

    func testDriver_map_disposesMidStream() {
        assertDisposedAt250([.next(211, 10)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSignal_map_disposesMidStream() {
        assertDisposedAt250([.next(211, 10)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asSignal(onErrorJustReturn: 0).map { $0 * 10 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testDriver_filter_disposesMidStream() {
        assertDisposedAt250([.next(211, 1)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asDriver(onErrorJustReturn: 0).filter { $0 > 0 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testSignal_filter_disposesMidStream() {
        assertDisposedAt250([.next(211, 1)], [[Subscription(200, 250)]]) { s in
            let xs = elements(s)
            return (xs.asSignal(onErrorJustReturn: 0).filter { $0 > 0 }.asObservable(), [{ xs.subscriptions }])
        }
    }

    func testDriver_flatMapLatest_disposesOuterAndInner() {
        assertDisposedAt250([.next(222, 101)], [[Subscription(200, 250)], [Subscription(211, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createColdObservable([.next(10, 100), .next(100, 200), .completed(100)])
            let inner = ys.asDriver(onErrorJustReturn: 0)
            let out = xs.asDriver(onErrorJustReturn: 0).flatMapLatest { v in inner.map { $0 + v } }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSignal_flatMapLatest_disposesOuterAndInner() {
        assertDisposedAt250([.next(222, 101)], [[Subscription(200, 250)], [Subscription(211, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createColdObservable([.next(10, 100), .next(100, 200), .completed(100)])
            let inner = ys.asSignal(onErrorJustReturn: 0)
            let out = xs.asSignal(onErrorJustReturn: 0).flatMapLatest { v in inner.map { $0 + v } }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testDriver_combineLatest_disposesBoth() {
        assertDisposedAt250([.next(211, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = Driver.combineLatest(xs.asDriver(onErrorJustReturn: 0), ys.asDriver(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSignal_combineLatest_disposesBoth() {
        assertDisposedAt250([.next(211, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = Signal.combineLatest(xs.asSignal(onErrorJustReturn: 0), ys.asSignal(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testDriver_withLatestFrom_disposesBoth() {
        assertDisposedAt250([.next(211, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = xs.asDriver(onErrorJustReturn: 0).withLatestFrom(ys.asDriver(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }

    func testSignal_withLatestFrom_disposesBoth() {
        assertDisposedAt250([.next(211, 8)], [[Subscription(200, 250)], [Subscription(200, 250)]]) { s in
            let xs = elements(s)
            let ys: TestableObservable<Int> = s.createHotObservable([.next(205, 7), .completed(400)])
            let out = xs.asSignal(onErrorJustReturn: 0).withLatestFrom(ys.asSignal(onErrorJustReturn: 0)) { $0 + $1 }
            return (out.asObservable(), [{ xs.subscriptions }, { ys.subscriptions }])
        }
    }
}
