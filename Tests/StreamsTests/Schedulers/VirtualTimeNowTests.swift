import XCTest
import Foundation
import Synchronization
import Streams
import StreamsTest

/// `VirtualTimeScheduler.now` is read without the scheduler's lock (one atomic word beside the
/// clock): it must follow every way the clock moves, exactly, and be safe to read from any thread.
final class VirtualTimeNowTests: XCTestCase {
    func testNow_followsEveryClockMoveExactly() {
        // Dates that a Double holds only approximately, before and after the reference date.
        let start = Date(timeIntervalSinceReferenceDate: -1234.000_000_1)
        let scheduler = HistoricalScheduler(initialClock: start)
        XCTAssertEqual(scheduler.now, start)

        let seen = ThreadSafeTestBox([Date]())
        let due = start.addingTimeInterval(0.3)
        _ = scheduler.scheduleAbsoluteVirtual((), time: due) { _ in
            seen.mutate { $0.append(scheduler.now) }
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(500)) { _ in
            seen.mutate { $0.append(scheduler.now) }
            return Disposables.create()
        }
        scheduler.advanceTo(start.addingTimeInterval(0.4))
        XCTAssertEqual(seen.value, [due])
        XCTAssertEqual(scheduler.now, start.addingTimeInterval(0.4))

        scheduler.sleep(0.05)
        XCTAssertEqual(scheduler.now, start.addingTimeInterval(0.4).addingTimeInterval(0.05))
        XCTAssertEqual(scheduler.now, scheduler.clock)

        scheduler.start()
        XCTAssertEqual(seen.value, [due, start.addingTimeInterval(0.5)])
        XCTAssertEqual(scheduler.now, start.addingTimeInterval(0.5))
        XCTAssertEqual(scheduler.now, scheduler.clock)
    }

    func testNow_onATestSchedulerIsTheClockAsADate() {
        let scheduler = TestScheduler(initialClock: 0)
        let seen = ThreadSafeTestBox([Date]())
        for time in [3, 7] {
            _ = scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
                seen.mutate { $0.append(scheduler.now) }
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(seen.value, [3, 7].map { TestScheduler.date(for: $0, scheduler) })
        XCTAssertEqual(scheduler.now, TestScheduler.date(for: 7, scheduler))
    }

    /// Another thread reads `now` while the clock is driven: every value read is a time the clock
    /// really had, and the values never go back (ThreadSanitizer checks the reads race-free).
    func testNow_readFromAnotherThreadWhileTheClockMoves() {
        let start = Date(timeIntervalSince1970: 0)
        let scheduler = HistoricalScheduler(initialClock: start)
        let steps = 2_000
        let done = DoneFlag()
        let problems = ThreadSafeTestBox([String]())
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            var last = start
            var reads = 0
            while !done.raw.load(ordering: .acquiring) || reads == 0 {
                let now = scheduler.now
                reads += 1
                let millis = now.timeIntervalSince(start) * 1000
                if now < last { problems.mutate { $0.append("went back: \(last) -> \(now)") } }
                // Whole milliseconds, up to a Date's precision this far from its reference date.
                if abs(millis - millis.rounded()) > 1e-3 || millis < 0 || millis > Double(steps) + 1e-3 {
                    problems.mutate { $0.append("not a clock time: \(now)") }
                }
                last = now
            }
        }
        for step in 1...steps {
            scheduler.advanceTo(start.addingTimeInterval(Double(step) / 1000))
        }
        done.raw.store(true, ordering: .releasing)
        reader.wait()
        XCTAssertEqual(problems.value, [])
        XCTAssertEqual(scheduler.now, start.addingTimeInterval(Double(steps) / 1000))
    }
}

/// A flag the driving thread raises when it is done (a class: an `Atomic` cannot be captured).
private final class DoneFlag: Sendable {
    let raw = Atomic<Bool>(false)
}

extension TestScheduler {
    /// The date `scheduler`'s converter gives virtual time `time`.
    fileprivate static func date(for time: Int, _ scheduler: TestScheduler) -> Date {
        scheduler.converter.convertFromVirtualTime(time)
    }
}
