import Foundation
import Synchronization
import XCTest
import Streams
import StreamsTest

/// The error the subject and relay tests send.
struct SubjectTestError: Error, Equatable {
    var code = 0
}

/// A thread-safe observer that records every event (for tests that send from several threads).
final class EventRecorder<Element>: ObserverType, @unchecked Sendable {
    // Safety: `recorded` is only accessed under its lock.
    private let recorded = LockedState([Event<Element>]())

    func on(_ event: Event<Element>) {
        recorded.withLock { $0.append(event) }
    }

    var events: [Event<Element>] { recorded.withLock { $0 } }
    var elements: [Element] { events.compactMap { $0.element } }
}

/// Runs `body` with `Hooks.unhandledError` replaced by a recorder; returns the reported errors.
func capturingUnhandledErrors(_ body: () throws -> Void) rethrows -> [Swift.Error] {
    let captured = LockedState([Swift.Error]())
    let previous = Hooks.unhandledError
    Hooks.unhandledError = { error in captured.withLock { $0.append(error) } }
    defer { Hooks.unhandledError = previous }
    try body()
    return captured.withLock { $0 }
}

/// Fails unless each value is exactly one more than the previous one.
func assertContiguous(_ values: [Int], _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
    for (previous, next) in zip(values, values.dropFirst()) where next != previous + 1 {
        XCTFail("not contiguous: \(previous) then \(next) in \(values.count) values. \(message())", file: file, line: line)
        return
    }
}

/// Fails unless `events` is `next*` followed by at most one terminal event.
func assertGrammar<Element>(_ events: [Event<Element>], file: StaticString = #filePath, line: UInt = #line) {
    if let index = events.firstIndex(where: { $0.isStopEvent }), index != events.count - 1 {
        XCTFail("events after terminal event at \(index) of \(events.count)", file: file, line: line)
    }
}

/// Runs `sender` and `subscribers` copies of `subscriber` at once, each on its own thread, and
/// returns when all have finished. The threads wait for each other before starting, so the work
/// overlaps as much as the cores allow.
func runConcurrently(subscribers: Int, sender: @escaping @Sendable () -> Void, subscriber: @escaping @Sendable (Int) -> Void) {
    let threads = subscribers + 1
    let barrier = StartBarrier()
    let finished = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        // The thread object may outlive this call: it only holds the slot, which is emptied
        // before `finished` is signalled, so everything the work captured (subjects, relays)
        // is released by the time this function returns and leak counting stays exact.
        let slot = LockedState<(@Sendable () -> Void)?>(index == 0 ? sender : { subscriber(index - 1) })
        let thread = Thread {
            do {
                let work = slot.withLock { work -> (@Sendable () -> Void)? in
                    defer { work = nil }; return work
                }
                barrier.arriveAndWait(for: threads)
                work?()
            }
            finished.signal()
        }
        thread.start()
    }
    for _ in 0..<threads { finished.wait() }
}

/// Lets dedicated threads start their work together.
final class StartBarrier: Sendable {
    private let arrived = Atomic<Int>(0)

    func arriveAndWait(for count: Int) {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < count { sched_yield() }
    }
}

/// The last element a stress test's sender has finished sending (readable from any thread).
final class SentCounter: Sendable {
    private let atomic = Atomic<Int>(0)

    var value: Int { atomic.load(ordering: .acquiring) }

    func set(_ value: Int) { atomic.store(value, ordering: .releasing) }
}

/// One subscription made by a stress test's subscriber thread.
struct StressTrial {
    let recorder: EventRecorder<Int>
    /// Whether the subscription was kept until the end (else disposed right after subscribing).
    let kept: Bool
    /// `SentCounter.value` just before and just after subscribing.
    let sentBefore: Int
    let sentAfter: Int
}

/// Results shared by the threads of a stress test.
final class StressResults: @unchecked Sendable {
    // Safety: both lists are only accessed under their locks.
    let trials = LockedState([StressTrial]())
    let kept = LockedState([Disposable]())

    /// Disposes the subscriptions that were kept until the end.
    func disposeKept() {
        let all = kept.withLock { kept -> [Disposable] in
            defer { kept = [] }; return kept
        }
        for subscription in all { subscription.dispose() }
    }
}

/// A stress test's subscriber thread: subscribes at least `cycles` recorders to `source`, and
/// goes on (up to 20 times as many) while the sender has not sent `count` elements yet. One in
/// four of the first `cycles` subscriptions is kept until the test ends; all others are disposed
/// right after subscribing.
func subscribeRepeatedly<Source: ObservableType & Sendable>(_ source: Source, sent: SentCounter, cycles: Int, until count: Int, results: StressResults)
where Source.Element == Int {
    var trials: [StressTrial] = []
    var kept: [Disposable] = []
    var cycle = 0
    while cycle < cycles || (sent.value < count && cycle < cycles * 20) {
        let recorder = EventRecorder<Int>()
        let before = sent.value
        let subscription = source.subscribe(recorder)
        let after = sent.value
        let keep = cycle < cycles && cycle % 4 == 3
        if keep { kept.append(subscription) } else { subscription.dispose() }
        trials.append(StressTrial(recorder: recorder, kept: keep, sentBefore: before, sentAfter: after))
        cycle += 1
    }
    results.trials.withLock { $0 += trials }
    results.kept.withLock { $0 += kept }
}

/// The stress run the subject and relay tests share: one thread sends `1...count` with `send`
/// (then calls `finish`, if given) while three threads subscribe to `source` over and over
/// (`subscribeRepeatedly`, at least `cycles` times each). Returns the trials, and the
/// subscriptions kept until the end.
func stressSubscribeWhileSending<Source: ObservableType & Sendable>(
    _ source: Source,
    count: Int,
    cycles: Int = 200,
    send: @escaping @Sendable (Int) -> Void,
    finish: (@Sendable () -> Void)? = nil
) -> StressResults where Source.Element == Int {
    let sent = SentCounter()
    let results = StressResults()
    runConcurrently(
        subscribers: 3,
        sender: {
            for value in 1...count {
                send(value)
                sent.set(value)
            }
            finish?()
        },
        subscriber: { _ in
            subscribeRepeatedly(source, sent: sent, cycles: cycles, until: count, results: results)
        })
    return results
}
