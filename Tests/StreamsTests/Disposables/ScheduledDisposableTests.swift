import XCTest
import Streams
import StreamsTest

final class ScheduledDisposableTests: XCTestCase {
    func testScheduledDisposable_disposesOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = CountingTestDisposable()
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: inner)
        XCTAssertTrue((scheduled.scheduler as? TestScheduler) === scheduler)
        scheduler.scheduleAt(100) {
            scheduled.dispose()
            scheduled.dispose()
            XCTAssertEqual(inner.disposeCount, 0)
            XCTAssertFalse(scheduled.isDisposed)
        }
        scheduler.scheduleAt(105) {
            XCTAssertEqual(inner.disposeCount, 1)
            XCTAssertTrue(scheduled.isDisposed)
        }
        scheduler.start()
        XCTAssertEqual(inner.disposeCount, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testScheduledDisposable_immediateScheduler() {
        let inner = CountingTestDisposable()
        let scheduled = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: inner)
        scheduled.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
        XCTAssertTrue(scheduled.isDisposed)
        scheduled.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
    }
}
