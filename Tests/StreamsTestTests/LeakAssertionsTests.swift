import XCTest
import Streams
@testable import StreamsTest

/// An element type used only here, so the types built on it have no live count elsewhere.
private struct LeakedElement {}

final class LeakAssertionsTests: XCTestCase {
    func testNoLeaks_balancedChainPasses() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            subject.onNext(1)
            subscription.dispose()
        }
    }

    func testNoLeaks_countsLiveResources() {
        let baseline = Resources.total
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        XCTAssertEqual(Resources.total, baseline + 1)
        _ = subject
        subject = nil
        XCTAssertEqual(Resources.total, baseline)
    }

    func testLeakFailure_noneWhenTheTotalIsBack() {
        XCTAssertNil(leakFailure(from: 3, ["A": 3], to: 3, ["A": 3]))
    }

    func testLeakFailure_listsTheTypesThatChanged() {
        let failure = leakFailure(
            from: 5, ["PublishSubject<Int>": 2, "MapSink<Int, X>": 3, "Kept": 1],
            to: 8, ["PublishSubject<Int>": 3, "MapSink<Int, X>": 6, "Kept": 1, "Gone": -1])
        XCTAssertEqual(
            failure,
            """
            Resources.total changed by 3 (from 5 to 8). Live resources by type (after - before):
              MapSink<Int, X>: +3
              PublishSubject<Int>: +1
              Gone: -1
            """)
        XCTAssertEqual(
            leakFailure(from: 2, [:], to: 1, ["A": 1], after: 10),
            """
            Resources.total still changed by -1 after 10.0 s (from 2 to 1). Live resources by type (after - before):
              A: +1
            """)
    }

    func testLeakFailure_aDropAloneIsNoLeak() {
        // An earlier test's sinks released while this one ran (CI saw it after tests on real
        // schedulers): nothing of this test's is alive.
        XCTAssertNil(leakFailure(from: 4, ["TimerSink": 2, "Kept": 2], to: 2, ["Kept": 2]))
        // A type that grew is a leak even when another type's drop hides it in the total.
        XCTAssertEqual(
            leakFailure(from: 4, ["TimerSink": 2, "Kept": 2], to: 3, ["Kept": 3]),
            """
            Resources.total changed by -1 (from 4 to 3). Live resources by type (after - before):
              Kept: +1
              TimerSink: -2
            """)
        XCTAssertNotNil(leakFailure(from: 2, [:], to: 3, [:]), "a higher total is a leak")
    }

    func testLeakFailure_namesARealLeak() {
        let totalBefore = Resources.total
        let countsBefore = Resources.liveCounts
        let kept = PublishSubject<LeakedElement>()
        let subscription = kept.map { $0 }.subscribe(onNext: { _ in })
        let failure = leakFailure(from: totalBefore, countsBefore, to: Resources.total, Resources.liveCounts)
        subscription.dispose()
        XCTAssertTrue(failure?.hasPrefix("Resources.total changed by 2 (from \(totalBefore) to \(totalBefore + 2)).") == true, failure ?? "nil")
        XCTAssertTrue(failure?.contains("\n  PublishSubject<LeakedElement>: +1") == true, failure ?? "nil")
        XCTAssertTrue(failure?.contains("\n  MapSink<") == true, failure ?? "nil")
    }

    #if !canImport(Darwin)
    private var captured: [(description: String, line: Int)]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if captured != nil {
            captured?.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testNoLeaks_failureNamesTheLeakedTypes() {
        var kept: PublishSubject<LeakedElement>?
        captured = []
        let line = #line + 1
        XCTAssertNoLeaks("kept on purpose") { kept = PublishSubject() }
        let recorded = captured ?? []
        captured = nil
        kept = nil
        XCTAssertEqual(recorded.map(\.line), [line])
        XCTAssertTrue(
            recorded.first?.description.contains("Live resources by type (after - before):\n  PublishSubject<LeakedElement>: +1\nkept on purpose") == true,
            recorded.first?.description ?? "no failure")
        XCTAssertTrue(recorded.first?.description.hasSuffix(leakHint) == true, "the failure ends with the hint")
        _ = kept
    }
    #endif

    func testNoPendingWork_emptyScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertNil(pendingWorkFailure(scheduler))
        XCTAssertNoPendingWork(scheduler)
    }

    func testNoPendingWork_reportsScheduledWork() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(10) {}
        scheduler.scheduleAt(20) {}
        scheduler.advanceTo(5)
        XCTAssertEqual(pendingWorkFailure(scheduler), "TestScheduler has 2 pending work items at clock 5.")
        scheduler.advanceTo(10)
        XCTAssertEqual(pendingWorkFailure(scheduler), "TestScheduler has 1 pending work item at clock 10.")
        scheduler.start()
        XCTAssertNoPendingWork(scheduler)
    }

    func testNoPendingWork_disposingCancelsScheduledWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let subscription = Observable.just(1, scheduler: scheduler).subscribe(observer)
            XCTAssertNotNil(pendingWorkFailure(scheduler))
            subscription.dispose()
            XCTAssertNoPendingWork(scheduler)
            scheduler.start()
            XCTAssertEqual(observer.events, [])
        }
    }

    func testNoPendingWork_hotEventsStayPendingUntilPlayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(600, 1)])
        scheduler.advanceTo(500)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advanceTo(600)
        XCTAssertNoPendingWork(scheduler)
        _ = xs
    }

    func testNoPendingWork_historicalScheduler() {
        let scheduler = HistoricalScheduler()
        XCTAssertNoPendingWork(scheduler)
    }
}
