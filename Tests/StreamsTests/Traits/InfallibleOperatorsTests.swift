import XCTest
import Streams
import StreamsTest

/// `Infallible` operators added for RxSwift 6 parity. The source is the contract's hot source
/// made infallible with `asInfallible(onErrorJustReturn: -1)`, so its `.error` scenario ends with
/// `-1` and completion at 250.
private func inf(_ c: ContractContext) -> Infallible<Int> {
    c.source.asInfallible(onErrorJustReturn: -1)
}

final class InfallibleOperatorsTests: XCTestCase {
    final class Owner {}

    /// Checks an operator that forwards the source unchanged, in every scenario.
    private func assertPassesThrough(file: StaticString = #filePath, line: UInt = #line, _ op: @escaping (ContractContext) -> Observable<Int>) {
        assertContract(.values, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)], [Subscription(200, 300)], file: file, line: line, op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], file: file, line: line, op)
        assertContract(.never, [], [Subscription(200, 1000)], file: file, line: line, op)
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], file: file, line: line, op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], file: file, line: line, op)
    }

    // MARK: Transforming

    func testInfallibleFlatMapFirst_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(3, 10), .completed(15)])
            return inf(c).flatMapFirst { v in ys.map { $0 + v }.asInfallible(onErrorJustReturn: 0) }.asObservable()
        }
        assertContract(
            .values, [.next(213, 11), .next(233, 13), .completed(300)], [Subscription(200, 300)],
            others: [[Subscription(210, 225), Subscription(230, 245)]], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], others: [[]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(213, 11), .next(253, 9), .completed(265)], [Subscription(200, 250)],
            others: [[Subscription(210, 225), Subscription(250, 265)]], op)
        assertContract(.disposed, [.next(213, 11)], [Subscription(200, 215)], others: [[Subscription(210, 215)]], op)
    }

    func testInfallibleConcatMap_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(3, 10), .completed(15)])
            return inf(c).concatMap { v in ys.map { $0 + v }.asInfallible(onErrorJustReturn: 0) }.asObservable()
        }
        assertContract(
            .values, [.next(213, 11), .next(228, 12), .next(243, 13), .completed(300)], [Subscription(200, 300)],
            others: [[Subscription(210, 225), Subscription(225, 240), Subscription(240, 255)]], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], others: [[]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(213, 11), .next(253, 9), .completed(265)], [Subscription(200, 250)],
            others: [[Subscription(210, 225), Subscription(250, 265)]], op)
        assertContract(.disposed, [.next(213, 11)], [Subscription(200, 215)], others: [[Subscription(210, 215)]], op)
    }

    func testInfallibleFlatMap_acceptsObservableInners() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            _ = Infallible.of(1, 2).flatMap { Observable.of($0, $0 * 10) }.subscribe(onNext: { got.append($0) })
            _ = Infallible.of(3).flatMapLatest { Observable.just($0) }.subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [1, 10, 2, 20, 3])
        }
    }

    // MARK: Combining

    func testInfallibleConcat_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            inf(c).concat(c.cold([.next(5, 9), .completed(10)]).asInfallible(onErrorJustReturn: 0)).asObservable()
        }
        assertContract(
            .values, [.next(210, 1), .next(220, 2), .next(230, 3), .next(305, 9), .completed(310)], [Subscription(200, 300)],
            others: [[Subscription(300, 310)]], op)
        assertContract(.empty, [.next(255, 9), .completed(260)], [Subscription(200, 250)], others: [[Subscription(250, 260)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(210, 1), .next(250, -1), .next(255, 9), .completed(260)], [Subscription(200, 250)],
            others: [[Subscription(250, 260)]], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], others: [[]], op)
    }

    func testInfallibleConcat_staticForms() {
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .next(305, 9), .completed(310)]
        func second(_ c: ContractContext) -> Infallible<Int> { c.cold([.next(5, 9), .completed(10)]).asInfallible(onErrorJustReturn: 0) }
        assertContract(.values, expected, [Subscription(200, 300)], others: [[Subscription(300, 310)]]) { c in
            Infallible.concat([inf(c), second(c)]).asObservable()
        }
        assertContract(.values, expected, [Subscription(200, 300)], others: [[Subscription(300, 310)]]) { c in
            Infallible.concat(AnySequence([inf(c), second(c)])).asObservable()
        }
        assertContract(.values, expected, [Subscription(200, 300)], others: [[Subscription(300, 310)]]) { c in
            Infallible.concat(inf(c), second(c)).asObservable()
        }
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], others: [[]]) { c in
            Infallible.concat(inf(c), second(c)).asObservable()
        }
    }

    func testInfallibleMerge_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            Infallible.merge([inf(c), c.hot([.next(212, 20), .completed(400)]).asInfallible(onErrorJustReturn: 0)]).asObservable()
        }
        assertContract(
            .values, [.next(210, 1), .next(212, 20), .next(220, 2), .next(230, 3), .completed(400)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]], op)
        assertContract(.empty, [.next(212, 20), .completed(400)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.never, [.next(212, 20)], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], op)
        assertContract(
            .error, [.next(210, 1), .next(212, 20), .next(250, -1), .completed(400)], [Subscription(200, 250)],
            others: [[Subscription(200, 400)]], op)
        assertContract(.disposed, [.next(210, 1), .next(212, 20)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
    }

    func testInfallibleMerge_collectionForm() {
        assertContract(
            .values, [.next(210, 1), .next(212, 20), .next(220, 2), .next(230, 3), .completed(400)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]]
        ) { c in
            let sources = [inf(c), c.hot([.next(212, 20), .completed(400)]).asInfallible(onErrorJustReturn: 0)]
            return Infallible.merge(sources[...]).asObservable()
        }
    }

    func testInfallibleCombineLatestCollection_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            Infallible.combineLatest([inf(c), c.hot([.next(205, 100), .completed(400)]).asInfallible(onErrorJustReturn: 0)]) { $0.reduce(0, +) }
                .asObservable()
        }
        assertContract(
            .values, [.next(210, 101), .next(220, 102), .next(230, 103), .completed(400)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]], op)
        assertContract(.empty, [.completed(400)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], op)
        assertContract(.error, [.next(210, 101), .next(250, 99), .completed(400)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.disposed, [.next(210, 101)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
    }

    func testInfallibleCombineLatestCollection_arrays() {
        assertContract(
            .values, [.next(210, [1, 100]), .next(220, [2, 100]), .next(230, [3, 100]), .completed(400)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]]
        ) { c in
            Infallible.combineLatest([inf(c), c.hot([.next(205, 100), .completed(400)]).asInfallible(onErrorJustReturn: 0)]).asObservable()
        }
    }

    func testInfallibleZip_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let other = c.hot([.next(205, 100), .next(225, 200), .completed(400)]).asInfallible(onErrorJustReturn: 0)
            return Infallible.zip(inf(c), other) { $0 + $1 }.asObservable()
        }
        assertContract(.values, [.next(210, 101), .next(225, 202), .completed(400)], [Subscription(200, 300)], others: [[Subscription(200, 400)]], op)
        // As in RxSwift, zip completes once every source has completed (the other source's
        // buffered elements keep it open until 400).
        assertContract(.empty, [.completed(400)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], op)
        assertContract(.error, [.next(210, 101), .next(250, 199), .completed(400)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.disposed, [.next(210, 101)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
    }

    func testInfallibleZip_arities() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            let j = { (v: Int) in Infallible.just(v) }
            _ = Infallible.zip(j(1), j(2), j(3)) { $0 + $1 + $2 }.subscribe(onNext: { got.append($0) })
            _ = Infallible.zip(j(1), j(2), j(3), j(4)) { $0 + $1 + $2 + $3 }.subscribe(onNext: { got.append($0) })
            _ = Infallible.zip(j(1), j(2), j(3), j(4), j(5)) { $0 + $1 + $2 + $3 + $4 }.subscribe(onNext: { got.append($0) })
            _ = Infallible.zip(j(1), j(2), j(3), j(4), j(5), j(6)) { $0 + $1 + $2 + $3 + $4 + $5 }.subscribe(onNext: { got.append($0) })
            _ = Infallible.zip(j(1), j(2), j(3), j(4), j(5), j(6), j(7)) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }.subscribe(onNext: { got.append($0) })
            _ = Infallible.zip(j(1), j(2), j(3), j(4), j(5), j(6), j(7), j(8)) { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }
                .subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [6, 10, 15, 21, 28, 36])
        }
    }

    // MARK: Filtering

    func testInfallibleDistinctUntilChangedKey_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).distinctUntilChanged { $0 / 2 }.asObservable() }
        assertContract(.values, [.next(210, 1), .next(220, 2), .completed(300)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        // -1 / 2 == 0, the key of 1: dropped.
        assertContract(.error, [.next(210, 1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
    }

    func testInfallibleDistinctUntilChangedKeyComparerAndKeyPath() {
        assertContract(.values, [.next(210, 1), .next(230, 3), .completed(300)], [Subscription(200, 300)]) { c in
            inf(c).distinctUntilChanged({ $0 }, comparer: { abs($0 - $1) < 2 }).asObservable()
        }
        assertContract(.values, [.next(210, 1), .completed(300)], [Subscription(200, 300)]) { c in
            inf(c).distinctUntilChanged(at: \.description.count).asObservable()
        }
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)]) { c in
            inf(c).distinctUntilChanged(at: \.description.count).asObservable()
        }
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)]) { c in
            inf(c).distinctUntilChanged({ $0 }, comparer: { $0 == $1 }).asObservable()
        }
    }

    private func assertTakeUntilOther(file: StaticString = #filePath, line: UInt = #line, _ op: @escaping (ContractContext) -> Observable<Int>) {
        assertContract(
            .values, [.next(210, 1), .next(220, 2), .completed(225)], [Subscription(200, 225)], others: [[Subscription(200, 225)]], file: file, line: line, op)
        assertContract(.empty, [.completed(225)], [Subscription(200, 225)], others: [[Subscription(200, 225)]], file: file, line: line, op)
        assertContract(.never, [.completed(225)], [Subscription(200, 225)], others: [[Subscription(200, 225)]], file: file, line: line, op)
        assertContract(.error, [.next(210, 1), .completed(225)], [Subscription(200, 225)], others: [[Subscription(200, 225)]], file: file, line: line, op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], file: file, line: line, op)
    }

    func testInfallibleTakeUntilInfallible_contract() {
        assertTakeUntilOther { c in inf(c).take(until: c.hot([.next(225, 0), .completed(400)]).asInfallible(onErrorJustReturn: 0)).asObservable() }
    }

    func testInfallibleTakeUntilObservable_contract() {
        assertTakeUntilOther { c in inf(c).take(until: c.hot([.next(225, 0), .completed(400)])).asObservable() }
    }

    func testInfallibleTakeUntilPredicate_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).take(until: { $0 == 2 }).asObservable() }
        assertContract(.values, [.next(210, 1), .completed(220)], [Subscription(200, 220)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
        assertContract(.values, [.next(210, 1), .next(220, 2), .completed(220)], [Subscription(200, 220)]) { c in
            inf(c).take(until: { $0 == 2 }, behavior: .inclusive).asObservable()
        }
    }

    func testInfallibleTakeWhile_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).take(while: { $0 < 3 }).asObservable() }
        assertContract(.values, [.next(210, 1), .next(220, 2), .completed(230)], [Subscription(200, 230)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
        assertContract(.values, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)], [Subscription(200, 230)]) { c in
            inf(c).take(while: { $0 < 3 }, behavior: .inclusive).asObservable()
        }
    }

    func testInfallibleTakeCount_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).take(2).asObservable() }
        assertContract(.values, [.next(210, 1), .next(220, 2), .completed(220)], [Subscription(200, 220)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
    }

    func testInfallibleTakeFor_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).take(for: .seconds(25), scheduler: c.scheduler).asObservable() }
        assertContract(.values, [.next(210, 1), .next(220, 2), .completed(225)], [Subscription(200, 225)], op)
        assertContract(.empty, [.completed(225)], [Subscription(200, 225)], op)
        assertContract(.never, [.completed(225)], [Subscription(200, 225)], op)
        assertContract(.error, [.next(210, 1), .completed(225)], [Subscription(200, 225)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
    }

    func testInfallibleSkipWhile_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).skip(while: { $0 < 2 }).asObservable() }
        assertContract(.values, [.next(220, 2), .next(230, 3), .completed(300)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [], [Subscription(200, 215)], op)
    }

    func testInfallibleSkipUntil_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).skip(until: c.hot([.next(215, 0), .completed(400)])).asObservable() }
        assertContract(.values, [.next(220, 2), .next(230, 3), .completed(300)], [Subscription(200, 300)], others: [[Subscription(200, 215)]], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], others: [[Subscription(200, 215)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[Subscription(200, 215)]], op)
        assertContract(.error, [.next(250, -1), .completed(250)], [Subscription(200, 250)], others: [[Subscription(200, 215)]], op)
        assertContract(.disposed, [], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
    }

    // MARK: Time

    func testInfallibleDebounce_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).debounce(.seconds(3), scheduler: c.scheduler).asObservable() }
        assertContract(.values, [.next(213, 1), .next(223, 2), .next(233, 3), .completed(300)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(213, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(213, 1)], [Subscription(200, 215)], op)
    }

    func testInfallibleThrottle_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { inf(c).throttle(.seconds(15), scheduler: c.scheduler).asObservable() }
        assertContract(.values, [.next(210, 1), .next(225, 2), .next(240, 3), .completed(300)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(210, 1), .next(250, -1), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(210, 1)], [Subscription(200, 215)], op)
        assertContract(.values, [.next(210, 1), .next(230, 3), .completed(300)], [Subscription(200, 300)]) { c in
            inf(c).throttle(.seconds(15), latest: false, scheduler: c.scheduler).asObservable()
        }
    }

    // MARK: Utility

    func testInfallibleDo_contract() {
        var log: [String] = []
        assertPassesThrough { c in
            inf(c).do(
                onNext: { log.append("n\($0)") }, afterNext: { log.append("a\($0)") }, onCompleted: { log.append("c") },
                afterCompleted: { log.append("ac") }, onSubscribe: { log.append("s") }, onSubscribed: { log.append("ss") },
                onDispose: { log.append("d") }
            ).asObservable()
        }
        XCTAssertEqual(
            log,
            [
                "s", "ss", "n1", "a1", "n2", "a2", "n3", "a3", "c", "ac", "d",  // values
                "s", "ss", "c", "ac", "d",  // empty
                "s", "ss", "d",  // never
                "s", "ss", "n1", "a1", "n-1", "a-1", "c", "ac", "d",  // error (recovered)
                "s", "ss", "n1", "a1", "d",  // disposed
            ])
    }

    func testInfallibleDebug_contract() {
        assertPassesThrough { c in inf(c).debug("infallible").asObservable() }
    }

    func testInfallibleShare_contract() {
        assertPassesThrough { c in inf(c).share(replay: 1).asObservable() }
    }

    func testInfallibleShare_replaysToLateSubscriber() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            let shared = relay.asInfallible().share(replay: 1, scope: .whileConnected)
            var early: [Int] = [], late: [Int] = []
            let d1 = shared.subscribe(onNext: { early.append($0) })
            relay.accept(1)
            let d2 = shared.subscribe(onNext: { late.append($0) })
            relay.accept(2)
            d1.dispose(); d2.dispose()
            XCTAssertEqual(early, [1, 2])
            XCTAssertEqual(late, [1, 2])
        }
    }

    func testInfallibleWithUnretained_contract() {
        let owner = Owner()
        assertPassesThrough { c in inf(c).withUnretained(owner) { _, v in v }.asObservable() }
        assertPassesThrough { c in inf(c).withUnretained(owner).map { $0.1 }.asObservable() }
    }

    func testInfallibleWithUnretained_completesOnceObjectIsGone() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            var owner: Owner? = Owner()
            var events: [Event<Int>] = []
            let subscription = relay.asInfallible().withUnretained(owner!) { _, v in v }.subscribe { events.append($0) }
            relay.accept(1)
            owner = nil
            relay.accept(2)
            subscription.dispose()
            XCTAssertEqual(events, [.next(1), .completed])
        }
    }

    // MARK: Creation and binding

    func testInfallibleDeferred_factoryRunsPerSubscription() {
        XCTAssertNoLeaks {
            var calls = 0
            let deferred = Infallible<Int>.deferred {
                calls += 1
                return .just(calls)
            }
            var got: [Int] = []
            _ = deferred.subscribe(onNext: { got.append($0) })
            _ = deferred.subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [1, 2])
        }
    }

    func testInfallibleEvent_convertsToEvent() {
        XCTAssertEqual(InfallibleEvent.next(1).event, Event.next(1))
        XCTAssertEqual(InfallibleEvent<Int>.completed.event, Event.completed)
    }

    func testInfallibleBind_optionalObserversAndRelays() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int?.self)
            let publish = PublishRelay<Int?>()
            let behavior = BehaviorRelay<Int?>(value: nil)
            let replay = ReplayRelay<Int?>.create(bufferSize: 2)
            var published: [Int?] = []
            let p = publish.subscribe(onNext: { published.append($0) })
            let relay = PublishRelay<Int>()
            let source = relay.asInfallible()
            let d1 = source.bind(to: observer)
            let d2 = source.bind(to: publish)
            let d3 = source.bind(to: behavior)
            let d4 = source.bind(to: replay)
            relay.accept(1)
            relay.accept(2)
            var replayed: [Int?] = []
            let r = replay.subscribe(onNext: { replayed.append($0) })
            XCTAssertEqual(observer.events, [.next(0, 1), .next(0, 2)])
            XCTAssertEqual(published, [1, 2])
            XCTAssertEqual(behavior.value, 2)
            XCTAssertEqual(replayed, [1, 2])
            [d1, d2, d3, d4, p, r].forEach { $0.dispose() }
        }
    }

    func testInfallibleBind_binderFunctions() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            let source = Infallible.of(1, 2)
            let count = source.bind(to: { (infallible: Infallible<Int>) -> Int in
                _ = infallible.subscribe(onNext: { got.append($0) })
                return 7
            })
            let curried = source.bind(
                to: { (infallible: Infallible<Int>) in
                    { (offset: Int) -> Disposable in
                        infallible.subscribe(onNext: { got.append($0 + offset) })
                    }
                }, curriedArgument: 10)
            curried.dispose()
            XCTAssertEqual(count, 7)
            XCTAssertEqual(got, [1, 2, 11, 12])
        }
    }
}
