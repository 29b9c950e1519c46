import XCTest
import Foundation
import StreamsTest
@testable import Streams

/// Disposing a virtual time scheduler's work item: before it runs (cancelled, never runs) and
/// after (no lock taken: only the action's result is disposed, once). `throttle` and `debounce`
/// dispose every timer they replace after it fired.
final class VirtualWorkItemDisposeTests: XCTestCase {
    private func schedule(_ scheduler: TestScheduler, at time: Int, runs: ThreadSafeTestBox<Int>, resultDisposals: ThreadSafeTestBox<Int>)
        throws -> VirtualWorkItem
    {
        let item = scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
            runs.mutate { $0 += 1 }
            return Disposables.create { resultDisposals.mutate { $0 += 1 } }
        }
        return try XCTUnwrap(item as? VirtualWorkItem)
    }

    func testDispose_afterTheActionRan_disposesItsResultOnceAndIsDisposed() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let runs = ThreadSafeTestBox(0)
        let resultDisposals = ThreadSafeTestBox(0)
        let item = try schedule(scheduler, at: 10, runs: runs, resultDisposals: resultDisposals)
        scheduler.advanceTo(10)
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(resultDisposals.value, 0)
        XCTAssertFalse(item.isDisposed)

        item.dispose()
        XCTAssertEqual(resultDisposals.value, 1)
        XCTAssertTrue(item.isDisposed)
        item.dispose()
        XCTAssertEqual(resultDisposals.value, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDispose_beforeTheActionRuns_cancelsIt() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let runs = ThreadSafeTestBox(0)
        let resultDisposals = ThreadSafeTestBox(0)
        let item = try schedule(scheduler, at: 10, runs: runs, resultDisposals: resultDisposals)
        item.dispose()
        XCTAssertTrue(item.isDisposed)
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.start()
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(resultDisposals.value, 0)
    }

    /// Disposed from another thread while the clock runs it: whichever comes first, the result
    /// is disposed exactly once, and the action runs at most once.
    func testDispose_racingTheRun_disposesTheResultExactlyOnce() throws {
        for _ in 0..<200 {
            let scheduler = TestScheduler(initialClock: 0)
            let runs = ThreadSafeTestBox(0)
            let resultDisposals = ThreadSafeTestBox(0)
            let item = try schedule(scheduler, at: 10, runs: runs, resultDisposals: resultDisposals)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { item.dispose() }
            scheduler.advanceTo(10)
            group.wait()
            XCTAssertLessThanOrEqual(runs.value, 1)
            XCTAssertEqual(resultDisposals.value, runs.value)
        }
    }
}
