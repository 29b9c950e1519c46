import XCTest
import Streams

// RxTest's `XCTAssertEqual` family: each overload compares two lists element by element (errors
// by type and description, see `Event`'s `==`) and on failure reports at the caller's
// `file`/`line` with the differences, aligned so that one extra or missing event is one line:
//
//     XCTAssertEqual failed: ("[next(1) @ 210, next(9) @ 215, next(2) @ 220]") is not equal to ("[next(1) @ 210, next(2) @ 220]")
//     Differences (lhs has 3 elements, rhs has 2 elements):
//       lhs[1]: next(9) @ 215 (only in lhs)
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
/// XCTest's words, then the differences, aligned so that one inserted or missing element shows
/// as one difference (`lhs[3]: … (only in lhs)`) rather than shifting every later pair. Elements
/// both lists share in order (their longest common subsequence) are not listed; between two
/// shared runs, differing elements are paired (`lhs[1]: …` / `rhs[1]: …`) and the rest are
/// marked as only in one list.
func listMismatch<Element>(
    _ lhs: [Element],
    _ rhs: [Element],
    by equal: (Element, Element) -> Bool,
    message: String = ""
) -> String? {
    let differences = alignedDifferences(lhs, rhs, by: equal)
    if differences.isEmpty { return nil }

    var lines = ["XCTAssertEqual failed: (\"\(lhs)\") is not equal to (\"\(rhs)\")" + messageSuffix(message)]
    lines.append(
        lhs.count == rhs.count
            ? "Differences:"
            : "Differences (lhs has \(count(lhs.count)), rhs has \(count(rhs.count))):")
    for difference in differences {
        switch difference {
        case .changed(let left, let right):
            lines.append("  lhs[\(left)]: \(lhs[left])")
            lines.append("  rhs[\(right)]: \(rhs[right])")
        case .onlyInLhs(let left): lines.append("  lhs[\(left)]: \(lhs[left]) (only in lhs)")
        case .onlyInRhs(let right): lines.append("  rhs[\(right)]: \(rhs[right]) (only in rhs)")
        }
    }
    return lines.joined(separator: "\n")
}

/// One difference between two lists, by index.
enum ListDifference: Equatable {
    case changed(Int, Int)
    case onlyInLhs(Int)
    case onlyInRhs(Int)
}

/// The differences between `lhs` and `rhs`, in order, empty when they are equal.
///
/// The common prefix and suffix are skipped; the middle is aligned on a longest common
/// subsequence (quadratic, so above `alignmentLimit` cells the middle is compared index by index,
/// as a plain element-by-element comparison does).
func alignedDifferences<Element>(_ lhs: [Element], _ rhs: [Element], by equal: (Element, Element) -> Bool) -> [ListDifference] {
    var start = 0
    while start < lhs.count, start < rhs.count, equal(lhs[start], rhs[start]) { start += 1 }
    var lhsEnd = lhs.count, rhsEnd = rhs.count
    while lhsEnd > start, rhsEnd > start, equal(lhs[lhsEnd - 1], rhs[rhsEnd - 1]) {
        lhsEnd -= 1
        rhsEnd -= 1
    }
    let rows = lhsEnd - start, columns = rhsEnd - start
    if rows == 0 && columns == 0 { return [] }
    let (cells, overflow) = (rows + 1).multipliedReportingOverflow(by: columns + 1)
    if overflow || cells > alignmentLimit {
        return (0..<max(rows, columns)).compactMap { offset in
            let index = start + offset
            switch (offset < rows, offset < columns) {
            case (true, true): return equal(lhs[index], rhs[index]) ? nil : .changed(index, index)
            case (true, false): return .onlyInLhs(index)
            default: return .onlyInRhs(index)
            }
        }
    }
    // common[i * (columns + 1) + j]: the length of the longest common subsequence of the
    // middle's lhs[i...] and rhs[j...].
    var common = [Int](repeating: 0, count: cells)
    for i in stride(from: rows - 1, through: 0, by: -1) {
        for j in stride(from: columns - 1, through: 0, by: -1) {
            common[i * (columns + 1) + j] =
                equal(lhs[start + i], rhs[start + j])
                ? common[(i + 1) * (columns + 1) + j + 1] + 1
                : max(common[(i + 1) * (columns + 1) + j], common[i * (columns + 1) + j + 1])
        }
    }
    var differences: [ListDifference] = []
    var removed: [Int] = [], inserted: [Int] = []
    func flush() {
        let paired = min(removed.count, inserted.count)
        for k in 0..<paired { differences.append(.changed(removed[k], inserted[k])) }
        differences += removed.dropFirst(paired).map { .onlyInLhs($0) }
        differences += inserted.dropFirst(paired).map { .onlyInRhs($0) }
        removed.removeAll()
        inserted.removeAll()
    }
    var i = 0, j = 0
    while i < rows || j < columns {
        if i < rows, j < columns, equal(lhs[start + i], rhs[start + j]),
            common[i * (columns + 1) + j] == common[(i + 1) * (columns + 1) + j + 1] + 1
        {
            flush()
            i += 1
            j += 1
        } else if j == columns || (i < rows && common[(i + 1) * (columns + 1) + j] >= common[i * (columns + 1) + j + 1]) {
            removed.append(start + i)
            i += 1
        } else {
            inserted.append(start + j)
            j += 1
        }
    }
    flush()
    return differences
}

/// The most cells (`(lhs.count + 1) * (rhs.count + 1)` after the common prefix and suffix) the
/// alignment of `alignedDifferences` computes; longer lists are compared index by index.
let alignmentLimit = 4_000_000

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
