import XCTest
import Streams
import StreamsTest

final class MaybeTests: XCTestCase {
    struct TestError: Error {}

    func testMaybe_create() {
        XCTAssertNoLeaks {
            var events: [MaybeEvent<Int>] = []
            for first in [MaybeEvent<Int>.success(1), .completed, .error(TestError())] {
                _ = Maybe<Int>.create { maybe in
                    maybe(first)
                    maybe(.success(9))
                    maybe(.completed)
                    return Disposables.create()
                }.subscribe { events.append($0) }
            }
            XCTAssertEqual(events, [.success(1), .completed, .error(TestError())])
        }
    }

    func testMaybe_subscribeClosures() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let closures = { (maybe: Maybe<Int>) in
                _ = maybe.subscribe(
                    onSuccess: { log.append("s\($0)") }, onError: { _ in log.append("e") }, onCompleted: { log.append("c") }, onDisposed: { log.append("d") })
            }
            closures(.just(1))
            closures(.empty())
            closures(.error(TestError()))
            let never = Maybe<Int>.never().subscribe(onDisposed: { log.append("never-d") })
            never.dispose()
            XCTAssertEqual(log, ["s1", "d", "c", "d", "e", "d", "never-d"])
        }
    }

    func testAsMaybe() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let one = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            XCTAssertEqual(scheduler.start { one.asMaybe().asObservable() }.events, [.next(300, 1), .completed(300)])
            let empty = scheduler.createHotObservable([.completed(1300, Int.self)])
            XCTAssertEqual(scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { empty.asMaybe().asObservable() }.events, [.completed(1300)])
            let two = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { two.asMaybe().asObservable() }.events,
                [.error(2220, RxError.moreThanOneElement)])
            let failing = scheduler.createHotObservable([.error(3250, TestError(), Int.self)])
            XCTAssertEqual(
                scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) { failing.asMaybe().asObservable() }.events, [.error(3250, TestError())])
            let never = scheduler.createHotObservable([.next(4210, 1)])
            let res = scheduler.start(created: 4100, subscribed: 4200, disposed: 4250) { never.asMaybe().asObservable() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(never.subscriptions, [Subscription(4200, 4250)])
        }
    }

    func testMaybe_operators() {
        XCTAssertNoLeaks {
            var events: [MaybeEvent<Int>] = []
            _ = Maybe.just(1).map { $0 * 2 }.subscribe { events.append($0) }
            _ = Maybe.just(1).filter { $0 > 1 }.subscribe { events.append($0) }
            _ = Maybe<Int>.empty().flatMap { Maybe.just($0) }.subscribe { events.append($0) }
            _ = Maybe.just(3).flatMap { Maybe.just($0 + 1) }.subscribe { events.append($0) }
            _ = Maybe<Int>.error(TestError()).catchAndReturn(5).subscribe { events.append($0) }
            _ = Maybe.just(6).compactMap { $0 > 10 ? $0 : nil }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.success(2), .completed, .completed, .success(4), .success(5), .completed])
            var log: [String] = []
            _ = Maybe<Int>.empty().do(onNext: { _ in log.append("next") }, onCompleted: { log.append("completed") }, onDispose: { log.append("dispose") })
                .subscribe()
            XCTAssertEqual(log, ["completed", "dispose"])
            var completable: [CompletableEvent] = []
            _ = Maybe.just(1).asCompletable().subscribe { completable.append($0) }
            XCTAssertEqual(completable, [.completed])
        }
    }
}

final class CompletableTests: XCTestCase {
    struct TestError: Error {}

    func testCompletable_create() {
        XCTAssertNoLeaks {
            var events: [CompletableEvent] = []
            _ = Completable.create { completable in
                completable(.completed)
                completable(.error(TestError()))
                return Disposables.create()
            }.subscribe { events.append($0) }
            _ = Completable.create { completable in
                completable(.error(TestError()))
                completable(.completed)
                return Disposables.create()
            }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.completed, .error(TestError())])
        }
    }

    func testCompletable_subscribeClosures() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Completable.empty().subscribe(onCompleted: { log.append("c") }, onError: { _ in log.append("e") }, onDisposed: { log.append("d") })
            _ = Completable.error(TestError()).subscribe(onCompleted: { log.append("c") }, onError: { _ in log.append("e") }, onDisposed: { log.append("d") })
            Completable.never().subscribe(onDisposed: { log.append("never-d") }).dispose()
            XCTAssertEqual(log, ["c", "d", "e", "d", "never-d"])
        }
    }

    func testAsCompletable_infersNeverFromATerminalOnlyRecording() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // No `Never.self`: only `asCompletable()` on `Element == Never` fits, so it is inferred.
            let completable = scheduler.createColdObservable([.completed(20)]).asCompletable()
            let res = scheduler.start { completable.asObservable() }
            XCTAssertEqual(res.events, [.completed(220)])

            let failing = scheduler.createColdObservable([.error(30, TestError())]).asCompletable()
            XCTAssertEqual(scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { failing }.events, [.error(1230, TestError())])
        }
    }

    func testAsCompletable_timeoutOnAConvertedRecording() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let slow = scheduler.createColdObservable([.completed(40)]).asCompletable()
            let fallback = scheduler.createColdObservable([.completed(15)]).asCompletable()
            XCTAssertEqual(scheduler.start { slow.timeout(.seconds(10), scheduler: scheduler) }.events, [.error(210, RxError.timeout)])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { slow.timeout(.seconds(10), other: fallback, scheduler: scheduler) }.events,
                [.completed(1225)])
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { slow.timeout(.seconds(50), other: fallback, scheduler: scheduler) }.events,
                [.completed(2240)])
        }
    }

    func testObservableOfNeverAsCompletable_forwardsTheSourceUnchanged() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Never>()
            var events: [CompletableEvent] = []
            let baseline = Resources.total
            let subscription = subject.asCompletable().subscribe { events.append($0) }
            XCTAssertEqual(Resources.total, baseline, "no sink of its own (the subject's subscription is not a resource)")
            subject.onCompleted()
            subscription.dispose()
            XCTAssertEqual(events, [.completed])
        }
    }

    func testIgnoreElementsAsCompletable_ignoresElements() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(scheduler.start { xs.ignoreElements().asCompletable().asObservable() }.events, [.completed(300)])
            let failing = scheduler.createHotObservable([.next(1210, 1), .error(1250, TestError())])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { failing.ignoreElements().asCompletable().asObservable() }.events,
                [.error(1250, TestError())])
            let never = scheduler.createHotObservable([.next(2210, 1)])
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 2250) { never.ignoreElements().asCompletable().asObservable() }.events, [])
            XCTAssertEqual(never.subscriptions, [Subscription(2200, 2250)])
        }
    }

    func testAndThen() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable([.completed(10, Never.self)])
            let second = scheduler.createColdObservable([.next(20, 1), .completed(20)])
            let res = scheduler.start { first.asCompletable().andThen(second.asSingle()).asObservable() }
            XCTAssertEqual(res.events, [.next(230, 1), .completed(230)])
            XCTAssertEqual(first.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(second.subscriptions, [Subscription(210, 230)])

            var log: [String] = []
            _ = Completable.error(TestError()).andThen(Single.just(1)).subscribe(onSuccess: { log.append("s\($0)") }, onFailure: { _ in log.append("f") })
            _ = Completable.empty().andThen(Maybe<Int>.empty()).subscribe(onCompleted: { log.append("maybe-c") })
            _ = Completable.empty().andThen(Completable.empty()).subscribe(onCompleted: { log.append("c") })
            _ = Completable.empty().andThen(Observable.of(1, 2)).subscribe(onNext: { log.append("n\($0)") })
            XCTAssertEqual(log, ["f", "maybe-c", "c", "n1", "n2"])
        }
    }

    /// An object captured by the first `Completable`'s subscribe closure.
    private final class Captured {}

    /// Subscribes `first.andThen(...)` (built by `chain`) to a second sequence that never ends,
    /// without keeping `first` or the combined sequence, and returns whether the object `first`
    /// captured is still alive once `first` has completed.
    private func capturedObjectSurvives(
        scheduler: TestScheduler?,
        _ chain: (Completable, PublishSubject<Int>) -> Disposable
    ) -> (alive: Bool, secondSubscribed: Bool) {
        weak var captured: Captured?
        let second = PublishSubject<Int>()
        var subscription: Disposable?
        do {
            let object = Captured()
            captured = object
            let first = Completable.create { completable in
                withExtendedLifetime(object) {}
                guard let scheduler else {
                    completable(.completed)
                    return Disposables.create()
                }
                return scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    completable(.completed)
                    return Disposables.create()
                }
            }
            subscription = chain(first, second)
        }
        scheduler?.advanceTo(300)
        defer { subscription?.dispose() }
        return (captured != nil, second.hasObservers)
    }

    func testAndThen_releasesFirstCompletableOnceItCompleted() {
        XCTAssertNoLeaks {
            let chains: [(String, (Completable, PublishSubject<Int>) -> Disposable)] = [
                ("Single", { first, second in first.andThen(second.asSingle()).subscribe { _ in } }),
                ("Maybe", { first, second in first.andThen(second.asMaybe()).subscribe { _ in } }),
                ("Completable", { first, second in first.andThen(second.ignoreElements().asCompletable()).subscribe { _ in } }),
                ("Observable", { first, second in first.andThen(second.asObservable()).subscribe() }),
            ]
            for (name, chain) in chains {
                let synchronous = capturedObjectSurvives(scheduler: nil, chain)
                XCTAssertFalse(synchronous.alive, "andThen(\(name)), first completed during subscribe")
                XCTAssertTrue(synchronous.secondSubscribed, name)
                let scheduler = TestScheduler(initialClock: 0)
                let scheduled = capturedObjectSurvives(scheduler: scheduler, chain)
                XCTAssertFalse(scheduled.alive, "andThen(\(name)), first completed on the scheduler")
                XCTAssertTrue(scheduled.secondSubscribed, name)
            }
        }
    }

    func testCompletable_doCatch() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Completable.error(TestError())
                .do(onError: { _ in log.append("onError") }, onSubscribe: { log.append("subscribe") })
                .catchAndReturn()
                .subscribe(onCompleted: { log.append("completed") })
            XCTAssertEqual(log, ["subscribe", "onError", "completed"])
        }
    }
}
