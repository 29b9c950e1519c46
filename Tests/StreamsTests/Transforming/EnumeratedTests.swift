import Streams
import StreamsTest
import XCTest

final class EnumeratedTests: XCTestCase {
    private func flatten(_ events: [Recorded<Event<(index: Int, element: String)>>]) -> [Recorded<Event<String>>] {
        events.map { Recorded(time: $0.time, value: $0.value.map { "\($0.index):\($0.element)" }) }
    }

    func testEnumerated_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300)])
            let res = scheduler.start { xs.enumerated() }
            XCTAssertEqual(flatten(res.events), [.next(210, "0:a"), .next(220, "1:b"), .next(230, "2:c"), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testEnumerated_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, String.self)])
            let res = scheduler.start { xs.enumerated() }
            XCTAssertEqual(flatten(res.events), [.completed(250)])
        }
    }

    func testEnumerated_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, "z")])
            let res = scheduler.start { xs.enumerated() }
            XCTAssertEqual(flatten(res.events), [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testEnumerated_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a"), .error(250, TransformTestError(), String.self)])
            let res = scheduler.start { xs.enumerated() }
            XCTAssertEqual(flatten(res.events), [.next(210, "0:a"), .error(250, TransformTestError())])
        }
    }

    func testEnumerated_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a"), .next(260, "b"), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.enumerated() }
            XCTAssertEqual(flatten(res.events), [.next(210, "0:a")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testEnumerated_indicesRestartPerSubscription() {
        XCTAssertNoLeaks {
            let source = Observable.of("a", "b").enumerated().map { "\($0.index)\($0.element)" }
            let first = collectEvents(source)
            let second = collectEvents(source)
            first.subscription.dispose()
            second.subscription.dispose()
            XCTAssertEqual(first.events, [.next("0a"), .next("1b"), .completed])
            XCTAssertEqual(second.events, first.events)
        }
    }
}
