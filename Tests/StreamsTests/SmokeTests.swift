import XCTest
import Streams
import StreamsTest

final class SmokeTests: XCTestCase {
    struct TestError: Error {}

    func testPublishSubject_deliversToSubscribers() {
        let subject = PublishSubject<Int>()
        var got: [Int] = []
        let d = subject.subscribe(onNext: { got.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        d.dispose()
        subject.onNext(3)
        XCTAssertEqual(got, [1, 2])
    }

    func testMap_hot() {
        let baseline = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(210, 20), .next(220, 30), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
        XCTAssertEqual(Resources.total, baseline)
    }

    func testMerge_cold() {
        let baseline = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, 1), .next(30, 3), .completed(40)])
            let b = scheduler.createColdObservable([.next(20, 2), .error(50, TestError())])
            let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .error(250, TestError())])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 240)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        }
        XCTAssertEqual(Resources.total, baseline)
    }

    func testJust_onScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
    }
}
