import Streams
import StreamsTest
import XCTest

final class ConcatTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testConcat_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
            let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
        }
    }

    func testConcat_instanceAndVariadicForms() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let zs = scheduler.createColdObservable([.next(10, 3), .completed(20)])
            let instance = scheduler.start { xs.concat(ys) }
            XCTAssertEqual(instance.events, [.next(210, 1), .next(230, 2), .completed(240)])

            var events: [Event<Int>] = []
            _ = Observable.concat(Observable.just(1), Observable.just(2), Observable.just(3)).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])

            events = []
            let lazy = (1...3).lazy.map { Observable.just($0 * 10) }
            _ = Observable.concat(AnySequence(lazy)).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(10), .next(20), .next(30), .completed])
            _ = zs
        }
    }

    func testConcat_emptyList() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
            XCTAssertEqual(res.events, [.completed(200)])
        }
    }

    func testConcat_emptySources() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.completed(10, Int.self)])
            let ys = scheduler.createColdObservable([.completed(20, Int.self)])
            let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(res.events, [.completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        }
    }

    func testConcat_neverFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1)])
            let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [])
        }
    }

    func testConcat_errorStops() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.first, Int.self)])
            let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [])

            let other = TestScheduler(initialClock: 0)
            let a = other.createColdObservable([.next(10, 1), .completed(20)])
            let b = other.createColdObservable([.error(10, TestError.second, Int.self)])
            let res2 = other.start { a.concat(b) }
            XCTAssertEqual(res2.events, [.next(210, 1), .error(230, TestError.second)])
            XCTAssertEqual(b.subscriptions, [Subscription(220, 230)])
        }
    }

    func testConcat_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let ys = scheduler.createColdObservable([.next(10, 2), .next(40, 3), .completed(50)])
            let res = scheduler.start(disposed: 250) { Observable.concat([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(220, 250)])
        }
    }

    /// Many sources completing during their own subscription are chained iteratively.
    func testConcat_longSynchronousChainDoesNotOverflow() {
        XCTAssertNoLeaks {
            var count = 0
            var completed = false
            let sources = (0..<100_000).map { Observable.just($0) }
            _ = Observable.concat(sources).subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
            XCTAssertEqual(count, 100_000)
            XCTAssertTrue(completed)
        }
    }

    /// Runs `body` on a thread with a 512 KiB stack (as a secondary thread's default), so
    /// that recursion proportional to the input would crash the test.
    private func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
    }

    /// `items.reduce(.empty()) { $0.concat(f($1)) }` nests 10,000 concatenations; subscribing it
    /// must not recurse per level (issue 17, finding 2). Crashed on subscription before.
    func testConcat_deeplyLeftNestedChainDoesNotOverflow() {
        let result = LockedState((count: 0, sum: 0, completed: false))
        onSmallStack {
            let chain = (0..<10_000).reduce(Observable<Int>.empty()) { $0.concat(Observable.just($1)) }
            _ = chain.subscribe(
                onNext: { value in
                    result.withLock {
                        $0.count += 1; $0.sum += value
                    }
                },
                onCompleted: { result.withLock { $0.completed = true } }
            )
        }
        let final = result.withLock { $0 }
        XCTAssertEqual(final.count, 10_000)
        XCTAssertEqual(final.sum, (0..<10_000).reduce(0, +))
        XCTAssertTrue(final.completed)
    }

    /// Right nesting (`a.concat(b.concat(c.concat(…)))`) and `Observable.concat` of nested
    /// concatenations keep order, completion and errors.
    func testConcat_nestedConcatenationsKeepOrderAndErrors() {
        XCTAssertNoLeaks {
            let right = (0..<5_000).reversed().reduce(Observable<Int>.empty()) { Observable.just($1).concat($0) }
            XCTAssertEqual(collectEvents(right).events.count, 5_001)
            XCTAssertEqual(collectEvents(right.take(3)).events, [.next(0), .next(1), .next(2), .completed])
            let mixed = Observable.concat(Observable.concat(.just(1), .just(2)), .just(3), Observable.concat(.just(4), Observable.concat(.just(5))))
            XCTAssertEqual(collectEvents(mixed).events, [.next(1), .next(2), .next(3), .next(4), .next(5), .completed])
            let failing = Observable.concat(Observable.concat(.just(1), .error(TestError.first)), .just(3))
            XCTAssertEqual(collectEvents(failing).events, [.next(1), .error(TestError.first)])
            // A nested concatenation subscribed twice is expanded afresh each time.
            let shared = Observable.concat(.just(1), .just(2))
            XCTAssertEqual(collectEvents(shared.concat(shared)).events, [.next(1), .next(2), .next(1), .next(2), .completed])
        }
    }

    /// An infinite lazy sequence is pulled one source at a time, and not after disposal.
    func testConcat_stopsPullingWhenDisposed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var pulled = 0
            let endless = AnySequence { () -> AnyIterator<Observable<Int>> in
                AnyIterator {
                    pulled += 1
                    return Observable.just(pulled, scheduler: scheduler)
                }
            }
            let res = scheduler.start(disposed: 210) { Observable.concat(endless) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(203, 2), .next(205, 3), .next(207, 4), .next(209, 5)])
            XCTAssertEqual(pulled, 5)
        }
    }

    func testConcat_reentrant() {
        XCTAssertNoLeaks {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = Observable.concat([first.asObservable(), second.asObservable()])
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 {
                        first.onNext(2)
                        first.onCompleted()
                        second.onNext(3)
                    }
                })
            first.onNext(1)
            second.onNext(4)
            XCTAssertEqual(received, [1, 2, 3, 4])
            subscription.dispose()
        }
    }

    /// The current source completes on another thread, sometimes while its subscription is still
    /// running (even sources wait for it inside `subscribe`), sometimes after.
    func testConcat_sourceCompletingOnAnotherThread() {
        XCTAssertNoLeaks {
            let rounds = 200
            let waited = DispatchQueue(label: "concat.waited")
            let unwaited = DispatchQueue(label: "concat.unwaited")
            let probe = CombiningSupport.ConcurrencyProbe<Int>()
            let sources = (0..<rounds).map { value in
                Observable<Int>.create { observer in
                    let handed = CombiningSupport.Unchecked(value: observer)
                    let emit: @Sendable () -> Void = {
                        handed.value.onNext(value)
                        handed.value.onCompleted()
                    }
                    if value.isMultiple(of: 2) {
                        // Completes on `waited`'s thread while this subscribe call is blocked.
                        let group = DispatchGroup()
                        waited.async(group: group, execute: emit)
                        group.wait()
                    } else {
                        unwaited.async(execute: emit)
                    }
                    return Disposables.create()
                }
            }
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable.concat(sources).subscribe(
                onNext: { probe.onNext($0) },
                onCompleted: {
                    probe.onCompleted()
                    done.signal()
                })
            done.wait()
            // Let the thread that delivered the completion finish releasing the chain.
            unwaited.sync {}
            waited.sync {}
            XCTAssertEqual(probe.elements, Array(0..<rounds))
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertEqual(probe.terminalCount, 1)
            subscription.dispose()
        }
    }
}
