import StreamsDemos
import XCTest

/// The embedded demos run to completion (they print their timelines; nothing to assert beyond
/// finishing without a trap). Replaced by real option and backend tests as the demos grow.
final class DemoRunTests: XCTestCase {
    func testItemListDemo_runsToCompletion() {
        runItemListDemo()
    }
}
