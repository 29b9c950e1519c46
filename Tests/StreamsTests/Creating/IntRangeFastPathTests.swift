import XCTest
import Streams
import StreamsTest

private enum RangeTestError: Error, Equatable { case boom }

/// Pins `Observable<Int>.range`'s concrete-arithmetic sink (`IntRangeSink`): it is the one
/// used for `Int`, and it keeps the generic sink's semantics at the edges, on dispose and on errors.
final class IntRangeFastPathTests: XCTestCase {
    /// The live sink types while the first element is delivered.
    private func liveSinkNames<Element: RxAbstractInteger>(_ source: Observable<Element>) -> [String] {
        var names: [String] = []
        _ = source.take(1).subscribe(onNext: { _ in
            names = Resources.liveCounts.keys.filter { $0.contains("RangeSink") }.sorted()
        })
        return names
    }

    func testIntRange_usesTheIntSink_otherTypesTheGenericOne() {
        XCTAssertNoLeaks {
            XCTAssertEqual(liveSinkNames(Observable<Int>.range(start: 0, count: 3)).count, 1)
            XCTAssertTrue(liveSinkNames(Observable<Int>.range(start: 0, count: 3))[0].hasPrefix("IntRangeSink<"))
            XCTAssertTrue(liveSinkNames(Observable<Int8>.range(start: 0, count: 3))[0].hasPrefix("RangeSink<"))
        }
    }

    func testIntRange_upToIntMax() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.range(start: Int.max - 2, count: 3)).events
            XCTAssertEqual(events, [.next(Int.max - 2), .next(Int.max - 1), .next(Int.max), .completed])
        }
    }

    func testIntRange_fromIntMin() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable.range(start: Int.min, count: 2)).events
            XCTAssertEqual(events, [.next(Int.min), .next(Int.min + 1), .completed])
        }
    }

    func testIntRange_pastIntMaxFails() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.range(start: Int.max, count: 2)).events, [.error(RxError.overflow)])
        }
    }

    func testUInt64Range_nearMax() {
        XCTAssertNoLeaks {
            let events = collectEvents(Observable<UInt64>.range(start: .max - 1, count: 2)).events
            XCTAssertEqual(events, [.next(.max - 1), .next(.max), .completed])
        }
    }

    /// Disposing from `onNext` stops the range at once (no further element, no completion).
    func testIntRange_disposeFromOnNextStopsPromptly() {
        XCTAssertNoLeaks {
            var received: [Int] = []
            var completed = false
            let subscription = SingleAssignmentDisposable()
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                // The trampoline is running: the range starts after this action returns.
                subscription.setDisposable(
                    Observable.range(start: 0, count: 1_000_000).subscribe(
                        onNext: { value in
                            received.append(value)
                            if value == 2 { subscription.dispose() }
                        },
                        onCompleted: { completed = true }))
                XCTAssertEqual(received, [])
                return Disposables.create()
            }
            XCTAssertEqual(received, [0, 1, 2])
            XCTAssertFalse(completed)
        }
    }

    /// A range subscribed from another range's `onNext` interleaves with it on the trampoline.
    func testIntRange_nestedRangesInterleave() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Observable.range(start: 0, count: 3).subscribe(
                onNext: { a in
                    log.append("a\(a)")
                    if a == 0 {
                        _ = Observable.range(start: 0, count: 3).subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
                    }
                }, onCompleted: { log.append("a|") })
            XCTAssertEqual(log, ["a0", "b0", "a1", "b1", "a2", "b2", "a|", "b|"])
        }
    }

    /// An error thrown by a downstream closure terminates the range: no element is produced after it.
    func testIntRange_errorFromMapStopsTheRange() {
        XCTAssertNoLeaks {
            var produced = 0
            let events = collectEvents(
                Observable.range(start: 0, count: 1_000_000)
                    .map { value -> Int in
                        produced += 1
                        if value == 2 { throw RangeTestError.boom }
                        return value * 10
                    }
                    .filter { $0 != 10 }
            ).events
            XCTAssertEqual(events, [.next(0), .error(RangeTestError.boom)])
            XCTAssertEqual(produced, 3)
        }
    }
}
