import Dispatch
import Streams
import Synchronization
import XCTest

/// Helpers shared by the Combining and Filtering tests.
enum CombiningSupport {
    enum TestError: Error, Equatable {
        case first, second, selector
    }

    /// An observer that records events from any thread and measures how many of its `on` calls
    /// overlap (the grammar requires at most one at a time).
    final class ConcurrencyProbe<Element>: ObserverType, @unchecked Sendable {
        // Safety: the counters are atomics and `recorded` is only touched under its lock.
        private let inFlight = Atomic<Int>(0)
        private let maxInFlight = Atomic<Int>(0)
        private let recorded = LockedState([Event<Element>]())

        func on(_ event: Event<Element>) {
            let now = inFlight.add(1, ordering: .acquiringAndReleasing).newValue
            var seen = maxInFlight.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = maxInFlight.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                if exchanged { break }
                seen = original
            }
            recorded.withLock { $0.append(event) }
            // Stay "in flight" a little longer so that an overlapping call would be noticed.
            for _ in 0..<200 { _ = inFlight.load(ordering: .relaxed) }
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
        }

        /// Every event received, in delivery order.
        var events: [Event<Element>] { recorded.withLock { $0 } }

        /// The largest number of `on` calls that ever ran at the same time.
        var maxConcurrentCalls: Int { maxInFlight.load(ordering: .relaxed) }

        /// The elements received.
        var elements: [Element] { events.compactMap(\.element) }

        /// The number of terminal events received.
        var terminalCount: Int { events.filter(\.isStopEvent).count }
    }

    /// Carries a value into a `@Sendable` closure in tests.
    struct Unchecked<Value>: @unchecked Sendable {
        // Safety: used only where the test hands the value to exactly one other thread.
        let value: Value
    }

    /// Runs `work(index)` for `0..<threads` on as many threads at once.
    static func concurrently(_ threads: Int, _ work: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: threads, execute: work)
    }
}
