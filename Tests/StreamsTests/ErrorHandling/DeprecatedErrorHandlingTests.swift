import Streams
import StreamsTest
import XCTest

private struct DeprecatedError: Error, Equatable {}

/// The deprecated RxSwift 5 spellings forward to their RxSwift 6 names.
final class DeprecatedErrorHandlingTests: XCTestCase {
    @available(*, deprecated)
    func testCatchErrorSequence_forwardsToCatchSequence() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable([.next(10, 1), .error(20, DeprecatedError())])
            let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let res = scheduler.start { Observable.catchError([first.asObservable(), second.asObservable()]) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
            XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(second.subscriptions, [Subscription(220, 240)])
        }
    }

    @available(*, deprecated)
    func testCatchError_forwardsToCatch() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable<Int>.error(DeprecatedError()).catchError { _ in .just(5) }.subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(5), .completed])
        }
    }

    @available(*, deprecated)
    func testCatchErrorJustReturn_forwardsToCatchAndReturn() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable<Int>.error(DeprecatedError()).catchErrorJustReturn(6).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(6), .completed])
        }
    }
}
