import Foundation
import Synchronization
import XCTest
import Streams

/// The error the Creating/Transforming tests send and throw.
struct TransformTestError: Error, Equatable {
    var tag = 0
}

extension ObservableType {
    /// This sequence behind a subscription whose disposal calls `disposed`, so a test sees
    /// whether (and how often) an operator disposes what it subscribed.
    func reportingDisposal(_ disposed: @escaping () -> Void) -> Observable<Element> {
        Observable.create { observer in
            let upstream = self.subscribe(observer)
            return Disposables.create {
                upstream.dispose()
                disposed()
            }
        }
    }

    /// Completes after the first `count` elements, built only from Creating/Transforming operators
    /// (`map` + `dematerialize`), so a synchronous source above it must notice it stopped.
    func firstElements(_ count: Int) -> Observable<Element> {
        scan(into: (index: -1, element: Element?.none)) { state, element in
            state.index += 1
            state.element = element
        }
        .map { state -> Event<Element> in state.index < count ? .next(state.element!) : .completed }
        .dematerialize()
    }
}

/// A sequence of 0, 1, 2, … that counts how many elements were pulled from its iterators.
final class CountingNaturals: Sequence, @unchecked Sendable {
    // Safety: `pulled` is atomic; the iterator only touches it through atomic operations.
    let pulled = Atomic<Int>(0)

    struct Iterator: IteratorProtocol {
        let owner: CountingNaturals
        var value = 0
        mutating func next() -> Int? {
            owner.pulled.add(1, ordering: .relaxed)
            defer { value += 1 }
            return value
        }
    }

    func makeIterator() -> Iterator { Iterator(owner: self) }
}

/// A thread-safe observer that checks the grammar and that calls never overlap.
final class GrammarRecorder<Element>: ObserverType, @unchecked Sendable {
    // Safety: all mutable state is in `state` (locked) or atomics.
    private struct State {
        var elements: [Element] = []
        var terminals: [Event<Element>] = []
        var eventsAfterTerminal = 0
    }

    private let state = LockedState(State())
    private let inside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlaps.add(1, ordering: .relaxed)
        }
        let signal = state.withLock { state -> Bool in
            if !state.terminals.isEmpty {
                state.eventsAfterTerminal += 1
                return false
            }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return false
            case .error, .completed:
                state.terminals.append(event)
                return true
            }
        }
        inside.subtract(1, ordering: .acquiringAndReleasing)
        if signal { done.signal() }
    }

    var elements: [Element] { state.withLock { $0.elements } }
    var terminals: [Event<Element>] { state.withLock { $0.terminals } }
    var eventsAfterTerminal: Int { state.withLock { $0.eventsAfterTerminal } }
    var overlappingCalls: Int { overlaps.load(ordering: .relaxed) }

    /// Waits (bounded, so a bug fails instead of hanging) for the terminal event.
    func waitForTerminal(file: StaticString = #filePath, line: UInt = #line) {
        if done.wait(timeout: .now() + 30) == .timedOut {
            XCTFail("no terminal event within 30 s", file: file, line: line)
        }
    }

    /// Asserts one terminal event, nothing after it, and no overlapping calls.
    func assertGrammar(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(terminals.count, 1, "exactly one terminal event", file: file, line: line)
        XCTAssertEqual(eventsAfterTerminal, 0, "no events after the terminal one", file: file, line: line)
        XCTAssertEqual(overlappingCalls, 0, "observer calls must not overlap", file: file, line: line)
    }
}

/// Collects the events of a synchronous subscription.
func collectEvents<Element>(_ source: Observable<Element>) -> (events: [Event<Element>], subscription: Disposable) {
    let events = LockedState([Event<Element>]())
    let subscription = source.subscribe { event in events.withLock { $0.append(event) } }
    return (events.withLock { $0 }, subscription)
}

/// Inner sequences that emit `count` elements and complete on a global dispatch queue, and count
/// how many are subscribed at once.
final class AsyncInnerFactory: @unchecked Sendable {
    // Safety: all mutable state is atomic; `work` is thread-safe.
    let work = DispatchGroup()
    let active = Atomic<Int>(0)
    let maxActive = Atomic<Int>(0)

    /// Holds an observer until the emitting block is done with it.
    private final class ObserverBox: @unchecked Sendable {
        // Safety: only the one dispatch block that emits reads and clears `observer`.
        var observer: AnyObserver<Int>?
        init(_ observer: AnyObserver<Int>) { self.observer = observer }
    }

    func make(_ index: Int, count: Int) -> Observable<Int> {
        Observable.create { [self] observer in
            let now = active.add(1, ordering: .relaxed).newValue
            var seen = maxActive.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = maxActive.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                if exchanged { break }
                seen = original
            }
            let box = ObserverBox(observer)
            work.enter()
            DispatchQueue.global().async { [self] in
                for value in 0..<count { box.observer?.onNext(index * count + value) }
                active.subtract(1, ordering: .relaxed)
                box.observer?.onCompleted()
                box.observer = nil
                work.leave()
            }
            return Disposables.create()
        }
    }
}
