import XCTest
import StreamsTest
import Streams

/// The FuzzMarbles finding of 2026-12-02 (CI): its events, drawn, read back with the same
/// times and kinds, and the same values except invented characters for non-ASCII ones.
final class MarbleDrawingFuzzFindingTests: XCTestCase {
    func testCombiningMarkAfterValue_readsBack() throws {
        let text = "{â\u{0B}\u{035A}\u{01}x\u{FFFD}\u{FFFD}Int\u{FFFD}\u{FFFD}S"
        let events: [Recorded<Event<String>>] = try Marbles.parse(text).recordedEvents(frameSize: 10, origin: 200)
        let drawn = try Marbles.string(from: events, frameSize: 10, origin: 200)
        XCTAssertEqual(drawn, "{AB\u{01}xCCIntCCS")
        let invented = ["â": "A", "\u{035A}": "B", "\u{FFFD}": "C"]
        let expected = events.map { recorded -> Recorded<Event<String>> in
            guard case .next(let value) = recorded.value else { return recorded }
            return .next(recorded.time, invented[value] ?? value)
        }
        let redrawn: [Recorded<Event<String>>] = try Marbles.parse(drawn).recordedEvents(values: [Character: String](), frameSize: 10, origin: 200)
        XCTAssertEqual(redrawn, expected)
    }
}
