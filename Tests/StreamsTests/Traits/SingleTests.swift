import XCTest
import Streams
import StreamsTest

final class SingleTests: XCTestCase {
    struct TestError: Error {}

    func testSingle_createSuccess() {
        XCTAssertNoLeaks {
            var events: [SingleEvent<Int>] = []
            var disposed = 0
            _ = Single<Int>.create { single in
                single(.success(1))
                single(.success(2))
                single(.failure(TestError()))
                return Disposables.create { disposed += 1 }
            }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.success(1)])
            XCTAssertEqual(disposed, 1)
        }
    }

    func testSingle_createFailure() {
        XCTAssertNoLeaks {
            var events: [SingleEvent<Int>] = []
            _ = Single<Int>.create { single in
                single(.failure(TestError()))
                single(.success(2))
                return Disposables.create()
            }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.failure(TestError())])
        }
    }

    func testSingle_createDisposedBeforeEvent() {
        XCTAssertNoLeaks {
            var events: [SingleEvent<Int>] = []
            var send: ((SingleEvent<Int>) -> Void)?
            var disposed = 0
            let subscription = Single<Int>.create { single in
                send = single
                return Disposables.create { disposed += 1 }
            }.subscribe { events.append($0) }
            subscription.dispose()
            send?(.success(1))
            XCTAssertEqual(events, [])
            XCTAssertEqual(disposed, 1)
            send = nil
        }
    }

    func testSingle_subscribeClosures() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Single.just(1).subscribe(onSuccess: { log.append("s\($0)") }, onFailure: { _ in log.append("f") }, onDisposed: { log.append("d") })
            _ = Single<Int>.error(TestError()).subscribe(
                onSuccess: { log.append("s\($0)") }, onFailure: { _ in log.append("f") }, onDisposed: { log.append("d") })
            let never = Single<Int>.never().subscribe(onSuccess: { log.append("s\($0)") }, onDisposed: { log.append("never-d") })
            never.dispose()
            XCTAssertEqual(log, ["s1", "d", "f", "d", "never-d"])
        }
    }

    func testSingle_subscribeWithObject() {
        final class Owner {}
        XCTAssertNoLeaks {
            var owner: Owner? = Owner()
            var got: [Int] = []
            let subject = PublishSubject<Int>()
            _ = subject.take(1).asSingle().subscribe(with: owner!, onSuccess: { _, value in got.append(value) })
            owner = nil
            subject.onNext(1)
            XCTAssertEqual(got, [])
        }
    }

    func testSingle_asObservableOfJustErrorNever() {
        XCTAssertNoLeaks {
            XCTAssertEqual(TestScheduler(initialClock: 0).start { Single.just(1).asObservable() }.events, [.next(200, 1), .completed(200)])
            XCTAssertEqual(TestScheduler(initialClock: 0).start { Single<Int>.error(TestError()).asObservable() }.events, [.error(200, TestError())])
            XCTAssertEqual(TestScheduler(initialClock: 0).start { Single<Int>.never().asObservable() }.events, [])
        }
    }

    func testSingle_justOnScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1, scheduler: scheduler).asObservable() }
            XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
        }
    }

    func testAsSingle_oneElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(300)])
            let res = scheduler.start { xs.asSingle().asObservable() }
            XCTAssertEqual(res.events, [.next(300, 1), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testAsSingle_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(300, Int.self)])
            let res = scheduler.start { xs.asSingle().asObservable() }
            XCTAssertEqual(res.events, [.error(300, RxError.noElements)])
        }
    }

    func testAsSingle_moreThanOne() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.asSingle().asObservable() }
            XCTAssertEqual(res.events, [.error(220, RxError.moreThanOneElement)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testAsSingle_errorNeverDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(scheduler.start { xs.asSingle().asObservable() }.events, [.error(250, TestError())])
            let other = TestScheduler(initialClock: 0)
            let ys = other.createHotObservable([.next(410, 1), .completed(500)])
            let res = other.start(disposed: 450) { ys.asSingle().asObservable() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 450)])
        }
    }

    func testToArray() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(scheduler.start { xs.toArray().asObservable() }.events, [.next(300, [1, 2]), .completed(300)])
            let empty = scheduler.createHotObservable([.completed(1300, Int.self)])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { empty.toArray().asObservable() }.events, [.next(1300, []), .completed(1300)])
            let failing = scheduler.createHotObservable([.next(2210, 1), .error(2250, TestError())])
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { failing.toArray().asObservable() }.events, [.error(2250, TestError())])
        }
    }

    func testFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(scheduler.start { xs.first().asObservable() }.events, [.next(210, Optional(1)), .completed(210)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            let empty = scheduler.createHotObservable([.completed(1300, Int.self)])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { empty.first().asObservable() }.events, [.next(1300, nil), .completed(1300)])
        }
    }

    func testSingle_mapFlatMapZip() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = Single.just(2, scheduler: scheduler)
            let res = scheduler.start {
                a.map { $0 * 10 }.flatMap { value in Single.just(value + 1, scheduler: scheduler) }.asObservable()
            }
            XCTAssertEqual(res.events, [.next(202, 21), .completed(203)])
            let zipped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                Single.zip(Single.just(1), Single.just("a")).map { "\($0)\($1)" }.asObservable()
            }
            XCTAssertEqual(zipped.events, [.next(1200, "1a"), .completed(1200)])
        }
    }

    func testSingle_zipCollectionAndThree() {
        XCTAssertNoLeaks {
            var got: [SingleEvent<[Int]>] = []
            _ = Single.zip([Single.just(1), Single.just(2), Single.just(3)]).subscribe { got.append($0) }
            _ = Single.zip([Single<Int>]()).subscribe { got.append($0) }
            _ = Single.zip([Single.just(1), Single.error(TestError())]).subscribe { got.append($0) }
            XCTAssertEqual(got, [.success([1, 2, 3]), .success([]), .failure(TestError())])
            var triple: [SingleEvent<String>] = []
            _ = Single.zip(Single.just(1), Single.just("b"), Single.just(true)).map { "\($0)\($1)\($2)" }.subscribe { triple.append($0) }
            XCTAssertEqual(triple, [.success("1btrue")])
        }
    }

    func testSingle_flatMapMaybeAndCompletable() {
        XCTAssertNoLeaks {
            var maybe: [MaybeEvent<Int>] = []
            _ = Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() }.subscribe { maybe.append($0) }
            _ = Single.just(1).flatMapMaybe { Maybe.just($0 + 1) }.subscribe { maybe.append($0) }
            XCTAssertEqual(maybe, [.completed, .success(2)])
            var completable: [CompletableEvent] = []
            _ = Single.just(1).flatMapCompletable { _ in Completable.empty() }.subscribe { completable.append($0) }
            _ = Single.just(1).flatMapCompletable { _ in Completable.error(TestError()) }.subscribe { completable.append($0) }
            XCTAssertEqual(completable, [.completed, .error(TestError())])
        }
    }

    func testSingle_catchRetryCatchAndReturn() {
        XCTAssertNoLeaks {
            var got: [SingleEvent<Int>] = []
            _ = Single<Int>.error(TestError()).catch { _ in .just(7) }.subscribe { got.append($0) }
            _ = Single<Int>.error(TestError()).catchAndReturn(8).subscribe { got.append($0) }
            var attempts = 0
            _ = Single<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(TestError()) : .just(attempts)
            }.retry(3).subscribe { got.append($0) }
            XCTAssertEqual(got, [.success(7), .success(8), .success(3)])
        }
    }

    func testSingle_do() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Single.just(1).do(
                onSuccess: { log.append("success \($0)") }, afterSuccess: { _ in log.append("after") }, onSubscribe: { log.append("subscribe") },
                onDispose: { log.append("dispose") }
            )
            .subscribe(onSuccess: { log.append("got \($0)") })
            XCTAssertEqual(log, ["subscribe", "success 1", "got 1", "after", "dispose"])
        }
    }

    func testSingle_timeoutDelayObserveOn() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let slow = Single.just(1).delay(.seconds(50), scheduler: scheduler)
            // As in RxSwift, the element and the completion are two delay steps.
            XCTAssertEqual(scheduler.start { slow.asObservable() }.events, [.next(250, 1), .completed(251)])
            let timedOut = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                slow.timeout(.seconds(20), scheduler: scheduler).asObservable()
            }
            XCTAssertEqual(timedOut.events, [.error(1220, RxError.timeout)])
            let observed = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                Single.just(1).observe(on: scheduler).subscribe(on: scheduler).asObservable()
            }
            XCTAssertEqual(observed.events, [.next(2202, 1), .completed(2203)])
        }
    }

    func testSingle_filterAsMaybeAsCompletable() {
        XCTAssertNoLeaks {
            var maybe: [MaybeEvent<Int>] = []
            _ = Single.just(1).filter { $0 > 1 }.subscribe { maybe.append($0) }
            _ = Single.just(2).asMaybe().subscribe { maybe.append($0) }
            XCTAssertEqual(maybe, [.completed, .success(2)])
            var completable: [CompletableEvent] = []
            _ = Single.just(1).asCompletable().subscribe { completable.append($0) }
            XCTAssertEqual(completable, [.completed])
        }
    }

    func testSingle_concurrentCallersDeliverOnce() {
        XCTAssertNoLeaks {
            for _ in 0..<50 {
                let count = LockedCounter()
                var send: ((SingleEvent<Int>) -> Void)?
                let subscription = Single<Int>.create { single in
                    send = single
                    return Disposables.create()
                }.subscribe { _ in count.increment() }
                let sendNow = send!
                // Safety: the closure only calls into Streams' thread-safe sink.
                let shared = UncheckedBox(sendNow)
                DispatchQueue.concurrentPerform(iterations: 4) { shared.value(.success($0)) }
                XCTAssertEqual(count.value, 1)
                subscription.dispose()
                send = nil
            }
        }
    }
}

/// A thread-safe counter for stress tests.
final class LockedCounter: @unchecked Sendable {
    // Safety: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Carries a value into `concurrentPerform` in tests.
struct UncheckedBox<Value>: @unchecked Sendable {
    // Safety: each use site only passes thread-safe values.
    let value: Value
    init(_ value: Value) { self.value = value }
}
