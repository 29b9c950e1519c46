import XCTest
import Streams

// RxTest's `XCTAssertEqual` family: each overload compares two lists element by element (errors
// by type and description, see `Event`'s `==`) and on failure reports at the caller's
// `file`/`line` with every differing index, e.g.
//
//     XCTAssertEqual failed: ("[next(10) @ 210, next(30) @ 220]") is not equal to ("[next(10) @ 210, next(31) @ 220, completed @ 300]")
//     Differences (lhs has 2 elements, rhs has 3):
//       lhs[1]: next(30) @ 220
//       rhs[1]: next(31) @ 220
//       rhs[2]: completed @ 300 (only in rhs)
//
// The arguments are autoclosures, as XCTest's own `XCTAssertEqual`, so
// `XCTAssertEqual(res.events, try scheduler.parseEvents("--a--|"))` needs no `throws` on the test.

/// Asserts that two lists of recorded events are equal (same times, same events), listing the differences.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: @autoclosure () throws -> [Recorded<Event<Element>>],
    _ rhs: @autoclosure () throws -> [Recorded<Event<Element>>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line) { actual, expected in
        MarblePicture.reportFailure(
            expected: expected, actual: actual, titles: ("rhs (expected)", "lhs (actual)"),
            caption: "XCTAssertEqual at \(file):\(line)", file: file, line: line)
    }
}

/// Asserts that two lists of recorded events of optional elements are equal, listing the differences.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: @autoclosure () throws -> [Recorded<Event<Element?>>],
    _ rhs: @autoclosure () throws -> [Recorded<Event<Element?>>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line) { actual, expected in
        MarblePicture.reportFailure(
            expected: expected, actual: actual, titles: ("rhs (expected)", "lhs (actual)"),
            caption: "XCTAssertEqual at \(file):\(line)", file: file, line: line)
    }
}

/// Asserts that two lists of events are equal, listing the differences.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: @autoclosure () throws -> [Event<Element>],
    _ rhs: @autoclosure () throws -> [Event<Element>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line)
}

/// Asserts that two lists of `SingleEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: @autoclosure () throws -> [SingleEvent<Element>],
    _ rhs: @autoclosure () throws -> [SingleEvent<Element>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: singleEventsEqual, message, file: file, line: line)
}

/// Asserts that two lists of `MaybeEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: @autoclosure () throws -> [MaybeEvent<Element>],
    _ rhs: @autoclosure () throws -> [MaybeEvent<Element>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line)
}

/// Asserts that two lists of `CompletableEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual(
    _ lhs: @autoclosure () throws -> [CompletableEvent],
    _ rhs: @autoclosure () throws -> [CompletableEvent],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line)
}

/// Asserts that two lists of test-observable subscriptions are equal, listing the differences
/// (`(200: 300)`, `(200: Infinity)`).
public func XCTAssertEqual(
    _ lhs: @autoclosure () throws -> [Subscription],
    _ rhs: @autoclosure () throws -> [Subscription],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertListsEqual(lhs, rhs, by: { $0 == $1 }, message, file: file, line: line)
}

/// Evaluates both sides and fails at `file`/`line` with `listMismatch`'s message if they differ
/// (or with the error, if evaluating one throws, as XCTest does).
func assertListsEqual<Element>(
    _ lhs: () throws -> [Element],
    _ rhs: () throws -> [Element],
    by equal: (Element, Element) -> Bool,
    _ message: () -> String,
    file: StaticString,
    line: UInt,
    picture: ((_ lhs: [Element], _ rhs: [Element]) -> String?)? = nil
) {
    let left: [Element], right: [Element]
    do {
        left = try lhs()
        right = try rhs()
    } catch {
        XCTFail("XCTAssertEqual threw error \"\(error)\"" + messageSuffix(message()), file: file, line: line)
        return
    }
    if let mismatch = listMismatch(left, right, by: equal, message: message()) {
        let report = picture?(left, right).map { "\n" + $0 } ?? ""
        XCTFail(mismatch + report, file: file, line: line)
    }
}

/// The failure message for two lists that should be equal, or `nil` when they are: a header in
/// XCTest's words, then each index where they differ (`lhs[1]: …` / `rhs[1]: …`) and the
/// elements only one side has.
func listMismatch<Element>(
    _ lhs: [Element],
    _ rhs: [Element],
    by equal: (Element, Element) -> Bool,
    message: String = ""
) -> String? {
    let common = min(lhs.count, rhs.count)
    let differing = (0..<common).filter { !equal(lhs[$0], rhs[$0]) }
    if differing.isEmpty && lhs.count == rhs.count { return nil }

    var lines = ["XCTAssertEqual failed: (\"\(lhs)\") is not equal to (\"\(rhs)\")" + messageSuffix(message)]
    lines.append(
        lhs.count == rhs.count
            ? "Differences:"
            : "Differences (lhs has \(count(lhs.count)), rhs has \(count(rhs.count))):")
    for index in differing {
        lines.append("  lhs[\(index)]: \(lhs[index])")
        lines.append("  rhs[\(index)]: \(rhs[index])")
    }
    for index in common..<lhs.count { lines.append("  lhs[\(index)]: \(lhs[index]) (only in lhs)") }
    for index in common..<rhs.count { lines.append("  rhs[\(index)]: \(rhs[index]) (only in rhs)") }
    return lines.joined(separator: "\n")
}

private func count(_ n: Int) -> String { n == 1 ? "1 element" : "\(n) elements" }

private func messageSuffix(_ message: String) -> String { message.isEmpty ? "" : " - \(message)" }

/// `SingleEvent` is a `Result`, which is not `Equatable` (its failure is any `Error`).
func singleEventsEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let l), .success(let r)): return l == r
    case (.failure(let l), .failure(let r)): return errorsEqual(l, r)
    default: return false
    }
}
