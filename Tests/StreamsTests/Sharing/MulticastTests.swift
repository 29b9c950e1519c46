import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

final class MulticastTests: XCTestCase {
    // MARK: - multicast(_ subject:)

    /// One subject for every connection: once the source has terminated, late observers get the
    /// terminal event at once, and a new connection cannot revive the subject.
    func testMulticast_subjectIsSharedByAllConnections() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230), .next(310, 3)])
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var connection: Disposable?
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.multicast(PublishSubject<Int>()) }
            scheduler.scheduleAt(200) {
                s1 = ys?.subscribe(early); connection = ys?.connect()
            }
            scheduler.scheduleAt(250) { s2 = ys?.subscribe(late) }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(400) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(late.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(300, 400)])
        }
    }

    /// With one subject, disconnecting and reconnecting keeps feeding the same observers.
    func testMulticast_subjectSurvivesDisconnect() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(310, 3), .next(360, 4)])
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.multicast(PublishSubject<Int>()) }
            scheduler.scheduleAt(200) {
                subscription = ys?.subscribe(res); connection = ys?.connect()
            }
            scheduler.scheduleAt(250) { connection?.dispose() }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(350) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                subscription?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(210, 1), .next(310, 3)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 350)])
        }
    }

    func testMulticast_behaviorSubjectSendsItsValueFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.multicast(BehaviorSubject(value: 0)) }
            scheduler.scheduleAt(200) {
                subscription = ys?.subscribe(res); _ = ys?.connect()
            }
            scheduler.scheduleAt(1000) {
                subscription?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(200, 0), .next(210, 1), .completed(220)])
        }
    }

    // MARK: - multicast(makeSubject:)

    func testMulticast_makeSubjectIsCalledLazilyOncePerConnection() {
        XCTAssertNoLeaks {
            var made = 0
            var disconnected = 0
            let source = Observable<Int>.create { _ in Disposables.create { disconnected += 1 } }
            let connectable = source.multicast(makeSubject: { () -> PublishSubject<Int> in
                made += 1
                return PublishSubject()
            })
            XCTAssertEqual(made, 0)
            let s1 = connectable.subscribe()
            let s2 = connectable.subscribe()
            XCTAssertEqual(made, 1)
            let c1 = connectable.connect()
            let c2 = connectable.connect()
            XCTAssertEqual(made, 1)
            c2.dispose()
            XCTAssertEqual(disconnected, 1)
            c1.dispose()
            XCTAssertEqual(disconnected, 1)
            let c3 = connectable.connect()
            XCTAssertEqual(made, 2)
            c3.dispose()
            XCTAssertEqual(disconnected, 2)
            s1.dispose()
            s2.dispose()
        }
    }

    func testMulticast_makeSubjectErrorGivesFreshSubjectToNextConnection() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError()), .next(310, 2), .next(410, 3)])
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var connection: Disposable?
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.multicast(makeSubject: { PublishSubjectFactory.make() }) }
            scheduler.scheduleAt(200) {
                s1 = ys?.subscribe(first); connection = ys?.connect()
            }
            scheduler.scheduleAt(250) { s2 = ys?.subscribe(second) }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(400) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(210, 1), .error(220, TestError())])
            XCTAssertEqual(second.events, [.next(310, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 400)])
        }
    }

    // MARK: - multicast(_:selector:)

    func testMulticastSelector_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(240, 2), .completed(300)])
            let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMulticastSelector_sourceSubscribedOnceForSeveralUses() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let res = scheduler.start {
                xs.multicast(
                    { PublishSubject<Int>() },
                    selector: { shared in
                        Observable.merge(shared, shared.map { $0 * 10 })
                    })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(210, 10), .next(240, 2), .next(240, 20), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testMulticastSelector_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(250, Int.self)])
            let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMulticastSelector_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testMulticastSelector_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMulticastSelector_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testMulticastSelector_subjectSelectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start {
                xs.multicast({ () throws -> PublishSubject<Int> in throw TestError() }, selector: { $0 })
            }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testMulticastSelector_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start {
                xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw TestError() })
            }
            XCTAssertEqual(res.events, [.error(200, TestError())])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testMulticastSelector_eachSubscriptionGetsItsOwnSubject() {
        XCTAssertNoLeaks {
            var runs = 0
            let source = Observable<Int>.create { observer in
                runs += 1
                observer.onNext(runs)
                observer.onCompleted()
                return Disposables.create()
            }
            let multicasted = source.multicast({ PublishSubject<Int>() }, selector: { $0.map { $0 * 10 } })
            var seen: [Event<Int>] = []
            _ = multicasted.subscribe { seen.append($0) }
            _ = multicasted.subscribe { seen.append($0) }
            XCTAssertEqual(seen, [.next(10), .completed, .next(20), .completed])
        }
    }
}

/// Makes a plain `PublishSubject` (keeps the closure type explicit in tests).
private enum PublishSubjectFactory {
    static func make() -> PublishSubject<Int> { PublishSubject() }
}
