import XCTest
import Streams
import StreamsTest

/// `Driver`/`Signal` operators added for RxCocoa parity. The source is the contract's hot source
/// converted with `asDriver(onErrorJustReturn: -1)` (or `asSignal`), with `SharingScheduler`
/// mocked to the test scheduler: every event arrives one tick later (the conversion observes on
/// the scheduler), and the `.error` scenario ends with `-1` and completion at 251.
private func drv(_ c: ContractContext) -> Driver<Int> {
    c.source.asDriver(onErrorJustReturn: -1)
}

private func sig(_ c: ContractContext) -> Signal<Int> {
    c.source.asSignal(onErrorJustReturn: -1)
}

final class SharedSequenceOperatorsTests: XCTestCase {
    final class Owner {}

    /// Checks an operator that forwards the converted source unchanged, in every scenario.
    private func assertPassesThrough(file: StaticString = #filePath, line: UInt = #line, _ op: @escaping (ContractContext) -> Observable<Int>) {
        assertContract(.values, [.next(211, 1), .next(221, 2), .next(231, 3), .completed(301)], [Subscription(200, 300)], file: file, line: line, op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], file: file, line: line, op)
        assertContract(.never, [], [Subscription(200, 1000)], file: file, line: line, op)
        assertContract(.error, [.next(211, 1), .next(251, -1), .completed(251)], [Subscription(200, 250)], file: file, line: line, op)
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)], file: file, line: line, op)
    }

    // MARK: Creation

    func testSharedSequenceCreation_deliversOnSharingScheduler() {
        assertContract(.values, [.next(201, 5), .completed(201)], []) { _ in Driver.deferred { .just(5) }.asObservable() }
        assertContract(.values, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)], []) { _ in Driver.of(1, 2, 3).asObservable() }
        assertContract(.values, [.next(201, 1), .next(202, 2), .completed(203)], []) { _ in Signal.from([1, 2]).asObservable() }
        assertContract(.values, [.next(201, 1), .next(202, 2), .completed(203)], []) { _ in Driver.from(AnySequence([1, 2])).asObservable() }
        assertContract(.values, [.next(201, 7), .completed(202)], []) { _ in Driver.from(optional: 7).asObservable() }
        assertContract(.values, [Recorded<Event<Int>>.completed(201)], []) { _ in Signal<Int>.from(optional: nil).asObservable() }
        assertContract(.disposed, [.next(210, 0)], []) { _ in Driver<Int>.interval(.seconds(10)).asObservable() }
        assertContract(.disposed, [.next(205, 0), .next(208, 1), .next(211, 2), .next(214, 3)], []) { _ in
            Signal<Int>.timer(.seconds(5), period: .seconds(3)).asObservable()
        }
        assertContract(.disposed, [Recorded<Event<Int>>](), []) { _ in Driver.of(1, 2).delay(.seconds(20)).asObservable() }
    }

    // MARK: Transforming

    func testSharedSequenceCompactMap_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { drv(c).compactMap { $0 == 2 ? nil : $0 * 10 }.asObservable() }
        assertContract(.values, [.next(211, 10), .next(231, 30), .completed(301)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(211, 10), .next(251, -10), .completed(251)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(211, 10)], [Subscription(200, 215)], op)
    }

    func testSharedSequenceFlatMap_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(2, 10), .completed(15)])
            return drv(c).flatMap { v in ys.asSignal(onErrorJustReturn: 0).map { $0 + v } }.asObservable()
        }
        assertContract(
            .values, [.next(214, 11), .next(224, 12), .next(234, 13), .completed(301)], [Subscription(200, 300)],
            others: [[Subscription(211, 226), Subscription(221, 236), Subscription(231, 246)]], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], others: [[]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(214, 11), .next(254, 9), .completed(267)], [Subscription(200, 250)],
            others: [[Subscription(211, 226), Subscription(251, 266)]], op)
        assertContract(.disposed, [.next(214, 11)], [Subscription(200, 215)], others: [[Subscription(211, 215)]], op)
    }

    func testSharedSequenceFlatMapFirst_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(2, 10), .completed(15)])
            return drv(c).flatMapFirst { v in ys.asDriver(onErrorJustReturn: 0).map { $0 + v } }.asObservable()
        }
        assertContract(
            .values, [.next(214, 11), .next(234, 13), .completed(301)], [Subscription(200, 300)],
            others: [[Subscription(211, 226), Subscription(231, 246)]], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], others: [[]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(214, 11), .next(254, 9), .completed(267)], [Subscription(200, 250)],
            others: [[Subscription(211, 226), Subscription(251, 266)]], op)
        assertContract(.disposed, [.next(214, 11)], [Subscription(200, 215)], others: [[Subscription(211, 215)]], op)
    }

    /// `flatMapLatest` into another strategy and `switchLatest` behave alike.
    private func assertFollowsLatest(file: StaticString = #filePath, line: UInt = #line, _ op: @escaping (ContractContext) -> Observable<Int>) {
        assertContract(
            .values, [.next(214, 11), .next(224, 12), .next(234, 13), .completed(301)], [Subscription(200, 300)],
            others: [[Subscription(211, 221), Subscription(221, 231), Subscription(231, 246)]], file: file, line: line, op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], others: [[]], file: file, line: line, op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], file: file, line: line, op)
        assertContract(
            .error, [.next(214, 11), .next(254, 9), .completed(267)], [Subscription(200, 250)],
            others: [[Subscription(211, 226), Subscription(251, 266)]], file: file, line: line, op)
        assertContract(.disposed, [.next(214, 11)], [Subscription(200, 215)], others: [[Subscription(211, 215)]], file: file, line: line, op)
    }

    func testSharedSequenceFlatMapLatestAcrossStrategies_contract() {
        assertFollowsLatest { c in
            let ys = c.cold([.next(2, 10), .completed(15)])
            let signal: Signal<Int> = drv(c).flatMapLatest { v in ys.asSignal(onErrorJustReturn: 0).map { $0 + v } }
            return signal.asObservable()
        }
    }

    func testSharedSequenceSwitchLatest_contract() {
        assertFollowsLatest { c in
            let ys = c.cold([.next(2, 10), .completed(15)])
            return drv(c).map { v in ys.asDriver(onErrorJustReturn: 0).map { $0 + v } }.switchLatest().asObservable()
        }
    }

    func testSharedSequenceMergeInner_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(2, 10), .completed(15)])
            return drv(c).map { v in ys.asSignal(onErrorJustReturn: 0).map { $0 + v } }.merge().asObservable()
        }
        assertContract(
            .values, [.next(214, 11), .next(224, 12), .next(234, 13), .completed(301)], [Subscription(200, 300)],
            others: [[Subscription(211, 226), Subscription(221, 236), Subscription(231, 246)]], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], others: [[]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(214, 11), .next(254, 9), .completed(267)], [Subscription(200, 250)],
            others: [[Subscription(211, 226), Subscription(251, 266)]], op)
        assertContract(.disposed, [.next(214, 11)], [Subscription(200, 215)], others: [[Subscription(211, 215)]], op)
    }

    func testSharedSequenceMergeMaxConcurrent_queuesInners() {
        func op(_ c: ContractContext) -> Observable<Int> {
            let ys = c.cold([.next(2, 10), .completed(15)])
            return drv(c).map { v in ys.asSignal(onErrorJustReturn: 0).map { $0 + v } }.merge(maxConcurrent: 1).asObservable()
        }
        // Each inner completes 15 ticks after its subscription and is seen one tick later.
        assertContract(
            .values, [.next(214, 11), .next(230, 12), .next(246, 13), .completed(301)], [Subscription(200, 300)],
            others: [[Subscription(211, 226), Subscription(227, 242), Subscription(243, 258)]], op)
        assertContract(.disposed, [.next(214, 11)], [Subscription(200, 215)], others: [[Subscription(211, 215)]], op)
    }

    // MARK: Combining

    func testSharedSequenceMerge_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            Driver.merge([drv(c), c.hot([.next(212, 20), .completed(400)]).asDriver(onErrorJustReturn: 0)]).asObservable()
        }
        assertContract(
            .values, [.next(211, 1), .next(213, 20), .next(221, 2), .next(231, 3), .completed(401)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]], op)
        assertContract(.empty, [.next(213, 20), .completed(401)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.never, [.next(213, 20)], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], op)
        assertContract(
            .error, [.next(211, 1), .next(213, 20), .next(251, -1), .completed(401)], [Subscription(200, 250)],
            others: [[Subscription(200, 400)]], op)
        assertContract(.disposed, [.next(211, 1), .next(213, 20)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
        assertContract(
            .values, [.next(211, 1), .next(213, 20), .next(221, 2), .next(231, 3), .completed(401)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]]
        ) { c in
            let sources = [drv(c), c.hot([.next(212, 20), .completed(400)]).asDriver(onErrorJustReturn: 0)]
            return Driver.merge(sources[...]).asObservable()
        }
    }

    func testSharedSequenceConcat_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            Driver.concat([drv(c), c.cold([.next(5, 9), .completed(10)]).asDriver(onErrorJustReturn: 0)]).asObservable()
        }
        assertContract(
            .values, [.next(211, 1), .next(221, 2), .next(231, 3), .next(307, 9), .completed(312)], [Subscription(200, 300)],
            others: [[Subscription(301, 311)]], op)
        assertContract(.empty, [.next(257, 9), .completed(262)], [Subscription(200, 250)], others: [[Subscription(251, 261)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(
            .error, [.next(211, 1), .next(251, -1), .next(257, 9), .completed(262)], [Subscription(200, 250)],
            others: [[Subscription(251, 261)]], op)
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)], others: [[]], op)
        assertContract(
            .values, [.next(211, 1), .next(221, 2), .next(231, 3), .next(307, 9), .completed(312)], [Subscription(200, 300)],
            others: [[Subscription(301, 311)]]
        ) { c in
            Signal.concat(AnySequence([sig(c), c.cold([.next(5, 9), .completed(10)]).asSignal(onErrorJustReturn: 0)])).asObservable()
        }
    }

    /// `zip` of the converted source with a second source: 100 at 206, 200 at 226, completed at 401.
    private func assertZipsWithSecond(file: StaticString = #filePath, line: UInt = #line, _ op: @escaping (ContractContext) -> Observable<Int>) {
        assertContract(
            .values, [.next(211, 101), .next(226, 202), .completed(401)], [Subscription(200, 300)], others: [[Subscription(200, 400)]], file: file, line: line,
            op)
        assertContract(.empty, [.completed(401)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], file: file, line: line, op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], file: file, line: line, op)
        assertContract(
            .error, [.next(211, 101), .next(251, 199), .completed(401)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], file: file, line: line,
            op)
        assertContract(.disposed, [.next(211, 101)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], file: file, line: line, op)
    }

    private func second(_ c: ContractContext) -> Driver<Int> {
        c.hot([.next(205, 100), .next(225, 200), .completed(400)]).asDriver(onErrorJustReturn: 0)
    }

    func testSharedSequenceZipCollection_contract() {
        assertZipsWithSecond { [self] c in Driver.zip([drv(c), second(c)]) { $0.reduce(0, +) }.asObservable() }
        assertZipsWithSecond { [self] c in Driver.zip([drv(c), second(c)]).map { $0.reduce(0, +) }.asObservable() }
    }

    func testSharedSequenceZipArity_contract() {
        assertZipsWithSecond { [self] c in Driver.zip(drv(c), second(c)) { $0 + $1 }.asObservable() }
        assertZipsWithSecond { [self] c in Driver.zip(drv(c), second(c)).map { $0 + $1 }.asObservable() }
    }

    func testSharedSequenceZip_higherArities() {
        func j(_ v: Int) -> Driver<Int> { .just(v) }
        let expected: [Recorded<Event<Int>>] = [.next(201, 36), .completed(201)]
        assertContract(.values, [.next(201, 6), .completed(201)], []) { _ in Driver.zip(j(1), j(2), j(3)) { $0 + $1 + $2 }.asObservable() }
        assertContract(.values, [.next(201, 6), .completed(201)], []) { _ in Driver.zip(j(1), j(2), j(3)).map { $0 + $1 + $2 }.asObservable() }
        assertContract(.values, [.next(201, 10), .completed(201)], []) { _ in Driver.zip(j(1), j(2), j(3), j(4)) { $0 + $1 + $2 + $3 }.asObservable() }
        assertContract(.values, [.next(201, 15), .completed(201)], []) { _ in
            Driver.zip(j(1), j(2), j(3), j(4), j(5)).map { $0 + $1 + $2 + $3 + $4 }.asObservable()
        }
        assertContract(.values, [.next(201, 21), .completed(201)], []) { _ in
            Driver.zip(j(1), j(2), j(3), j(4), j(5), j(6)) { $0 + $1 + $2 + $3 + $4 + $5 }.asObservable()
        }
        assertContract(.values, [.next(201, 28), .completed(201)], []) { _ in
            Driver.zip(j(1), j(2), j(3), j(4), j(5), j(6), j(7)).map { $0 + $1 + $2 + $3 + $4 + $5 + $6 }.asObservable()
        }
        assertContract(.values, expected, []) { _ in
            Driver.zip(j(1), j(2), j(3), j(4), j(5), j(6), j(7), j(8)) { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }.asObservable()
        }
        assertContract(.values, expected, []) { _ in
            Driver.zip(j(1), j(2), j(3), j(4), j(5), j(6), j(7), j(8)).map { [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +) }.asObservable()
        }
    }

    func testSharedSequenceCombineLatestCollection_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            Driver.combineLatest([drv(c), c.hot([.next(205, 100), .completed(400)]).asDriver(onErrorJustReturn: 0)]) { $0.reduce(0, +) }.asObservable()
        }
        assertContract(
            .values, [.next(211, 101), .next(221, 102), .next(231, 103), .completed(401)], [Subscription(200, 300)], others: [[Subscription(200, 400)]], op)
        assertContract(.empty, [.completed(401)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.never, [], [Subscription(200, 1000)], others: [[Subscription(200, 400)]], op)
        assertContract(.error, [.next(211, 101), .next(251, 99), .completed(401)], [Subscription(200, 250)], others: [[Subscription(200, 400)]], op)
        assertContract(.disposed, [.next(211, 101)], [Subscription(200, 215)], others: [[Subscription(200, 215)]], op)
        assertContract(
            .values, [.next(211, [1, 100]), .next(221, [2, 100]), .next(231, [3, 100]), .completed(401)], [Subscription(200, 300)],
            others: [[Subscription(200, 400)]]
        ) { c in
            Signal.combineLatest([sig(c), c.hot([.next(205, 100), .completed(400)]).asSignal(onErrorJustReturn: 0)]).asObservable()
        }
    }

    // MARK: Filtering

    func testSharedSequenceDistinctUntilChangedKey_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { drv(c).distinctUntilChanged { $0 / 2 }.asObservable() }
        assertContract(.values, [.next(211, 1), .next(221, 2), .completed(301)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(211, 1), .completed(251)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)], op)
        assertContract(.values, [.next(211, 1), .next(231, 3), .completed(301)], [Subscription(200, 300)]) { c in
            sig(c).distinctUntilChanged({ $0 }, comparer: { abs($0 - $1) < 2 }).asObservable()
        }
    }

    func testSharedSequenceSkip_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { drv(c).skip(2).asObservable() }
        assertContract(.values, [.next(231, 3), .completed(301)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.disposed, [], [Subscription(200, 215)], op)
    }

    // MARK: Time

    func testSharedSequenceThrottle_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { drv(c).throttle(.seconds(15)).asObservable() }
        assertContract(.values, [.next(211, 1), .next(226, 2), .next(241, 3), .completed(301)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(211, 1), .next(251, -1), .completed(251)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(211, 1)], [Subscription(200, 215)], op)
        assertContract(.values, [.next(211, 1), .next(231, 3), .completed(301)], [Subscription(200, 300)]) { c in
            sig(c).throttle(.seconds(15), latest: false).asObservable()
        }
    }

    func testSharedSequenceDebounce_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { sig(c).debounce(.seconds(3)).asObservable() }
        assertContract(.values, [.next(214, 1), .next(224, 2), .next(234, 3), .completed(301)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(251)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(214, 1), .next(251, -1), .completed(251)], [Subscription(200, 250)], op)
        assertContract(.disposed, [.next(214, 1)], [Subscription(200, 215)], op)
    }

    func testSharedSequenceDelay_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { drv(c).delay(.seconds(5)).asObservable() }
        assertContract(.values, [.next(216, 1), .next(226, 2), .next(236, 3), .completed(306)], [Subscription(200, 300)], op)
        assertContract(.empty, [.completed(256)], [Subscription(200, 250)], op)
        assertContract(.never, [], [Subscription(200, 1000)], op)
        assertContract(.error, [.next(216, 1), .next(256, -1), .completed(257)], [Subscription(200, 250)], op)
        assertContract(.disposed, [], [Subscription(200, 215)], op)
    }

    // MARK: Utility

    func testSharedSequenceDo_contract() {
        var log: [String] = []
        assertPassesThrough { c in
            drv(c).do(
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

    func testSharedSequenceDebug_contract() {
        assertPassesThrough { c in drv(c).debug("driver").asObservable() }
    }

    func testSignalWithUnretained_contract() {
        let owner = Owner()
        assertPassesThrough { c in sig(c).withUnretained(owner) { _, v in v }.asObservable() }
        assertPassesThrough { c in sig(c).withUnretained(owner).map { $0.1 }.asObservable() }
    }

    // MARK: Conversions

    func testAsSharedSequence_contract() {
        assertPassesThrough { c in c.source.asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: -1).asObservable() }
        assertPassesThrough { c in
            let signal: Signal<Int> = c.source.asSharedSequence(onErrorJustReturn: -1)
            return signal.asObservable()
        }
        assertContract(.error, [.next(211, 1), .next(252, 9), .completed(252)], [Subscription(200, 250)]) { c in
            c.source.asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorDriveWith: .just(9)).asObservable()
        }
        assertContract(.error, [.next(211, 1), .next(252, 8), .completed(252)], [Subscription(200, 250)]) { c in
            c.source.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorRecover: { _ in .just(8) }).asObservable()
        }
    }

    func testAsDriverAndAsSignal_identity() {
        assertPassesThrough { c in drv(c).asDriver().asObservable() }
        assertPassesThrough { c in sig(c).asSignal().asObservable() }
        // The fallback and the completion are two events of the Infallible, so they reach the
        // Driver one observe(on:) step apart.
        func viaInfallible(_ c: ContractContext) -> Observable<Int> { c.source.asInfallible(onErrorJustReturn: -1).asDriver().asObservable() }
        assertContract(.values, [.next(211, 1), .next(221, 2), .next(231, 3), .completed(301)], [Subscription(200, 300)], viaInfallible)
        assertContract(.error, [.next(211, 1), .next(251, -1), .completed(252)], [Subscription(200, 250)], viaInfallible)
    }

    func testRelayConversions_deliverOnSharingScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let behavior = BehaviorRelay(value: 0)
            let publish = PublishRelay<Int>()
            var driver: Driver<Int>!, publishDriver: Driver<Int>!, signal: Signal<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                driver = behavior.asDriver()
                publishDriver = publish.asDriver()
                signal = publish.asSignal()
            }
            let o1 = scheduler.createObserver(Int.self), o2 = scheduler.createObserver(Int.self), o3 = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            _ = scheduler.scheduleAt(200) {
                subscriptions = [driver.drive(o1), publishDriver.drive(o2), signal.emit(to: o3)]
            }
            _ = scheduler.scheduleAt(210) {
                behavior.accept(1); publish.accept(2)
            }
            _ = scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(o1.events, [.next(201, 0), .next(211, 1)])
            XCTAssertEqual(o2.events, [.next(211, 2)])
            XCTAssertEqual(o3.events, [.next(211, 2)])
            subscriptions = []
            driver = nil; publishDriver = nil; signal = nil
        }
    }

    // MARK: drive / emit

    func testDriveAndEmit_optionalObserversAndRelays() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let driverObserver = scheduler.createObserver(Int?.self)
            let signalObserver = scheduler.createObserver(Int?.self)
            let behavior = BehaviorRelay<Int?>(value: nil), behavior2 = BehaviorRelay<Int?>(value: nil)
            let replay = ReplayRelay<Int?>.create(bufferSize: 4), replay2 = ReplayRelay<Int?>.create(bufferSize: 4)
            let publish = PublishRelay<Int?>()
            var published: [Int?] = []
            let p = publish.subscribe(onNext: { published.append($0) })
            SharingScheduler.mock(scheduler: scheduler) {
                let driver = xs.asDriver(onErrorJustReturn: 0)
                let signal = xs.asSignal(onErrorJustReturn: 0)
                var subscriptions: [Disposable] = []
                _ = scheduler.scheduleAt(200) {
                    subscriptions = [
                        driver.drive(driverObserver), driver.drive(behavior), driver.drive(replay), driver.drive(),
                        signal.emit(to: signalObserver), signal.emit(to: behavior2), signal.emit(to: publish), signal.emit(to: replay2), signal.emit(),
                    ]
                }
                _ = scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
                scheduler.start()
            }
            var replayed: [Int?] = [], replayed2: [Int?] = []
            let r1 = replay.subscribe(onNext: { replayed.append($0) }), r2 = replay2.subscribe(onNext: { replayed2.append($0) })
            XCTAssertEqual(driverObserver.events, [.next(211, 1), .next(221, 2), .completed(301)])
            XCTAssertEqual(signalObserver.events, [.next(211, 1), .next(221, 2), .completed(301)])
            XCTAssertEqual(behavior.value, 2)
            XCTAssertEqual(behavior2.value, 2)
            XCTAssertEqual(published, [1, 2])
            XCTAssertEqual(replayed, [1, 2])
            XCTAssertEqual(replayed2, [1, 2])
            // The driver and the signal are two conversions: each subscribes to the source.
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300), Subscription(200, 300)])
            [p, r1, r2].forEach { $0.dispose() }
        }
    }

    func testDrive_binderFunctions() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let driver = Driver.just(3)
                var got: [Int] = []
                let count = driver.drive { (observable: Observable<Int>) -> Disposable in
                    observable.subscribe(onNext: { got.append($0) })
                }
                let curried = driver.drive(
                    { (observable: Observable<Int>) in
                        { (offset: Int) -> Disposable in
                            observable.subscribe(onNext: { got.append($0 + offset) })
                        }
                    }, curriedArgument: 10)
                scheduler.start()
                count.dispose()
                curried.dispose()
                XCTAssertEqual(got, [3, 13])
            }
        }
    }
}
