import Foundation
import Streams
import StreamsDiagrams
@testable import StreamsTest
import XCTest

/// The Testing article's two `XCTAssertEqual` failure messages
/// (Sources/StreamsTest/StreamsTest.docc/Testing.md, section on the `XCTAssertEqual` overloads),
/// compared line by line with what the overloads report (`listMismatch`) for the lists they show.
final class TestingArticleDifferencesTests: XCTestCase {
    private func block(_ anchor: String) throws -> [String] {
        try Article("Sources/StreamsTest/StreamsTest.docc/Testing.md", testFile: #filePath).codeBlock(containing: anchor)
    }

    /// A changed element and one only in rhs.
    func testChangedAndMissingEvent() throws {
        let lhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 30)]
        let rhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 31), .completed(300)]
        let message = try XCTUnwrap(listMismatch(lhs, rhs, by: { $0 == $1 }))
        XCTAssertEqual(try block("Differences (lhs has 2 elements, rhs has 3 elements):"), message.components(separatedBy: "\n"))
    }

    /// One extra event in lhs: one line, the later events aligned.
    func testExtraEvent() throws {
        let lhs: [Recorded<Event<Int>>] = [.next(210, 1), .next(215, 9), .next(220, 2), .completed(300)]
        let rhs: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(300)]
        let message = try XCTUnwrap(listMismatch(lhs, rhs, by: { $0 == $1 }))
        XCTAssertEqual(try block("Differences (lhs has 4 elements, rhs has 3 elements):"), message.components(separatedBy: "\n"))
    }
}
