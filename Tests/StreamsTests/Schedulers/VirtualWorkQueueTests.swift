import XCTest
import StreamsTest
@testable import Streams

/// The virtual time work queue's heap with moved and cancelled items (the `TimerMovingScheduler`
/// path that ``ObservableType/debounce(_:scheduler:)`` takes), against a plain model: work runs
/// by due time, then by the order it was last scheduled or moved.
final class VirtualWorkQueueTests: XCTestCase {
    /// A deterministic pseudo-random sequence (no seeding from the clock: every run is the same).
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func testMoveAndCancel_runInDueTimeThenSchedulingOrder() {
        for seed in 1...20 {
            var random = Generator(state: UInt64(seed))
            let scheduler = TestScheduler(initialClock: 0)
            let ran = ThreadSafeTestBox([Int]())
            var items: [VirtualWorkItem?] = []
            // Each live item's (due time, scheduling order), as a timer scheduled anew would get.
            var model: [Int: (time: Int, order: Int)] = [:]
            var order = 0
            for _ in 0..<200 {
                switch random.next(4) {
                case 0, 1:
                    let index = items.count
                    let due = random.next(50)
                    let item = scheduler.scheduleMovable(index, dueTime: .seconds(due)) { index in
                        ran.mutate { $0.append(index) }
                        return Disposables.create()
                    }
                    XCTAssertNotNil(item)
                    items.append(item)
                    model[index] = (due == 0 ? 1 : due, order)  // due now: the processing delay
                    order += 1
                case 2 where !items.isEmpty:
                    let index = random.next(items.count)
                    let due = 1 + random.next(50)
                    let moved = items[index].map { scheduler.move($0, dueTime: .seconds(due)) } ?? false
                    XCTAssertEqual(moved, model[index] != nil, "seed \(seed): move of item \(index)")
                    if moved {
                        model[index] = (due, order)
                        order += 1
                    }
                case 3 where !items.isEmpty:
                    let index = random.next(items.count)
                    items[index]?.dispose()
                    model[index] = nil
                default:
                    break
                }
            }
            XCTAssertEqual(scheduler.pendingCount, model.count, "seed \(seed)")
            scheduler.start()
            let expected = model.sorted { ($0.value.time, $0.value.order) < ($1.value.time, $1.value.order) }.map(\.key)
            XCTAssertEqual(ran.value, expected, "seed \(seed)")
            XCTAssertEqual(scheduler.pendingCount, 0)
            // A timer that ran can no longer be moved.
            if let first = items.compactMap({ $0 }).first {
                XCTAssertFalse(scheduler.move(first, dueTime: .seconds(1)))
            }
        }
    }

    func testMove_toANeverTime_isRefused() {
        let scheduler = TestScheduler(initialClock: 0)
        let item = scheduler.scheduleMovable((), dueTime: .seconds(5)) { _ in Disposables.create() }
        XCTAssertFalse(scheduler.move(item!, dueTime: .never))
        XCTAssertEqual(scheduler.pendingCount, 1)
        item?.dispose()
        XCTAssertFalse(scheduler.move(item!, dueTime: .seconds(1)))
        XCTAssertNoPendingWork(scheduler)
    }

    func testMove_itemOfAnotherScheduler_isRefused() {
        let one = TestScheduler(initialClock: 0)
        let other = TestScheduler(initialClock: 0)
        let item = one.scheduleMovable((), dueTime: .seconds(5)) { _ in Disposables.create() }
        XCTAssertFalse(other.move(item!, dueTime: .seconds(1)))
        XCTAssertEqual(one.pendingCount, 1)
        item?.dispose()
    }
}
