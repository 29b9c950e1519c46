import XCTest
import Foundation
import Synchronization
import Streams

/// An observer for multi-thread tests: records events, fails on overlapping calls or on a
/// broken grammar (`next* (error | completed)?`), and fulfills `terminated` on the terminal event.
final class ConcurrencyCheckingObserver<Element>: ObserverType, @unchecked Sendable {
    // Safety: `events` is guarded by its lock; the flags are atomics.
    private let inFlight = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    private let afterTerminal = Atomic<Int>(0)
    private let terminals = Atomic<Int>(0)
    private let recorded = LockedState([Event<Element>]())
    let terminated: XCTestExpectation

    init(_ terminated: XCTestExpectation) {
        self.terminated = terminated
    }

    func on(_ event: Event<Element>) {
        if inFlight.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            overlaps.add(1, ordering: .relaxed)
        }
        if terminals.load(ordering: .acquiring) > 0 {
            afterTerminal.add(1, ordering: .relaxed)
        }
        recorded.withLock { $0.append(event) }
        inFlight.subtract(1, ordering: .acquiringAndReleasing)
        if event.isStopEvent {
            terminals.add(1, ordering: .acquiringAndReleasing)
            terminated.fulfill()
        }
    }

    var events: [Event<Element>] { recorded.withLock { $0 } }
    var elements: [Element] { events.compactMap(\.element) }

    /// Asserts no overlapping calls, nothing after the terminal event, and exactly one terminal.
    func assertGrammar(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(overlaps.load(ordering: .acquiring), 0, "observer called concurrently", file: file, line: line)
        XCTAssertEqual(afterTerminal.load(ordering: .acquiring), 0, "event after the terminal event", file: file, line: line)
        XCTAssertEqual(terminals.load(ordering: .acquiring), 1, "expected exactly one terminal event", file: file, line: line)
        XCTAssertEqual(events.last?.isStopEvent, true, "the last event must be terminal", file: file, line: line)
    }
}

/// A thread-safe box for test bookkeeping.
final class ThreadSafeTestBox<Value>: @unchecked Sendable {
    // Safety: `value` is only accessed under the lock.
    private let state: LockedState<Value>
    init(_ value: Value) { state = LockedState(value) }
    var value: Value { state.withLock { $0 } }
    func mutate<R>(_ body: (inout Value) -> R) -> R { state.withLock(body) }
}

/// Whether `sub` appears in `sequence` in order (not necessarily contiguously).
func isOrderedSubsequence<T: Equatable>(_ sub: [T], of sequence: [T]) -> Bool {
    var iterator = sequence.makeIterator()
    outer: for wanted in sub {
        while let next = iterator.next() {
            if next == wanted { continue outer }
        }
        return false
    }
    return true
}

/// Hands a non-Sendable value to another thread in a test.
struct UncheckedSendableTestBox<Value>: @unchecked Sendable {
    // Safety: tests only hand over values that are used by one thread at a time (observers
    // whose calls the operator under test serializes).
    let value: Value
}
