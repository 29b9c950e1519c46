import XCTest
import StreamsTest
import Streams

/// The FuzzMarbles finding of 2026-12-02 (CI): its events, drawn, read back with the same
/// times and kinds, and the same values except invented characters for non-ASCII ones.
final class MarbleDrawingFuzzFindingTests: XCTestCase {
    func testCombiningMarkAfterValue_readsBack() throws {
        let text = "{â\u{0B}\u{035A}\u{01}x\u{FFFD}\u{FFFD}Int\u{FFFD}\u{FFFD}S"
        let events = try Marbles.parse(text).recordedEvents(frameSize: 10, origin: 200) as [Recorded<Event<String>>]
        let drawn = try Marbles.string(from: events, frameSize: 10, origin: 200)
        let redrawn = try? Marbles.parse(drawn).recordedEvents(values: [Character: String](), frameSize: 10, origin: 200)
        func sameShape(_ lhs: Recorded<Event<String>>, _ rhs: Recorded<Event<String>>) -> Bool {
            guard lhs.time == rhs.time else { return false }
            switch (lhs.value, rhs.value) {
            case let (.next(drawn), .next(original)): return drawn == original || !original.allSatisfy(\.isASCII)
            case (.completed, .completed): return true
            case let (.error(a), .error(b)): return "\(a)" == "\(b)"
            default: return false
            }
        }
        let readsBack = redrawn.map { $0.count == events.count && zip($0, events).allSatisfy(sameShape) } ?? false
        XCTAssertTrue(readsBack)
    }
}
