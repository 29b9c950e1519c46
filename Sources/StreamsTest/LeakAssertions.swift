import XCTest
import Streams

/// Runs `body` and fails the test if it left resources alive: if the live count of any type
/// (`Resources.liveCounts`) is higher afterwards than before. The failure lists the types whose
/// count changed:
///
///     Resources.total changed by 1 (from 3 to 4). Live resources by type (after - before):
///       PublishSubject<Int>: +1
///
/// Counts that only dropped are not a failure: resources created before the assertion (by an
/// earlier test on real schedulers whose threads release them a moment late) may go while
/// `body` runs, and that says nothing about `body`.
///
/// Everything `body` creates (schedulers, subjects, subscriptions) must be released when it
/// returns, so keep them local to the closure. Only meaningful when tests run one at a time
/// (XCTest's default); do not use it from Swift Testing tests, which run in parallel.
public func XCTAssertNoLeaks(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    let baseline = Resources.total
    let baselineCounts = Resources.liveCounts
    try body()
    if let failure = leakFailure(from: baseline, baselineCounts, to: Resources.total, Resources.liveCounts) {
        XCTFail(failure + messageLine(message()) + leakHint, file: file, line: line)
    }
}

/// Runs `body` (a test on real schedulers), then waits until no type has more live resources
/// than before (as `XCTAssertNoLeaks` checks), failing if that does not happen within
/// `timeout` seconds.
///
/// Dispatch sources release their handlers (and so the sinks they hold) asynchronously after
/// being cancelled, so after disposal the count settles shortly rather than at once. While
/// waiting, the current run loop is drained, so work queued on the main queue can finish.
public func XCTAssertNoLeaksEventually(
    timeout: TimeInterval = 10,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    let baseline = Resources.total
    let baselineCounts = Resources.liveCounts
    try body()
    let deadline = Date().addingTimeInterval(timeout)
    while leakFailure(from: baseline, baselineCounts, to: Resources.total, Resources.liveCounts) != nil && Date() < deadline {
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    if let failure = leakFailure(from: baseline, baselineCounts, to: Resources.total, Resources.liveCounts, after: timeout) {
        XCTFail(failure + messageLine(message()) + leakHint, file: file, line: line)
    }
}

/// The failure message of `XCTAssertNoLeaks` (`nil` when no type's live count grew, nor the
/// total): the change of `Resources.total`, then every type whose live count changed, largest
/// growth first. `timeout` is the wait of `XCTAssertNoLeaksEventually`, if any.
func leakFailure(
    from totalBefore: Int, _ countsBefore: [String: Int],
    to totalAfter: Int, _ countsAfter: [String: Int],
    after timeout: TimeInterval? = nil
) -> String? {
    let grew = countsAfter.contains { $0.value > countsBefore[$0.key, default: 0] }
    guard grew || totalAfter > totalBefore else { return nil }
    let change = totalAfter - totalBefore
    let still = timeout == nil ? "" : " still"
    let wait = timeout.map { " after \($0) s" } ?? ""
    var lines = ["Resources.total\(still) changed by \(change)\(wait) (from \(totalBefore) to \(totalAfter))."]
    let deltas = Set(countsBefore.keys).union(countsAfter.keys)
        .map { (name: $0, delta: countsAfter[$0, default: 0] - countsBefore[$0, default: 0]) }
        .filter { $0.delta != 0 }
        .sorted { $0.delta != $1.delta ? $0.delta > $1.delta : $0.name < $1.name }
    if !deltas.isEmpty {
        lines[0] += " Live resources by type (after - before):"
        lines += deltas.map { "  \($0.name): \($0.delta > 0 ? "+" : "")\($0.delta)" }
    }
    return lines.joined(separator: "\n")
}

/// What usually keeps resources alive, after a leak check's failure message.
let leakHint =
    "\nWhat keeps them alive is usually a subscription neither disposed nor terminated (put it in a DisposeBag"
    + " released in the body), or work a virtual-time scheduler has yet to run that captures them (run it to"
    + " the end with start()); see the Testing article, Lifetimes and leak checks."

private func messageLine(_ message: String) -> String {
    message.isEmpty ? "" : "\n\(message)"
}

/// Fails the test if `scheduler` still has scheduled work that has neither run nor been cancelled.
///
/// Use it after `advanceTo(_:)` (or after disposing a chain) to check that disposal cancelled
/// every timer the chain scheduled. After `start()` the queue is always empty unless `stop()`
/// was called. Note that a hot test observable's events stay pending until their time comes.
///
///     scheduler.advanceTo(500)
///     subscription.dispose()
///     XCTAssertNoPendingWork(scheduler)
public func XCTAssertNoPendingWork<Converter>(
    _ scheduler: VirtualTimeScheduler<Converter>,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if let failure = pendingWorkFailure(scheduler) {
        XCTFail("\(failure) \(message())", file: file, line: line)
    }
}

/// The failure message of `XCTAssertNoPendingWork`, or `nil` when nothing is pending.
func pendingWorkFailure<Converter>(_ scheduler: VirtualTimeScheduler<Converter>) -> String? {
    let pending = scheduler.pendingCount
    guard pending != 0 else { return nil }
    return "\(type(of: scheduler)) has \(pending) pending work item\(pending == 1 ? "" : "s") at clock \(scheduler.clock)."
}
