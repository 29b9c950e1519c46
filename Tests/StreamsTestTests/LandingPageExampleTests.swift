import StreamsTest
import XCTest

/// The example on StreamsTest's documentation landing page (`StreamsTest.docc/StreamsTest.md`),
/// kept here verbatim so that the page cannot show code that does not compile or pass.
final class LandingPageExampleTests: XCTestCase {
    func testMap_values() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createHotObservable("-x-^-a--|", values: ["x": 1, "a": 2])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertMarbles(res, "--A--|", values: ["A": 20])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}
