import Foundation
import XCTest
@testable import Streams
import StreamsTest

/// A thread that delivers for others is not held there for ever: once it has delivered
/// `BacklogGate.limit` items in one turn, a producer on another thread that keeps pace with
/// it waits, the drainer hands it the role and returns to its own caller, and the producer
/// delivers the rest. Nothing is lost or reordered.
///
/// Each test runs in lockstep: every delivery on the first thread waits until the producer
/// has queued its next item (or is waiting at the gate), so the queue is never empty when the
/// drainer looks. Without the hand-off the first thread's call returns only after the
/// producer's last item (the `window` timer of a CI failure: a 50 µs timer against a slow
/// observer held the source's thread inside one `onNext` for good).
final class DrainerHandOffTests: XCTestCase {
    override func tearDown() {
        BacklogGateTestHooks.producerWillWait = nil
        super.tearDown()
    }

    /// What the drainer's thread saw: how many items it delivered before its call returned.
    private struct Outcome {
        var deliveredByDrainer = 0
    }

    /// The shared lockstep between the first thread (the drainer) and the producer: while the
    /// first thread delivers, the producer sends its next item only after the previous one was
    /// delivered (`acknowledged`), and each delivery waits until that next item is queued
    /// (`progress`). So the drainer never finds the queue empty, and the producer never races
    /// it for the role.
    private final class Lockstep: @unchecked Sendable {
        // Safety: every mutable property is behind `LockedState`; the semaphores are thread-safe.
        let progress = DispatchSemaphore(value: 0)
        let acknowledged = DispatchSemaphore(value: 0)
        let drainer = LockedState<UInt>(0)
        let producerDone = LockedState(false)
        let drainerReturned = LockedState(false)
        let outcome = LockedState(Outcome())
        /// Signalled at the first thread's first delivery, when the producer may start.
        let drainerEntered = DispatchSemaphore(value: 0)

        /// Called in each delivery: on the first thread, counts it, acknowledges the
        /// producer's previous item and waits for its next one.
        func deliver() {
            guard drainer.withLock({ $0 }) == currentThreadID() else { return }
            let isFirst = outcome.withLock { outcome -> Bool in
                outcome.deliveredByDrainer += 1
                return outcome.deliveredByDrainer == 1
            }
            if isFirst { drainerEntered.signal() } else { acknowledged.signal() }
            if !producerDone.withLock({ $0 }) { progress.wait() }
        }
    }

    private func runLockstep(
        items: Int,
        start: @escaping @Sendable () -> Void,
        produce: @escaping @Sendable (Int) -> Void,
        lockstep: Lockstep
    ) -> Outcome {
        // A producer waiting for the drainer's turn to end has queued its item: the drainer may
        // go on. (The lockstep never lets the queue grow past its bound.)
        BacklogGateTestHooks.producerWillWait = { _ in lockstep.progress.signal() }
        let drainerDone = DispatchSemaphore(value: 0)
        Thread {
            lockstep.drainer.withLock { $0 = currentThreadID() }
            start()
            lockstep.drainerReturned.withLock { $0 = true }
            lockstep.acknowledged.signal()
            drainerDone.signal()
        }.start()
        lockstep.drainerEntered.wait()
        let producerDone = DispatchSemaphore(value: 0)
        Thread {
            for index in 0..<items {
                produce(index)
                lockstep.progress.signal()
                if !lockstep.drainerReturned.withLock({ $0 }) { lockstep.acknowledged.wait() }
            }
            lockstep.producerDone.withLock { $0 = true }
            lockstep.progress.signal()
            producerDone.signal()
        }.start()
        drainerDone.wait()
        producerDone.wait()
        return lockstep.outcome.withLock { $0 }
    }

    /// Two subjects into `make`, the first thread sends `-1` on the first, the producer
    /// `items` elements on the second.
    private func checkHandOff(
        prime: @escaping @Sendable (PublishSubject<Int>, PublishSubject<Int>) -> Void = { first, _ in first.onNext(-1) },
        _ make: (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>,
        expected: (Int) -> [Int]
    ) {
        XCTAssertNoLeaksEventually {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let lockstep = Lockstep()
            let received = LockedState<[Int]>([])
            let subscription = make(first, second).subscribe(onNext: { value in
                received.withLock { $0.append(value) }
                lockstep.deliver()
            })
            let items = 3 * BacklogGate.limit
            let outcome = runLockstep(items: items, start: { prime(first, second) }, produce: { second.onNext($0) }, lockstep: lockstep)
            // One turn: the first item and `limit` more. Without the hand-off the first thread
            // delivers all `items + 1`.
            XCTAssertEqual(outcome.deliveredByDrainer, BacklogGate.limit + 1)
            XCTAssertEqual(received.withLock { $0 }, expected(items))
            subscription.dispose()
        }
    }

    func testMerge_drainerHandsOffAfterALongTurn() {
        checkHandOff({ Observable.merge($0, $1) }, expected: { [-1] + Array(0..<$0) })
    }

    func testFlatMap_drainerHandsOffAfterALongTurn() {
        checkHandOff({ first, second in Observable.of(first, second).flatMap { $0 } }, expected: { [-1] + Array(0..<$0) })
    }

    func testCombineLatest_drainerHandsOffAfterALongTurn() {
        checkHandOff(
            prime: { first, second in
                second.onNext(-2)
                first.onNext(-1)
            },
            { Observable.combineLatest($0, $1) { $0 * 100_000 + $1 } },
            expected: { count in [-100_002] + (0..<count).map { -100_000 + $0 } }
        )
    }

    /// `window`'s timer, fired from another thread, keeps closing windows while the source's
    /// thread delivers them: the source's call returns after a bounded turn, and every window
    /// still arrives, in order, and completes.
    func testWindow_sourceThreadIsNotHeldByTheTimer() {
        XCTAssertNoLeaksEventually {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            let lockstep = Lockstep()
            let windows = LockedState<[(values: [Int], completed: Bool)]>([])
            let subscription = source.window(timeSpan: .seconds(10), count: 1_000, scheduler: scheduler)
                .subscribe(onNext: { window in
                    let index = windows.withLock { windows -> Int in
                        windows.append(([], false))
                        return windows.count - 1
                    }
                    _ = window.subscribe { event in
                        switch event {
                        case .next(let value):
                            windows.withLock { $0[index].values.append(value) }
                            lockstep.deliver()
                        case .completed: windows.withLock { $0[index].completed = true }
                        case .error: XCTFail("no window fails here")
                        }
                    }
                    lockstep.deliver()
                })
            // Two actions per tick (a window's completion, the next window): past the turn's bound.
            let ticks = BacklogGate.limit
            let outcome = runLockstep(
                items: ticks,
                start: { source.onNext(-1) },
                produce: { scheduler.advanceTo(TestTime(10 * ($0 + 1))) },
                lockstep: lockstep
            )
            // One turn: `limit` actions, two per tick (a window's completion, then the next
            // window, which is counted), after the first element. Without the hand-off the
            // source's thread delivers all `ticks + 1`.
            XCTAssertEqual(outcome.deliveredByDrainer, BacklogGate.limit / 2 + 1)
            source.onCompleted()
            let result = windows.withLock { $0 }
            XCTAssertEqual(result.count, ticks + 1)
            XCTAssertEqual(result.first?.values, [-1])
            XCTAssertTrue(result.dropFirst().allSatisfy { $0.values.isEmpty })
            XCTAssertTrue(result.allSatisfy(\.completed))
            subscription.dispose()
        }
    }
}
