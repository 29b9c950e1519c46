import XCTest
import Foundation
import Streams
import StreamsTest

final class VirtualTimeSchedulerTests: XCTestCase {
    private func record(_ scheduler: TestScheduler, _ log: ThreadSafeTestBox<[String]>, _ name: String, at time: Int) -> Disposable {
        scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
            log.mutate { $0.append("\(name)@\(scheduler.clock)") }
            return Disposables.create()
        }
    }

    func testStart_runsInTimeOrderThenSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        _ = record(scheduler, log, "c", at: 30)
        _ = record(scheduler, log, "a", at: 10)
        _ = record(scheduler, log, "b1", at: 20)
        _ = record(scheduler, log, "b2", at: 20)
        scheduler.start()
        XCTAssertEqual(log.value, ["a@10", "b1@20", "b2@20", "c@30"])
        XCTAssertEqual(scheduler.clock, 30)
        XCTAssertFalse(scheduler.isRunning)
    }

    func testStart_workScheduledWhileRunningIsRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            XCTAssertTrue(scheduler.isRunning)
            _ = self.record(scheduler, log, "later", at: 15)
            _ = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
                log.mutate { $0.append("now+delay@\(scheduler.clock)") }
                return Disposables.create()
            }
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(log.value, ["now+delay@11", "later@15"])
    }

    func testAdvanceTo_runsDueWorkAndSetsTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        _ = record(scheduler, log, "a", at: 10)
        _ = record(scheduler, log, "b", at: 20)
        _ = record(scheduler, log, "c", at: 30)
        scheduler.advanceTo(20)
        XCTAssertEqual(log.value, ["a@10", "b@20"])
        XCTAssertEqual(scheduler.clock, 20)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advanceTo(25)
        XCTAssertEqual(scheduler.clock, 25)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advanceTo(100)
        XCTAssertEqual(log.value, ["a@10", "b@20", "c@30"])
        XCTAssertEqual(scheduler.clock, 100)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testSleep_movesTheClockWithoutRunningWork() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        _ = record(scheduler, log, "a", at: 10)
        scheduler.sleep(50)
        XCTAssertEqual(scheduler.clock, 50)
        XCTAssertEqual(log.value, [])
        // Overdue work runs at the current (later) clock.
        scheduler.advanceTo(60)
        XCTAssertEqual(log.value, ["a@50"])
        XCTAssertEqual(scheduler.clock, 60)
    }

    func testStop_haltsStartAndStartResumes() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        _ = record(scheduler, log, "a", at: 10)
        _ = scheduler.scheduleAbsoluteVirtual((), time: 20) { _ in
            scheduler.stop()
            return Disposables.create()
        }
        _ = record(scheduler, log, "b", at: 30)
        scheduler.start()
        XCTAssertEqual(log.value, ["a@10"])
        XCTAssertEqual(scheduler.clock, 20)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.start()
        XCTAssertEqual(log.value, ["a@10", "b@30"])
    }

    func testCancellation_disposedWorkNeverRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        let a = record(scheduler, log, "a", at: 10)
        _ = record(scheduler, log, "b", at: 20)
        XCTAssertEqual(scheduler.pendingCount, 2)
        a.dispose()
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.start()
        XCTAssertEqual(log.value, ["b@20"])
    }

    func testCancellation_workDisposedByEarlierWorkAtTheSameTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        let holder = SingleAssignmentDisposable()
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            holder.dispose()
            return Disposables.create()
        }
        holder.setDisposable(record(scheduler, log, "b", at: 10))
        scheduler.start()
        XCTAssertEqual(log.value, [])
    }

    func testCancellation_replacedTimersDoNotAccumulate() {
        // A debounce-like stream of replaced timers, far in the future, without the clock
        // moving: each cancelled item is dropped from the queue's count at once and squeezed
        // out of its storage, and only the last one runs.
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        var previous: Disposable?
        for index in 0..<10_000 {
            previous?.dispose()
            previous = record(scheduler, log, "t\(index)", at: 1_000_000 + index % 7)
            XCTAssertEqual(scheduler.pendingCount, 1)
        }
        scheduler.start()
        XCTAssertEqual(log.value, ["t9999@1000003"])  // 9,999 % 7 == 3
    }

    func testCancellation_manyCancelledKeepsTimeThenSchedulingOrder() {
        // Cancelling most of a large queue (which squeezes and rebuilds it) keeps the order of
        // what is left: by time, then by scheduling order.
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        let items = (0..<300).map { index in (index, record(scheduler, log, "\(index)", at: 10 * (index % 5))) }
        for (index, item) in items where index % 3 != 0 { item.dispose() }
        XCTAssertEqual(scheduler.pendingCount, 100)
        scheduler.start()
        let kept = (0..<300).filter { $0 % 3 == 0 }
        let expected = kept.sorted { ($0 % 5, $0) < ($1 % 5, $1) }.map { "\($0)@\(10 * ($0 % 5))" }
        XCTAssertEqual(log.value, expected)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCancellation_disposingRunWorkOrTwiceIsHarmless() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = ThreadSafeTestBox([String]())
        let a = record(scheduler, log, "a", at: 10)
        let b = record(scheduler, log, "b", at: 20)
        scheduler.advanceTo(10)
        a.dispose()
        a.dispose()
        XCTAssertEqual(scheduler.pendingCount, 1)
        b.dispose()
        b.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.start()
        XCTAssertEqual(log.value, ["a@10"])
    }

    func testSchedulePeriodic_threadsStateUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(10)) { state in
            log.append("\(state)@\(scheduler.clock)")
            return state + 1
        }
        scheduler.advanceTo(40)
        XCTAssertEqual(log, ["0@5", "1@15", "2@25", "3@35"])
        periodic.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.start()
        XCTAssertEqual(log.count, 4)
    }

    func testNow_followsTheClockAndResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.5)
        scheduler.advanceTo(10)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 5))
    }

    func testWithoutProcessingDelay_workForNowRunsAtNow() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var ranAt: Int?
        scheduler.advanceTo(10)
        _ = scheduler.schedule(()) { _ in
            ranAt = scheduler.clock
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ranAt, 10)
    }

    func testHistoricalScheduler_usesDates() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var log: [Date] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            log.append(scheduler.now)
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            log.append(Date.distantPast)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(2_500)) { _ in
            log.append(scheduler.clock)
            return Disposables.create()
        }
        cancelled.dispose()
        XCTAssertEqual(scheduler.clock, start)
        scheduler.advanceTo(start.addingTimeInterval(3))
        XCTAssertEqual(log, [start.addingTimeInterval(2.5)])
        XCTAssertEqual(scheduler.clock, start.addingTimeInterval(3))
        scheduler.start()
        XCTAssertEqual(log, [start.addingTimeInterval(2.5), start.addingTimeInterval(10)])
        XCTAssertEqual(scheduler.clock, start.addingTimeInterval(10))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testHistoricalScheduler_drivesTimeOperators() {
        XCTAssertNoLeaks {
            let start = Date(timeIntervalSince1970: 0)
            let scheduler = HistoricalScheduler(initialClock: start)
            var values: [Int] = []
            var times: [Date] = []
            let subscription = Observable<Int>.interval(.seconds(60), scheduler: scheduler)
                .subscribe(onNext: { value in
                    values.append(value)
                    times.append(scheduler.now)
                })
            scheduler.advanceTo(start.addingTimeInterval(200))
            subscription.dispose()
            XCTAssertEqual(values, [0, 1, 2])
            XCTAssertEqual(times, [60, 120, 180].map { start.addingTimeInterval($0) })
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }
}
