import XCTest
import Streams
import StreamsTest

/// `Single`/`Maybe`/`Completable` operators added for RxSwift 6 parity: `delaySubscription`,
/// `retry(when:)`, `debug`, `using`, `timer`, `Maybe.ifEmpty`, `Completable.concat`,
/// `subscribe(with:)`, and the deprecated spellings.
final class PrimitiveSequenceOperatorsTests: XCTestCase {
    final class Owner {
        var log: [String] = []
    }

    // MARK: delaySubscription

    func testSingleDelaySubscription_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            c.source.asSingle().delaySubscription(.seconds(15), scheduler: c.scheduler).asObservable()
        }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(215, 220)], op)
        assertContract(.empty, source: .one, [.error(250, RxError.noElements)], [Subscription(215, 250)], op)
        assertContract(.never, source: .one, [], [Subscription(215, 1000)], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(215, 250)], op)
        assertContract(.disposed, source: .one, [], [], op)
    }

    func testCompletableDelaySubscription_subscribesLater() {
        assertContract(.values, source: .one, [Recorded<Event<Never>>.completed(220)], [Subscription(212, 220)]) { c in
            c.source.ignoreElements().asCompletable().delaySubscription(.seconds(12), scheduler: c.scheduler).asObservable()
        }
    }

    // MARK: retry(when:)

    func testSingleRetryWhen_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            c.source.asSingle().retry(when: { (errors: Observable<ContractError>) in errors }).asObservable()
        }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], op)
        // `noElements` is not a `ContractError`: forwarded as is.
        assertContract(.empty, source: .one, [.error(250, RxError.noElements)], [Subscription(200, 250)], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], op)
        // Resubscribed to the hot source at 250, which sends nothing more.
        assertContract(.error, source: .one, [], [Subscription(200, 250), Subscription(250, 1000)], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], op)
    }

    func testSingleRetryWhen_untypedNotifierEndsWithIt() {
        assertContract(.error, source: .one, [Recorded<Event<Int>>.completed(250)], [Subscription(200, 250)]) { c in
            c.source.asSingle().retry(when: { (errors: Observable<Swift.Error>) in errors.take(while: { _ in false }) }).asObservable()
        }
        assertContract(.empty, source: .one, [], [Subscription(200, 250), Subscription(250, 1000)]) { c in
            c.source.asSingle().retry(when: { (errors: Observable<Swift.Error>) in errors }).asObservable()
        }
    }

    // MARK: debug, using, timer

    func testSingleDebug_passesEventsThrough() {
        func op(_ c: ContractContext) -> Observable<Int> { c.source.asSingle().debug("contract").asObservable() }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], op)
    }

    func testSingleUsing_disposesResourceWithSubscription() {
        var resources: [BooleanDisposable] = []
        func op(_ c: ContractContext) -> Observable<Int> {
            Single.using(
                { () -> BooleanDisposable in
                    let resource = BooleanDisposable()
                    resources.append(resource)
                    return resource
                }, primitiveSequenceFactory: { _ in c.source.asSingle() }
            ).asObservable()
        }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], op)
        XCTAssertEqual(resources.map(\.isDisposed), [true, true, true, true])
    }

    func testSingleUsing_factoryErrorFails() {
        assertContract(.values, source: .one, [Recorded<Event<Int>>.error(200, ContractError())], []) { c in
            Single<Int>.using({ BooleanDisposable() }, primitiveSequenceFactory: { _ in throw ContractError() }).asObservable()
        }
    }

    func testSingleTimer_emitsZeroAfterDueTime() {
        assertContract(.values, source: .one, [.next(230, 0), .completed(230)], []) { c in
            Single<Int>.timer(.seconds(30), scheduler: c.scheduler).asObservable()
        }
        assertContract(.disposed, source: .one, [Recorded<Event<Int>>](), []) { c in
            Maybe<Int>.timer(.seconds(30), scheduler: c.scheduler).asObservable()
        }
    }

    // MARK: Maybe.ifEmpty

    func testMaybeIfEmptyDefault_contract() {
        func op(_ c: ContractContext) -> Observable<Int> { c.source.asMaybe().ifEmpty(default: 9).asObservable() }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], op)
        assertContract(.empty, source: .one, [.next(250, 9), .completed(250)], [Subscription(200, 250)], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], op)
    }

    func testMaybeIfEmptySwitchToMaybe_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            c.source.asMaybe().ifEmpty(switchTo: c.cold([.next(10, 7), .completed(10)]).asMaybe()).asObservable()
        }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], others: [[]], op)
        assertContract(.empty, source: .one, [.next(260, 7), .completed(260)], [Subscription(200, 250)], others: [[Subscription(250, 260)]], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], others: [[]], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], others: [[]], op)
    }

    func testMaybeIfEmptySwitchToSingle_contract() {
        func op(_ c: ContractContext) -> Observable<Int> {
            c.source.asMaybe().ifEmpty(switchTo: c.cold([.next(10, 7), .completed(10)]).asSingle()).asObservable()
        }
        assertContract(.values, source: .one, [.next(220, 1), .completed(220)], [Subscription(200, 220)], others: [[]], op)
        assertContract(.empty, source: .one, [.next(260, 7), .completed(260)], [Subscription(200, 250)], others: [[Subscription(250, 260)]], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], others: [[]], op)
        // Disposed while the switched-to `Single` runs.
        assertContract(.empty, source: .one, [], [Subscription(200, 250)], others: [[Subscription(250, 1000)]]) { c in
            c.source.asMaybe().ifEmpty(switchTo: c.cold([]).asSingle()).asObservable()
        }
    }

    // MARK: Completable.concat

    func testCompletableConcat_contract() {
        func op(_ c: ContractContext) -> Observable<Never> {
            c.source.ignoreElements().asCompletable().concat(c.cold([.completed(20)]).ignoreElements().asCompletable()).asObservable()
        }
        assertContract(.values, source: .one, [.completed(240)], [Subscription(200, 220)], others: [[Subscription(220, 240)]], op)
        assertContract(.empty, source: .one, [.completed(270)], [Subscription(200, 250)], others: [[Subscription(250, 270)]], op)
        assertContract(.never, source: .one, [], [Subscription(200, 1000)], others: [[]], op)
        assertContract(.error, source: .one, [.error(250, ContractError())], [Subscription(200, 250)], others: [[]], op)
        assertContract(.disposed, source: .one, [], [Subscription(200, 210)], others: [[]], op)
    }

    func testCompletableConcat_staticForms() {
        func seconds(_ c: ContractContext) -> (Completable, Completable) {
            (c.cold([.completed(20)]).ignoreElements().asCompletable(), c.cold([.completed(5)]).ignoreElements().asCompletable())
        }
        let expected: [Recorded<Event<Never>>] = [.completed(245)]
        let others = [[Subscription(220, 240)], [Subscription(240, 245)]]
        assertContract(.values, source: .one, expected, [Subscription(200, 220)], others: others) { c in
            let (b, d) = seconds(c)
            return Completable.concat([c.source.ignoreElements().asCompletable(), b, d]).asObservable()
        }
        assertContract(.values, source: .one, expected, [Subscription(200, 220)], others: others) { c in
            let (b, d) = seconds(c)
            return Completable.concat(AnySequence([c.source.ignoreElements().asCompletable(), b, d])).asObservable()
        }
        assertContract(.values, source: .one, expected, [Subscription(200, 220)], others: others) { c in
            let (b, d) = seconds(c)
            return Completable.concat(c.source.ignoreElements().asCompletable(), b, d).asObservable()
        }
        assertContract(.error, source: .one, [Recorded<Event<Never>>.error(250, ContractError())], [Subscription(200, 250)], others: [[], []]) { c in
            let (b, d) = seconds(c)
            return Completable.concat(c.source.ignoreElements().asCompletable(), b, d).asObservable()
        }
        assertContract(.never, source: .one, [Recorded<Event<Never>>.completed(200)], []) { _ in
            Completable.concat([Completable]()).asObservable()
        }
    }

    // MARK: subscribe(with:)

    func testMaybeSubscribeWith_passesObjectToEveryHandler() {
        XCTAssertNoLeaks {
            let owner = Owner()
            _ = Maybe.just(1).subscribe(
                with: owner, onSuccess: { $0.log.append("s\($1)") }, onError: { o, _ in o.log.append("e") },
                onCompleted: { $0.log.append("c") }, onDisposed: { $0.log.append("d") })
            _ = Maybe<Int>.empty().subscribe(
                with: owner, onSuccess: { $0.log.append("s\($1)") }, onCompleted: { $0.log.append("c") }, onDisposed: { $0.log.append("d") })
            _ = Maybe<Int>.error(ContractError()).subscribe(with: owner, onError: { o, _ in o.log.append("e") }, onDisposed: { $0.log.append("d") })
            Maybe<Int>.never().subscribe(with: owner, onDisposed: { $0.log.append("d") }).dispose()
            XCTAssertEqual(owner.log, ["s1", "d", "c", "d", "e", "d", "d"])
        }
    }

    func testMaybeSubscribeWith_stopsOnceObjectIsGone() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var calls = 0
            var owner: Owner? = Owner()
            let subscription = subject.asMaybe().subscribe(with: owner!, onSuccess: { _, _ in calls += 1 }, onDisposed: { _ in calls += 1 })
            owner = nil
            subject.onNext(1)
            subject.onCompleted()
            subscription.dispose()
            XCTAssertEqual(calls, 0)
        }
    }

    func testCompletableSubscribeWith_passesObjectToEveryHandler() {
        XCTAssertNoLeaks {
            let owner = Owner()
            _ = Completable.empty().subscribe(
                with: owner, onCompleted: { $0.log.append("c") }, onError: { o, _ in o.log.append("e") }, onDisposed: { $0.log.append("d") })
            _ = Completable.error(ContractError()).subscribe(with: owner, onError: { o, _ in o.log.append("e") }, onDisposed: { $0.log.append("d") })
            Completable.never().subscribe(with: owner, onDisposed: { $0.log.append("d") }).dispose()
            XCTAssertEqual(owner.log, ["c", "d", "e", "d", "d"])
        }
    }

    func testCompletableSubscribeWith_stopsOnceObjectIsGone() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Never>()
            var calls = 0
            var owner: Owner? = Owner()
            let subscription = subject.asCompletable().subscribe(with: owner!, onCompleted: { _ in calls += 1 }, onDisposed: { _ in calls += 1 })
            owner = nil
            subject.onCompleted()
            subscription.dispose()
            XCTAssertEqual(calls, 0)
        }
    }

    // MARK: Deprecated spellings

    @available(*, deprecated)
    func testDeprecatedSpellings_forwardToRxSwift6Names() {
        XCTAssertNoLeaks {
            var events: [String] = []
            let failing = Single<Int>.error(ContractError())
            _ = failing.catchErrorJustReturn(1).subscribe(onSuccess: { events.append("a\($0)") })
            _ = Maybe<Int>.error(ContractError()).catchErrorJustReturn(2).subscribe(onSuccess: { events.append("b\($0)") })
            _ = failing.catchError { _ in .just(3) }.subscribe(onSuccess: { events.append("c\($0)") })
            _ = Single.just(4).observeOn(CurrentThreadScheduler.instance).subscribeOn(CurrentThreadScheduler.instance)
                .subscribe(onSuccess: { events.append("d\($0)") })
            var attempts = 0
            let flaky = Single<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(ContractError()) : .just(5)
            }
            _ = flaky.retryWhen { (errors: Observable<ContractError>) in errors }.subscribe(onSuccess: { events.append("e\($0)") })
            attempts = 0
            _ = flaky.retryWhen { (errors: Observable<Swift.Error>) in errors }.subscribe(onSuccess: { events.append("f\($0)") })
            XCTAssertEqual(events, ["a1", "b2", "c3", "d4", "e5", "f5"])
        }
    }
}
