import XCTest
import Streams
import StreamsTest

final class SwitchLatestTests: XCTestCase {
    func testSwitchLatest_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .next(60, 3), .completed(70)])
            let b = scheduler.createColdObservable([.next(10, 4), .completed(20)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(250, b), .completed(300)])
            let res = scheduler.start { xs.switchLatest() }
            XCTAssertEqual(res.events, [.next(220, 1), .next(240, 2), .next(260, 4), .completed(300)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 250)])
            XCTAssertEqual(b.subscriptions, [Subscription(250, 270)])
        }
    }

    func testSwitchLatest_subjects() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<PublishSubject<Int>>()
            let a = PublishSubject<Int>(), b = PublishSubject<Int>()
            var received: [Int] = []
            var completed = false
            let subscription = outer.switchLatest().subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
            outer.onNext(a)
            a.onNext(1)
            outer.onNext(b)
            a.onNext(2)
            b.onNext(3)
            outer.onCompleted()
            XCTAssertFalse(completed)
            b.onCompleted()
            XCTAssertEqual(received, [1, 3])
            XCTAssertTrue(completed)
            XCTAssertFalse(a.hasObservers)
            subscription.dispose()
        }
    }

    func testSwitchLatest_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Observable<Int>>.empty().switchLatest()).events, [.completed])
        }
    }

    func testSwitchLatest_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Observable<Int>>.never().switchLatest() }
            XCTAssertEqual(res.events, [])
        }
    }

    func testSwitchLatest_innerError() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.of(Observable.just(1), .error(TransformTestError())).switchLatest()).events
            XCTAssertEqual(events, [.next(1), .error(TransformTestError())])
        }
    }

    func testSwitchLatest_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
            let xs = scheduler.createHotObservable([.next(210, a)])
            let res = scheduler.start(disposed: 250) { xs.switchLatest() }
            XCTAssertEqual(res.events, [.next(220, 1)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
