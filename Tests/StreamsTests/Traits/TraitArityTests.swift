import XCTest
import Streams
import StreamsTest

/// `Single.zip` / `Maybe.zip` arities, `Completable.zip`, and the `combineLatest` arities and tuple
/// forms of `Infallible` and `SharedSequence`.
final class TraitArityTests: XCTestCase {
    struct TestError: Error {}

    // MARK: Single.zip

    func testSingleZip_tuplesOfArity4To8() {
        XCTAssertNoLeaks {
            var got: [String] = []
            let a = Single.just(1), b = Single.just("b"), c = Single.just(3), d = Single.just("d")
            let e = Single.just(5), f = Single.just(6), g = Single.just(7), h = Single.just(8)
            _ = Single.zip(a, b, c, d).subscribe(onSuccess: { got.append("\($0)") })
            _ = Single.zip(a, b, c, d, e).subscribe(onSuccess: { got.append("\($0)") })
            _ = Single.zip(a, b, c, d, e, f).subscribe(onSuccess: { got.append("\($0)") })
            _ = Single.zip(a, b, c, d, e, f, g).subscribe(onSuccess: { got.append("\($0)") })
            _ = Single.zip(a, b, c, d, e, f, g, h).subscribe(onSuccess: { got.append("\($0)") })
            XCTAssertEqual(
                got,
                [
                    "(1, \"b\", 3, \"d\")",
                    "(1, \"b\", 3, \"d\", 5)",
                    "(1, \"b\", 3, \"d\", 5, 6)",
                    "(1, \"b\", 3, \"d\", 5, 6, 7)",
                    "(1, \"b\", 3, \"d\", 5, 6, 7, 8)",
                ])
        }
    }

    func testSingleZip_resultSelectorOfArity4To8() {
        XCTAssertNoLeaks {
            let s = (1...8).map { Single.just($0) }
            var got: [Int] = []
            _ = Single.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }.subscribe(onSuccess: { got.append($0) })
            _ = Single.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }.subscribe(onSuccess: { got.append($0) })
            _ = Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }.subscribe(onSuccess: { got.append($0) })
            _ = Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }.subscribe(onSuccess: { got.append($0) })
            _ = Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onSuccess: { got.append($0) })
            XCTAssertEqual(got, [10, 15, 21, 28, 36])
        }
    }

    func testSingleZip_arity4_waitsForLastAndFailsFast() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([.next(210, 1), .completed(210)])
            let x2 = scheduler.createHotObservable([.next(240, 2), .completed(240)])
            let x3 = scheduler.createHotObservable([.next(220, 3), .completed(220)])
            let x4 = scheduler.createHotObservable([.next(230, 4), .completed(230)])
            let res = scheduler.start {
                Single.zip(x1.asSingle(), x2.asSingle(), x3.asSingle(), x4.asSingle()) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }
            }
            XCTAssertEqual(res.events, [.next(240, 1234), .completed(240)])
            XCTAssertEqual(x2.subscriptions, [Subscription(200, 240)])

            let failing = TestScheduler(initialClock: 0)
            let y1 = failing.createHotObservable([.next(300, 1), .completed(300)])
            let y2: TestableObservable<Int> = failing.createHotObservable([.error(220, TestError())])
            let failed = failing.start {
                Single.zip(y1.asSingle(), y2.asSingle(), y1.asSingle(), y1.asSingle(), y1.asSingle()).map { $0.0 }
            }
            XCTAssertEqual(failed.events, [.error(220, TestError())])
            XCTAssertEqual(y1.subscriptions, Array(repeating: Subscription(200, 220), count: 4))
        }
    }

    // MARK: Maybe.zip

    private static func described<T>(_ event: MaybeEvent<T>) -> MaybeEvent<String> {
        switch event {
        case .success(let element): return .success("\(element)")
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }

    func testMaybeZip_successEmptyAndError() {
        XCTAssertNoLeaks {
            var got: [MaybeEvent<String>] = []
            let m = (1...8).map { Maybe.just($0) }
            _ = Maybe.zip(m[0], m[1]).subscribe { got.append(Self.described($0)) }
            _ = Maybe.zip(m[0], m[1], m[2]) { $0 + $1 + $2 }.subscribe { got.append(Self.described($0)) }
            _ = Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).subscribe { got.append(Self.described($0)) }
            _ = Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe { got.append(Self.described($0)) }
            _ = Maybe.zip(m[0], Maybe<Int>.empty(), m[2], m[3]).subscribe { got.append(Self.described($0)) }
            _ = Maybe.zip(m[0], m[1], m[2], Maybe<Int>.error(TestError()), m[4]).subscribe { got.append(Self.described($0)) }
            XCTAssertEqual(
                got,
                [
                    .success("(1, 2)"), .success("6"), .success("(1, 2, 3, 4, 5, 6, 7, 8)"), .success("36"),
                    .completed, .error(TestError()),
                ])
        }
    }

    func testMaybeZip_disposesMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
            let ys = scheduler.createHotObservable([.next(300, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { Maybe.zip(xs.asMaybe(), ys.asMaybe(), xs.asMaybe(), ys.asMaybe()) { $0 + $1 + $2 + $3 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250), Subscription(200, 250)])
        }
    }

    // MARK: Completable.zip

    func testCompletableZip_completesWhenAllComplete() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(205, 9), .completed(210)])
            let ys: TestableObservable<Int> = scheduler.createHotObservable([.completed(230)])
            let res = scheduler.start { Completable.zip(xs.ignoreElements().asCompletable(), ys.ignoreElements().asCompletable()) }
            XCTAssertEqual(res.events, [.completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCompletableZip_failsFastAndDisposesOthers() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(300)])
            let ys: TestableObservable<Int> = scheduler.createHotObservable([.error(220, TestError())])
            let res = scheduler.start { Completable.zip([xs.ignoreElements().asCompletable(), ys.ignoreElements().asCompletable()]) }
            XCTAssertEqual(res.events, [.error(220, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testCompletableZip_collectionEmptyAndDisposal() {
        XCTAssertNoLeaks {
            var events: [CompletableEvent] = []
            _ = Completable.zip([Completable]()).subscribe { events.append($0) }
            _ = Completable.zip(Set<Int>([1, 2]).map { _ in Completable.empty() }[...]).subscribe { events.append($0) }
            XCTAssertEqual(events, [.completed, .completed])

            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(210)])
            let ys: TestableObservable<Int> = scheduler.createHotObservable([.completed(300)])
            let res = scheduler.start(disposed: 250) { Completable.zip(xs.ignoreElements().asCompletable(), ys.ignoreElements().asCompletable()) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        }
    }

    // MARK: Infallible.combineLatest

    func testInfallibleCombineLatest_tuplesOfArity2To8() {
        XCTAssertNoLeaks {
            let i = (1...8).map { Infallible.just($0) }
            var got: [String] = []
            _ = Infallible.combineLatest(i[0], i[1]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3], i[4]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3], i[4], i[5]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3], i[4], i[5], i[6]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7]).subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2]) { $0 + $1 + $2 }.subscribe(onNext: { got.append("\($0)") })
            _ = Infallible.combineLatest(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onNext: {
                got.append("\($0)")
            })
            XCTAssertEqual(
                got,
                [
                    "(1, 2)", "(1, 2, 3)", "(1, 2, 3, 4)", "(1, 2, 3, 4, 5)", "(1, 2, 3, 4, 5, 6)",
                    "(1, 2, 3, 4, 5, 6, 7)", "(1, 2, 3, 4, 5, 6, 7, 8)", "6", "36",
                ])
        }
    }

    func testInfallibleCombineLatest_tuple_emitsLatestAndDisposes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(300)])
            let res = scheduler.start(disposed: 245) {
                Infallible.combineLatest(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: "")).map { "\($0)\($1)" }
            }
            XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 245)])
        }
    }

    // MARK: SharedSequence.combineLatest

    func testDriverCombineLatest_tuplesDeliverOnSharingScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .completed(300)])
            SharingScheduler.mock(scheduler: scheduler) {
                let a = xs.asDriver(onErrorJustReturn: 0), b = ys.asDriver(onErrorJustReturn: 0)
                let res = scheduler.start(disposed: 250) {
                    Driver.combineLatest(a, b).map { $0 + $1 }
                }
                XCTAssertEqual(res.events, [.next(221, 11), .next(231, 12)])
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
                XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
            }
        }
    }

    func testSharedSequenceCombineLatest_arities3To8() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let d = (1...8).map { Driver.just($0) }
                let s = (1...8).map { Signal.just($0) }
                let res = scheduler.start {
                    Observable.merge(
                        Driver.combineLatest(d[0], d[1], d[2]).map { "\($0)" }.asObservable(),
                        Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]).map { "\($0)" }.asObservable(),
                        Driver.combineLatest(d[0], d[1], d[2], d[3]) { "\($0 + $1 + $2 + $3)" }.asObservable(),
                        Signal.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { "\($0)" }.asObservable(),
                        Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { "\($0)" }.asObservable(),
                        Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { "\($0)" }.asObservable(),
                        Signal.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { "\($0 + $1 + $2 + $3 + $4 + $5 + $6 + $7)" }.asObservable()
                    )
                }
                XCTAssertEqual(
                    res.events,
                    [
                        .next(201, "(1, 2, 3)"), .next(201, "(1, 2, 3, 4, 5, 6, 7, 8)"), .next(201, "10"),
                        .next(201, "(1, 2, 3, 4, 5)"), .next(201, "(1, 2, 3, 4, 5, 6)"), .next(201, "(1, 2, 3, 4, 5, 6, 7)"),
                        .next(201, "36"), .completed(201),
                    ])
            }
        }
    }
}
