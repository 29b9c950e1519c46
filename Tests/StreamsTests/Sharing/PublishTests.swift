import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

final class PublishTests: XCTestCase {
    private func makeSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>? = nil) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [
            .next(150, 0), .next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4),
            .next(310, 5), .next(330, 6), .next(410, 7), .next(430, 8), .next(450, 9), .next(510, 10),
        ]
        if let terminal {
            events.append(terminal)
            events.sort { $0.time < $1.time }
        }
        return scheduler.createHotObservable(events)
    }

    func testPublish_subscribersReceiveNothingUntilConnect() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler)
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) { subscription = ys?.subscribe(res) }
            scheduler.scheduleAt(240) { connection = ys?.connect() }
            scheduler.scheduleAt(320) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                subscription?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(250, 3), .next(270, 4), .next(310, 5)])
            XCTAssertEqual(xs.subscriptions, [Subscription(240, 320)])
        }
    }

    /// Each connection has its own subject: an observer of the first connection's subject sees
    /// nothing from the second one; observers that subscribe after the disconnect do.
    func testPublish_newConnectionUsesFreshSubject() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler)
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var connection: Disposable?
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) { s1 = ys?.subscribe(first) }
            scheduler.scheduleAt(220) { connection = ys?.connect() }
            scheduler.scheduleAt(300) { connection?.dispose() }
            scheduler.scheduleAt(350) { s2 = ys?.subscribe(second) }
            scheduler.scheduleAt(400) { connection = ys?.connect() }
            scheduler.scheduleAt(500) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(230, 2), .next(250, 3), .next(270, 4)])
            XCTAssertEqual(second.events, [.next(410, 7), .next(430, 8), .next(450, 9)])
            XCTAssertEqual(xs.subscriptions, [Subscription(220, 300), Subscription(400, 500)])
        }
    }

    func testPublish_connectWhileConnectedReturnsTheSameConnection() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler)
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var c1: Disposable?, c2: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) { subscription = ys?.subscribe(res) }
            scheduler.scheduleAt(220) { c1 = ys?.connect() }
            scheduler.scheduleAt(240) { c2 = ys?.connect() }
            scheduler.scheduleAt(260) { c2?.dispose() }
            scheduler.scheduleAt(280) { c1?.dispose() }
            scheduler.scheduleAt(1000) {
                subscription?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(230, 2), .next(250, 3)])
            XCTAssertEqual(xs.subscriptions, [Subscription(220, 260)])
        }
    }

    func testPublish_completedEndsConnection() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler, terminal: .completed(300))
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) { s1 = ys?.subscribe(res) }
            scheduler.scheduleAt(220) { connection = ys?.connect() }
            scheduler.scheduleAt(350) {
                XCTAssertEqual((connection as? Cancelable)?.isDisposed, true)
                s2 = ys?.subscribe(late)
            }
            scheduler.scheduleAt(400) { connection = ys?.connect() }
            scheduler.scheduleAt(440) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(230, 2), .next(250, 3), .next(270, 4), .completed(300)])
            XCTAssertEqual(late.events, [.next(410, 7), .next(430, 8)])
            XCTAssertEqual(xs.subscriptions, [Subscription(220, 300), Subscription(400, 440)])
        }
    }

    func testPublish_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler, terminal: .error(260, TestError()))
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) {
                subscription = ys?.subscribe(res); connection = ys?.connect()
            }
            scheduler.scheduleAt(1000) {
                subscription?.dispose(); connection?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 3), .error(260, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        }
    }

    func testPublish_empty() {
        XCTAssertNoLeaks {
            let published = Observable<Int>.empty().publish()
            var events: [Event<Int>] = []
            let subscription = published.subscribe { events.append($0) }
            let connection = published.connect()
            XCTAssertEqual(events, [.completed])
            XCTAssertEqual((connection as? Cancelable)?.isDisposed, true)
            subscription.dispose()
        }
    }

    func testPublish_never() {
        XCTAssertNoLeaks {
            var disposed = false
            let published = Observable<Int>.create { _ in Disposables.create { disposed = true } }.publish()
            var events: [Event<Int>] = []
            let subscription = published.subscribe { events.append($0) }
            let connection = published.connect()
            XCTAssertEqual(events, [])
            XCTAssertFalse(disposed)
            connection.dispose()
            XCTAssertTrue(disposed)
            subscription.dispose()
        }
    }

    func testPublish_synchronousSourceDeliversDuringConnect() {
        XCTAssertNoLeaks {
            let published = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                observer.onCompleted()
                return Disposables.create()
            }.publish()
            var a: [Event<Int>] = []
            var b: [Event<Int>] = []
            let sa = published.subscribe { a.append($0) }
            let sb = published.subscribe { b.append($0) }
            XCTAssertEqual(a, [])
            _ = published.connect()
            XCTAssertEqual(a, [.next(1), .next(2), .completed])
            XCTAssertEqual(b, [.next(1), .next(2), .completed])
            sa.dispose()
            sb.dispose()
        }
    }

    func testPublish_disposeSubscriptionMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler)
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) {
                subscription = ys?.subscribe(res); connection = ys?.connect()
            }
            scheduler.scheduleAt(240) { subscription?.dispose() }
            scheduler.scheduleAt(300) {
                connection?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    /// An observer that, on completion, subscribes again and reconnects gets the next connection.
    func testPublish_reconnectFromCompletionHandler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler, terminal: .completed(300))
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var c1: Disposable?, c2: Disposable?
            let res = scheduler.createObserver(Int.self)
            let again = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) {
                s1 = ys?.subscribe { event in
                    res.on(event)
                    if event.isCompleted {
                        s2 = ys?.subscribe(again)
                        c2 = ys?.connect()
                    }
                }
                c1 = ys?.connect()
            }
            scheduler.scheduleAt(420) { c2?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); c1?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4), .completed(300)])
            XCTAssertEqual(again.events, [.next(310, 5), .next(330, 6), .next(410, 7)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300), Subscription(300, 420)])
        }
    }

    func testPublish_reentrantSubscribeDuringDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = makeSource(scheduler)
            var ys: ConnectableObservable<Int>?
            var s1: Disposable?, s2: Disposable?
            var connection: Disposable?
            let outer = scheduler.createObserver(Int.self)
            let inner = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.publish() }
            scheduler.scheduleAt(200) {
                s1 = ys?.subscribe { event in
                    outer.on(event)
                    if case .next(2) = event { s2 = ys?.subscribe(inner) }
                }
                connection = ys?.connect()
            }
            scheduler.scheduleAt(260) { connection?.dispose() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(outer.events, [.next(210, 1), .next(230, 2), .next(250, 3)])
            XCTAssertEqual(inner.events, [.next(250, 3)])
        }
    }
}
