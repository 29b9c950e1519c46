import XCTest
import Streams

/// Asserts that two lists of `SingleEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>],
    _ rhs: [SingleEvent<Element>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let equal = lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { singleEventsEqual($0, $1) }
    if !equal {
        XCTFail("\(lhs) is not equal to \(rhs). \(message())", file: file, line: line)
    }
}

/// Asserts that two lists of `MaybeEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [MaybeEvent<Element>],
    _ rhs: [MaybeEvent<Element>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if lhs != rhs {
        XCTFail("\(lhs) is not equal to \(rhs). \(message())", file: file, line: line)
    }
}

/// Asserts that two lists of `CompletableEvent`s are equal (errors compare by type and description).
public func XCTAssertEqual(
    _ lhs: [CompletableEvent],
    _ rhs: [CompletableEvent],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if lhs != rhs {
        XCTFail("\(lhs) is not equal to \(rhs). \(message())", file: file, line: line)
    }
}

private func singleEventsEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let l), .success(let r)): return l == r
    case (.failure(let l), .failure(let r)):
        return type(of: l) == type(of: r) && String(reflecting: l) == String(reflecting: r)
    default: return false
    }
}
