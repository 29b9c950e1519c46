import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Schedulers article (Sources/Streams/Streams.docc/Schedulers.md),
/// run and compared with the article's text.
final class SchedulersArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Schedulers.md", testFile: #filePath) }

    /// Virtual time, "Intervals": the two `scheduleRelative` lines.
    func testIntervals_scheduleRelativeLines() throws {
        let block = try article().codeBlock(containing: "scheduler.scheduleRelative((), dueTime: .seconds(-5))")
        let scheduler = TestScheduler(initialClock: 0)
        var ranAt: TestTime?
        scheduler.scheduleAt(200) {
            _ = scheduler.scheduleRelative((), dueTime: .seconds(-5)) { _ in
                ranAt = scheduler.clock
                return Disposables.create()
            }
            let pending = scheduler.pendingCount
            _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
                XCTFail("ran")
                return Disposables.create()
            }
            XCTAssertEqual(scheduler.pendingCount, pending, "pendingCount unchanged")
        }
        scheduler.start()
        let time = try XCTUnwrap(ranAt)
        XCTAssertTrue(block.contains { $0.contains(".seconds(-5)) { … }   at 200: runs at \(time)") }, "runs at \(time)")
        XCTAssertTrue(block.contains { $0.contains("dueTime: .never) { … }         never; pendingCount unchanged") })
    }

    /// Time intervals: the table of what the rule makes of the operators (subscribed at 200).
    func testTimeIntervals_operatorTable() throws {
        let text = try article()
        func run(_ build: @escaping (TestScheduler) -> Observable<Int>) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            return scheduler.start { build(scheduler) }.events
        }
        for timer in [run { Observable<Int>.timer(.seconds(-1), scheduler: $0) }, run { Observable<Int>.timer(.microseconds(Int.min), scheduler: $0) }] {
            XCTAssertEqual(timer.count, 2)
            XCTAssertEqual(timer.first?.value.element, 0)
            XCTAssertTrue(text.says("| `timer(.seconds(-1))`, `timer(.microseconds(Int.min))` | `0` and completion at \(timer[1].time) |"), "\(timer)")
            XCTAssertEqual(timer[0].time, timer[1].time)
        }
        let interval = run { Observable<Int>.interval(.seconds(-1), scheduler: $0).take(3) }
        let elements = interval.compactMap(\.value.element).map(String.init).joined(separator: ", ")
        let times = interval.filter { $0.value.element != nil }.map { "\($0.time)" }.joined(separator: ", ")
        XCTAssertTrue(text.says("| `interval(.seconds(-1)).take(3)` | `\(elements)` at \(times) |"), "\(interval)")
        let once = run { Observable<Int>.timer(.seconds(1), period: .never, scheduler: $0) }
        XCTAssertEqual(once.count, 1)
        XCTAssertTrue(text.says("| `timer(.seconds(1), period: .never)` | `\(once[0].value.element!)` at \(once[0].time), then nothing |"), "\(once)")
        let never = run { Observable<Int>.never().timeout(.never, scheduler: $0) }
        XCTAssertEqual(never, [])
        let failing = run { Observable<Int>.never().timeout(.seconds(-1), scheduler: $0) }
        XCTAssertEqual(failing.count, 1)
        XCTAssertNotNil(failing.first?.value.error)
        XCTAssertTrue(text.says("| `timeout(.never)` / `timeout(.seconds(-1))` | never times out / fails at \(failing[0].time) |"), "\(failing)")
    }

    /// "The trampoline", synchronous sources interleave: the merge step block.
    func testTrampoline_mergeStepBlock() throws {
        let block = try article().codeBlock(containing: "Observable.merge(.of(1, 2), .of(3, 4))")
        let log = StepLog()
        _ = Observable.merge(log.source("a", .of(1, 2)), log.source("b", .of(3, 4)))
            .subscribe(onNext: { log.output("output", .next("\($0)")) }, onCompleted: { log.output("output", .completed) })
        XCTAssertEqual(try articleSteps(block), log.lanes)
    }

    /// "The trampoline", a subscription made inside a step: the snippet's `prints:` line.
    func testTrampoline_subscriptionInsideAStep_prints() throws {
        let block = try article().codeBlock(containing: "print(\"outer\", v)")
        let stated = try XCTUnwrap(block.first { $0.contains("prints:") }).components(separatedBy: "prints:")[1]
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var printed: [String] = []
        _ = Observable.of(1, 2, 3).subscribe(onNext: { v in
            printed.append("outer \(v)")
            _ = Observable.of(10, 20).subscribe(onNext: { printed.append("inner \($0)") })
        })
        XCTAssertEqual(stated, printed)
    }
}
