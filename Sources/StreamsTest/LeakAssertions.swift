import XCTest
import Streams

/// Runs `body` and fails the test if `Resources.total` is not back to its starting value afterwards.
///
/// Everything `body` creates (schedulers, subjects, subscriptions) must be released when it
/// returns, so keep them local to the closure.
public func XCTAssertNoLeaks(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    let baseline = Resources.total
    try body()
    let leaked = Resources.total - baseline
    if leaked != 0 {
        XCTFail("Resources.total changed by \(leaked) (from \(baseline) to \(Resources.total)). \(message())", file: file, line: line)
    }
}
