import Dispatch
import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}
private struct OtherError: Error {}

final class DoTests: XCTestCase {
    func testDo_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
            var seen: [Int] = []
            var after: [Int] = []
            let res = scheduler.start { xs.do(onNext: { seen.append($0) }, afterNext: { after.append($0) }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
            XCTAssertEqual(seen, [1, 2])
            XCTAssertEqual(after, [1, 2])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDo_callOrderWithSynchronousSource() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create { log.append("source disposed") }
            }
            let observed = source.do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onError: { _ in log.append("onError") },
                afterError: { _ in log.append("afterError") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            _ = observed.subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            XCTAssertEqual(
                log,
                [
                    "onSubscribe", "onNext 1", "next 1", "afterNext 1", "onCompleted", "completed", "afterCompleted",
                    "source disposed", "onSubscribed", "onDispose",
                ])
        }
    }

    func testDo_callOrderWithAsynchronousCompletion() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let subject = PublishSubject<Int>()
            let observed = subject.do(
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            _ = observed.subscribe(onCompleted: { log.append("completed") })
            XCTAssertEqual(log, ["onSubscribe", "onSubscribed"])
            subject.onCompleted()
            XCTAssertEqual(log, ["onSubscribe", "onSubscribed", "onCompleted", "completed", "afterCompleted", "onDispose"])
        }
    }

    func testDo_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(250, Int.self)])
            var completed = 0
            var afterCompleted = 0
            var nexts = 0
            let res = scheduler.start {
                xs.do(onNext: { _ in nexts += 1 }, onCompleted: { completed += 1 }, afterCompleted: { afterCompleted += 1 })
            }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual([nexts, completed, afterCompleted], [0, 1, 1])
        }
    }

    func testDo_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            var disposed = 0
            var subscribed = 0
            let res = scheduler.start { xs.do(onSubscribed: { subscribed += 1 }, onDispose: { disposed += 1 }) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(subscribed, 1)
            XCTAssertEqual(disposed, 1)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testDo_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            var errors: [String] = []
            let res = scheduler.start {
                xs.do(onError: { errors.append("on \($0)") }, afterError: { errors.append("after \($0)") })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(errors, ["on TestError()", "after TestError()"])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDo_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            var disposedAt: [Int] = []
            var completed = 0
            let res = scheduler.start(disposed: 250) {
                xs.do(onCompleted: { completed += 1 }, onDispose: { disposedAt.append(scheduler.clock) })
            }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(disposedAt, [250])
            XCTAssertEqual(completed, 0)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDo_throwingOnNextBecomesError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
            var disposed = 0
            let res = scheduler.start {
                xs.do(onNext: { if $0 == 2 { throw TestError() } }, onDispose: { disposed += 1 })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError())])
            XCTAssertEqual(disposed, 1)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDo_throwingAfterNextErrorsAfterTheElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
            let res = scheduler.start { xs.do(afterNext: { if $0 == 2 { throw TestError() } }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(220, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDo_throwingOnCompletedBecomesError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
            let res = scheduler.start { xs.do(onCompleted: { throw TestError() }) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
        }
    }

    func testDo_throwingOnErrorReplacesTheError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let res = scheduler.start { xs.do(onError: { _ in throw OtherError() }) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, OtherError())])
        }
    }

    func testDo_throwingAfterTerminalHandlersIsIgnored() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
            let ys = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            var disposed = 0
            let res1 = scheduler.createObserver(Int.self)
            let res2 = scheduler.createObserver(Int.self)
            let d1 = xs.do(afterCompleted: { throw OtherError() }, onDispose: { disposed += 1 }).subscribe(res1)
            let d2 = ys.do(afterError: { _ in throw OtherError() }, onDispose: { disposed += 1 }).subscribe(res2)
            scheduler.start()
            XCTAssertEqual(res1.events, [.next(210, 1), .completed(250)])
            XCTAssertEqual(res2.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(disposed, 2)
            d1.dispose()
            d2.dispose()
            XCTAssertEqual(disposed, 2)
        }
    }

    func testDo_onSubscribeRunsPerSubscription() {
        XCTAssertNoLeaks {
            var subscribes = 0
            var disposes = 0
            let observed = Observable<Int>.never().do(onSubscribe: { subscribes += 1 }, onDispose: { disposes += 1 })
            let a = observed.subscribe()
            let b = observed.subscribe()
            XCTAssertEqual(subscribes, 2)
            a.dispose()
            a.dispose()
            XCTAssertEqual(disposes, 1)
            b.dispose()
            XCTAssertEqual(disposes, 2)
        }
    }

    func testDo_reentrantEmissionFromHandler() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var log: [String] = []
            let subscription =
                subject
                .do(
                    onNext: { value in
                        log.append("on \(value)")
                        if value == 1 { subject.onNext(2) }
                    }, afterNext: { log.append("after \($0)") }
                )
                .subscribe(onNext: { log.append("next \($0)") })
            subject.onNext(1)
            XCTAssertEqual(log, ["on 1", "on 2", "next 2", "after 2", "next 1", "after 1"])
            subscription.dispose()
        }
    }

    /// Completion on one thread races disposal on another: `onDispose` runs exactly once, and
    /// after `afterCompleted` whenever the completion reached the observer.
    func testDo_onDisposeRunsOnceUnderConcurrentDisposal() {
        XCTAssertNoLeaks {
            for _ in 0..<500 {
                let subject = PublishSubject<Int>()
                let log = LockedState([String]())
                let subscription = subject.do(
                    afterCompleted: { log.withLock { $0.append("afterCompleted") } },
                    onDispose: { log.withLock { $0.append("onDispose") } }
                ).subscribe(onCompleted: { log.withLock { $0.append("completed") } })
                let cancel = DisposeOnce(subscription)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { subject.onCompleted() } else { cancel.dispose() }
                }
                let entries = log.withLock { $0 }
                XCTAssertEqual(entries.filter { $0 == "onDispose" }.count, 1)
                if entries.contains("completed") {
                    XCTAssertEqual(entries, ["completed", "afterCompleted", "onDispose"])
                }
            }
        }
    }
}

/// Hands a disposable to another thread.
private struct DisposeOnce: @unchecked Sendable {
    // Safety: Streams' disposables are thread-safe; disposing from any thread is what is tested.
    let disposable: Disposable
    init(_ disposable: Disposable) { self.disposable = disposable }
    func dispose() { disposable.dispose() }
}
