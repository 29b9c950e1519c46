import Foundation
import XCTest
@testable import Streams
import StreamsTest

/// Multi-source operators bound their queue under contention: a producer on another thread
/// that finds `BacklogGate.limit` events queued behind a busy observer waits until the
/// observer's thread has taken the queue; a reentrant producer (the observer itself) never
/// waits. No event is lost or reordered either way.
final class BacklogBoundTests: XCTestCase {
    override func tearDown() {
        BacklogGateTestHooks.producerWillWait = nil
        super.tearDown()
    }

    /// The observer's thread is held inside its first delivery while another thread sends
    /// `count` elements: that thread must stop at the bound until the observer goes on.
    private func checkProducerWaits(
        count: Int,
        prime: @escaping @Sendable (PublishSubject<Int>, PublishSubject<Int>) -> Void = { first, _ in first.onNext(-1) },
        _ make: (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>,
        expected: (Int) -> [Int]
    ) {
        // Eventually: a `Thread` releases its closure (and the subjects it holds) after it exits.
        XCTAssertNoLeaksEventually {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let waits = LockedState<[Int]>([])
            let producerBlocked = DispatchSemaphore(value: 0)
            BacklogGateTestHooks.producerWillWait = { queued in
                let isFirst = waits.withLock { waits -> Bool in
                    waits.append(queued)
                    return waits.count == 1
                }
                if isFirst { producerBlocked.signal() }
            }
            let sent = Atomic(0)
            let received = LockedState<[Int]>([])
            let observerEntered = DispatchSemaphore(value: 0)
            let releaseObserver = DispatchSemaphore(value: 0)
            let subscription = make(first, second).subscribe(onNext: { value in
                let isFirst = received.withLock { received -> Bool in
                    received.append(value)
                    return received.count == 1
                }
                if isFirst {
                    observerEntered.signal()
                    releaseObserver.wait()
                }
            })
            let observerDone = DispatchSemaphore(value: 0)
            let observerThread = Thread {
                prime(first, second)
                observerDone.signal()
            }
            observerThread.start()
            observerEntered.wait()
            let producerDone = DispatchSemaphore(value: 0)
            let producer = Thread {
                for value in 0..<count {
                    second.onNext(value)
                    sent.add(1)
                }
                producerDone.signal()
            }
            producer.start()
            // A guard against a hang, not a timing assertion: without the bound it never waits.
            if producerBlocked.wait(timeout: .now() + 60) == .timedOut {
                XCTFail("the producer never waited: \(sent.value) elements queued behind a held observer")
            }
            // The producer is waiting (or about to): it queued exactly one past the bound.
            XCTAssertEqual(waits.withLock { $0 }.first, BacklogGate.limit + 1)
            XCTAssertLessThanOrEqual(sent.value, BacklogGate.limit + 1)
            releaseObserver.signal()
            // Both sending calls must have returned: the last queued elements may still be in
            // delivery by the observer's thread when the producer's call returns.
            producerDone.wait()
            observerDone.wait()
            XCTAssertEqual(received.withLock { $0 }, expected(count))
            XCTAssertTrue(waits.withLock { $0 }.allSatisfy { $0 <= BacklogGate.limit + 1 })
            subscription.dispose()
        }
    }

    func testMerge_producerWaitsPastTheBoundAndNothingIsLost() {
        checkProducerWaits(count: BacklogGate.limit + 2_000, { Observable.merge($0, $1) }, expected: { [-1] + Array(0..<$0) })
    }

    func testFlatMap_producerWaitsPastTheBoundAndNothingIsLost() {
        checkProducerWaits(
            count: BacklogGate.limit + 2_000,
            { first, second in Observable.of(first, second).flatMap { $0 } },
            expected: { [-1] + Array(0..<$0) }
        )
    }

    func testCombineLatest_producerWaitsPastTheBoundAndNothingIsLost() {
        checkProducerWaits(
            count: BacklogGate.limit + 2_000,
            prime: { first, second in
                second.onNext(-2)
                first.onNext(-1)  // the first combination, whose delivery is held
            },
            { Observable.combineLatest($0, $1) { $0 * 100_000 + $1 } },
            expected: { count in [-100_002] + (0..<count).map { -100_000 + $0 } }
        )
    }

    func testReentrantProducer_neverWaitsOnItself() {
        XCTAssertNoLeaks {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var waited = false
            BacklogGateTestHooks.producerWillWait = { _ in waited = true }
            var received: [Int] = []
            let subscription = Observable.merge(first, second).subscribe(onNext: { value in
                received.append(value)
                // From inside the observer, far past the bound: queued behind this delivery.
                if value == -1 { for next in 0..<3 * BacklogGate.limit { second.onNext(next) } }
            })
            first.onNext(-1)
            XCTAssertEqual(received, [-1] + Array(0..<3 * BacklogGate.limit))
            XCTAssertFalse(waited)
            subscription.dispose()
        }
    }

    /// `window`'s timer, on another thread, closes windows while the source's thread is held
    /// inside a window's delivery: the timer must stop at the bound (before, the queue grew
    /// for as long as the timer ran, and a queue that long was drained at O(n) per action, so a
    /// 50 µs timer could outrun its delivery for good). Every window still arrives, in order,
    /// and completes.
    func testWindow_timerWaitsPastTheBoundAndNothingIsLost() {
        XCTAssertNoLeaksEventually {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            let waits = LockedState<[Int]>([])
            let timerBlocked = DispatchSemaphore(value: 0)
            BacklogGateTestHooks.producerWillWait = { queued in
                let isFirst = waits.withLock { waits -> Bool in
                    waits.append(queued)
                    return waits.count == 1
                }
                if isFirst { timerBlocked.signal() }
            }
            let windows = LockedState<[(values: [Int], completed: Bool)]>([])
            let observerEntered = DispatchSemaphore(value: 0)
            let releaseObserver = DispatchSemaphore(value: 0)
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
                            if value == -1 {
                                observerEntered.signal()
                                releaseObserver.wait()
                            }
                        case .completed: windows.withLock { $0[index].completed = true }
                        case .error: XCTFail("no window fails here")
                        }
                    }
                })
            let observerDone = DispatchSemaphore(value: 0)
            Thread {
                source.onNext(-1)
                observerDone.signal()
            }.start()
            observerEntered.wait()
            let ticks = BacklogGate.limit / 2 + 1_000  // two actions per tick: past the bound
            let timerDone = DispatchSemaphore(value: 0)
            Thread {
                scheduler.advanceTo(TestTime(10 * ticks))
                timerDone.signal()
            }.start()
            // A guard against a hang, not a timing assertion: without the bound it never waits.
            if timerBlocked.wait(timeout: .now() + 60) == .timedOut {
                XCTFail("the timer never waited behind a held window observer")
            }
            // Each closed window queues two actions (its completion, the next window), so the
            // timer stops at the first even length past the bound.
            XCTAssertEqual(waits.withLock { $0 }.first, BacklogGate.limit + 2)
            releaseObserver.signal()
            timerDone.wait()
            observerDone.wait()
            source.onCompleted()
            let result = windows.withLock { $0 }
            XCTAssertEqual(result.count, ticks + 1)
            XCTAssertEqual(result.first?.values, [-1])
            XCTAssertTrue(result.dropFirst().allSatisfy { $0.values.isEmpty })
            XCTAssertTrue(result.allSatisfy(\.completed))
            XCTAssertTrue(waits.withLock { $0 }.allSatisfy { $0 <= BacklogGate.limit + 2 })
            subscription.dispose()
        }
    }

    func testManyThreads_boundedStressKeepsPerSourceOrder() {
        XCTAssertNoLeaksEventually {
            let subjects = (0..<4).map { _ in PublishSubject<Int>() }
            let received = LockedState<[[Int]]>(Array(repeating: [], count: 4))
            let subscription = Observable.merge(subjects.map { $0.asObservable() })
                .subscribe(onNext: { value in received.withLock { $0[value / 1_000_000].append(value % 1_000_000) } })
            let perSource = 20_000
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for value in 0..<perSource { subjects[index].onNext(index * 1_000_000 + value) }
            }
            XCTAssertEqual(received.withLock { $0 }, Array(repeating: Array(0..<perSource), count: 4))
            subscription.dispose()
        }
    }
}

/// A small atomic counter for the tests above.
private final class Atomic: @unchecked Sendable {
    // Safety: the value is only read and written under `lock`.
    private let lock = LockedState(0)
    init(_ value: Int) { lock.withLock { $0 = value } }
    var value: Int { lock.withLock { $0 } }
    func add(_ amount: Int) { lock.withLock { $0 += amount } }
}
