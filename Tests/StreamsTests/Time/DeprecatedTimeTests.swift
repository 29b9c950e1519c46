import Streams
import StreamsTest
import XCTest

/// The deprecated RxSwift 5 spellings behave exactly as their RxSwift 6 names.
final class DeprecatedTimeTests: XCTestCase {
    private func record(_ make: @escaping (TestScheduler, TestableObservable<Int>) -> Observable<Int>) -> ([Recorded<Event<Int>>], [Subscription]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { make(scheduler, xs) }
        return (res.events, xs.subscriptions)
    }

    @available(*, deprecated)
    func testObserveOn_forwardsToObserveOn() {
        XCTAssertNoLeaks {
            let old = record { scheduler, xs in xs.observeOn(scheduler) }
            let new = record { scheduler, xs in xs.observe(on: scheduler) }
            XCTAssertEqual(old.0, new.0)
            XCTAssertEqual(old.1, new.1)
            XCTAssertFalse(old.0.isEmpty)
        }
    }

    @available(*, deprecated)
    func testSubscribeOn_forwardsToSubscribeOn() {
        XCTAssertNoLeaks {
            let old = record { scheduler, xs in xs.subscribeOn(scheduler) }
            let new = record { scheduler, xs in xs.subscribe(on: scheduler) }
            XCTAssertEqual(old.0, new.0)
            XCTAssertEqual(old.1, new.1)
            XCTAssertFalse(old.0.isEmpty)
        }
    }
}
