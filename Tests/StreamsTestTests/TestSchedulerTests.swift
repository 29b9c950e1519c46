import XCTest
import Streams
import StreamsTest

final class TestSchedulerTests: XCTestCase {
    func testScheduleAt_sameTimeRunsInSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var order: [Int] = []
        scheduler.scheduleAt(10) { order.append(1) }
        scheduler.scheduleAt(5) { order.append(0) }
        scheduler.scheduleAt(10) { order.append(2) }
        scheduler.start()
        XCTAssertEqual(order, [0, 1, 2])
        XCTAssertEqual(scheduler.clock, 10)
    }
}
