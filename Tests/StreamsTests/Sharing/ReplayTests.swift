import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

final class ReplayTests: XCTestCase {
    /// Cold source: relative to the connection at 400 it emits at 410 ... 480.
    private func makeSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createColdObservable([
            .next(10, 1), .next(20, 2), .next(30, 3), .next(40, 4), .next(50, 5),
            .next(60, 6), .next(70, 7), .next(80, 8), terminal,
        ])
    }

    private func run(_ make: @escaping (Observable<Int>) -> ConnectableObservable<Int>, terminal: Recorded<Event<Int>>, unsubscribeAt: TestTime = 1000) -> (
        TestableObserver<Int>, TestableObservable<Int>
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = makeSource(scheduler, terminal: terminal)
        var ys: ConnectableObservable<Int>?
        var subscription: Disposable?
        var connection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = make(xs.asObservable()) }
        scheduler.scheduleAt(455) { subscription = ys?.subscribe(res) }
        scheduler.scheduleAt(unsubscribeAt) { subscription?.dispose() }
        scheduler.scheduleAt(400) { connection = ys?.connect() }
        scheduler.scheduleAt(520) { connection?.dispose() }
        scheduler.scheduleAt(650) { connection = ys?.connect() }
        scheduler.scheduleAt(700) {
            connection?.dispose(); ys = nil
        }
        scheduler.start()
        return (res, xs)
    }

    func testReplay_replaysLastElementsThenLive() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replay(3) }, terminal: .completed(200))
            XCTAssertEqual(res.events, [.next(455, 3), .next(455, 4), .next(455, 5), .next(460, 6), .next(470, 7), .next(480, 8)])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 520), Subscription(650, 700)])
        }
    }

    func testReplay_one() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replay(1) }, terminal: .completed(200))
            XCTAssertEqual(res.events, [.next(455, 5), .next(460, 6), .next(470, 7), .next(480, 8)])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 520), Subscription(650, 700)])
        }
    }

    func testReplay_zeroBehavesLikePublish() {
        XCTAssertNoLeaks {
            let (res, _) = run({ $0.replay(0) }, terminal: .completed(200))
            XCTAssertEqual(res.events, [.next(460, 6), .next(470, 7), .next(480, 8)])
        }
    }

    func testReplay_completed() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replay(3) }, terminal: .completed(90))
            XCTAssertEqual(res.events, [.next(455, 3), .next(455, 4), .next(455, 5), .next(460, 6), .next(470, 7), .next(480, 8), .completed(490)])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
        }
    }

    func testReplay_error() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replay(2) }, terminal: .error(90, TestError()))
            XCTAssertEqual(res.events, [.next(455, 4), .next(455, 5), .next(460, 6), .next(470, 7), .next(480, 8), .error(490, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
        }
    }

    func testReplay_disposeMidStream() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replay(3) }, terminal: .completed(200), unsubscribeAt: 465)
            XCTAssertEqual(res.events, [.next(455, 3), .next(455, 4), .next(455, 5), .next(460, 6)])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 520), Subscription(650, 700)])
        }
    }

    func testReplayAll_replaysEverything() {
        XCTAssertNoLeaks {
            let (res, xs) = run({ $0.replayAll() }, terminal: .completed(90))
            XCTAssertEqual(
                res.events,
                [
                    .next(455, 1), .next(455, 2), .next(455, 3), .next(455, 4), .next(455, 5),
                    .next(460, 6), .next(470, 7), .next(480, 8), .completed(490),
                ])
            XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
        }
    }

    /// After the connection ends, the buffer goes with its subject: a later observer gets no stale replay.
    func testReplay_disconnectDropsBuffer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(320, 3), .completed(400)])
            var ys: ConnectableObservable<Int>?
            var connection: Disposable?
            var s1: Disposable?, s2: Disposable?
            let before = scheduler.createObserver(Int.self)
            let after = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.replay(2) }
            scheduler.scheduleAt(200) { connection = ys?.connect() }
            scheduler.scheduleAt(250) { s1 = ys?.subscribe(before) }
            scheduler.scheduleAt(260) { connection?.dispose() }
            scheduler.scheduleAt(280) { s2 = ys?.subscribe(after) }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); s2?.dispose(); connection?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(before.events, [.next(250, 1), .next(250, 2)])
            XCTAssertEqual(after.events, [.next(320, 3), .completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260), Subscription(300, 400)])
        }
    }

    /// After the source terminates, the next observer gets a fresh subject (no replay, no terminal)
    /// until the next connection.
    func testReplay_observerAfterTerminationWaitsForNextConnection() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            var ys: ConnectableObservable<Int>?
            var connection: Disposable?
            var s1: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.replay(1) }
            scheduler.scheduleAt(200) { connection = ys?.connect() }
            scheduler.scheduleAt(250) { s1 = ys?.subscribe(res) }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(1000) {
                s1?.dispose(); connection?.dispose(); ys = nil
            }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(310, 1), .next(320, 2), .completed(330)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(300, 330)])
        }
    }

    func testReplay_reentrantSubscribeDuringDelivery() {
        XCTAssertNoLeaks {
            let replayed = Observable<Int>.create { observer in
                for value in 1...4 { observer.onNext(value) }
                observer.onCompleted()
                return Disposables.create()
            }.replay(2)
            var outer: [Event<Int>] = []
            var inner: [Event<Int>] = []
            var innerSubscription: Disposable?
            let outerSubscription = replayed.subscribe { event in
                outer.append(event)
                if case .next(3) = event { innerSubscription = replayed.subscribe { inner.append($0) } }
            }
            _ = replayed.connect()
            XCTAssertEqual(outer, [.next(1), .next(2), .next(3), .next(4), .completed])
            XCTAssertEqual(inner, [.next(2), .next(3), .next(4), .completed])
            innerSubscription?.dispose()
            outerSubscription.dispose()
        }
    }
}
