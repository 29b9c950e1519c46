import XCTest

/// Asserts that `stream` holds exactly the `next` elements `elements`, ignoring times, and no
/// terminal event (as RxTest's `XCTAssertRecordedElements`); a mismatch lists the differing
/// elements as `XCTAssertEqual` does.
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>],
    _ elements: [Element],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("A terminal event was recorded: \(String(reflecting: stop))", file: file, line: line)
        return
    }
    let recorded = stream.compactMap { $0.value.element }
    if let mismatch = listMismatch(recorded, elements, by: { $0 == $1 }) {
        XCTFail(mismatch, file: file, line: line)
    }
}
