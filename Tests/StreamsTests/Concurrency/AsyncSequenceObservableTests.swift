import Foundation
import Synchronization
import XCTest
import Streams
import StreamsTest

final class AsyncSequenceObservableTests: XCTestCase {
    func testAsObservable_elementsThenCompletion() async {
        let stream = AsyncStream<Int> { continuation in
            for element in 1...3 { continuation.yield(element) }
            continuation.finish()
        }
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = stream.asObservable().subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "2", "3", "|"])
        subscription.dispose()
    }

    func testAsObservable_empty() async {
        let stream = AsyncStream<Int> { $0.finish() }
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = stream.asObservable().subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["|"])
        subscription.dispose()
    }

    func testAsObservable_error() async {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: AsyncTestError())
        }
        let log = AsyncEventLog()
        let done = expectation(description: "errored")
        let subscription = stream.asObservable().subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "#e"])
        subscription.dispose()
    }

    func testAsObservable_cancellationErrorCompletes() async {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: CancellationError())
        }
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = stream.asObservable().subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "|"])
        subscription.dispose()
    }

    func testAsObservable_disposeStopsIteration() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = expectation(description: "source terminated")
        let termination = AsyncEventLog()
        continuation.onTermination = { reason in
            termination.append("\(reason)")
            terminated.fulfill()
        }
        let log = AsyncEventLog()
        let first = expectation(description: "first element")
        let subscription = stream.asObservable().subscribe { event in
            log.record(event)
            if case .next(1) = event { first.fulfill() }
        }
        continuation.yield(1)
        await fulfillment(of: [first], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [terminated], timeout: 5)
        XCTAssertEqual(termination.all, ["cancelled"])
        // The source is finished: later elements are not accepted, let alone emitted.
        if case .terminated = continuation.yield(2) {} else { XCTFail("the stream should be terminated") }
        XCTAssertEqual(log.all, ["1"])
    }

    func testAsObservable_disposeBeforeFirstElement() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = expectation(description: "source terminated")
        continuation.onTermination = { _ in terminated.fulfill() }
        let log = AsyncEventLog()
        let subscription = stream.asObservable().subscribe { log.record($0) }
        subscription.dispose()
        await fulfillment(of: [terminated], timeout: 5)
        XCTAssertEqual(log.all, [])
    }

    func testAsObservable_cancellationUnawareSequenceStopsAfterDisposal() async {
        // The sequence never checks cancellation; take(1) disposes the subscription once it has
        // its element. The loop may fetch more elements before the cancellation reaches its
        // task (how many depends on thread timing), but none of them is emitted, and the loop
        // stops at the first element after the cancellation.
        let counter = Counter()
        let stopped = expectation(description: "iterator released")
        counter.onIteratorEnd = { stopped.fulfill() }
        let log = AsyncEventLog()
        let subscription = CountingSequence(counter: counter).asObservable().take(1).subscribe { log.record($0) }
        await fulfillment(of: [stopped], timeout: 5)
        XCTAssertEqual(log.all, ["1", "|"])
        XCTAssertGreaterThanOrEqual(counter.produced, 2)
        subscription.dispose()
    }

    func testAsObservable_runsOffTheCallersThread() {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.finish()
        }
        XCTAssertTrue(Thread.isMainThread)
        let onMain = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = stream.asObservable().subscribe(
            onNext: { _ in onMain.append("\(Thread.isMainThread)") },
            onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(onMain.all, ["false"])
        subscription.dispose()
    }

    func testAsObservable_priority() async {
        let seen = PrioritySeen()
        let done = expectation(description: "completed")
        let sequence = PrioritySpy(seen: seen)
        let subscription = sequence.asObservable(priority: .low).subscribe(onCompleted: { done.fulfill() })
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(seen.priority, .low)
        subscription.dispose()
    }

    func testAsObservable_eachSubscriptionIterates() async {
        let log = AsyncEventLog()
        let done = expectation(description: "both completed")
        done.expectedFulfillmentCount = 2
        let source = CountingSequence(counter: Counter(), limit: 2).asObservable()
        let first = source.subscribe { event in
            log.append("a\(event.element.map { "\($0)" } ?? (event.isStopEvent ? "|" : ""))")
            if event.isStopEvent { done.fulfill() }
        }
        let second = source.subscribe { event in
            log.append("b\(event.element.map { "\($0)" } ?? (event.isStopEvent ? "|" : ""))")
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all.filter { $0.hasPrefix("a") }, ["a1", "a2", "a|"])
        XCTAssertEqual(log.all.filter { $0.hasPrefix("b") }, ["b1", "b2", "b|"])
        first.dispose()
        second.dispose()
    }

    func testAsObservable_noLeaksAfterCompletion() {
        XCTAssertNoLeaksEventually {
            let done = expectation(description: "completed")
            let stream = AsyncStream<Int> { continuation in
                continuation.yield(1)
                continuation.finish()
            }
            let subscription = stream.asObservable().map { $0 + 1 }.subscribe(onCompleted: { done.fulfill() })
            wait(for: [done], timeout: 5)
            subscription.dispose()
        }
    }

    func testAsObservable_noLeaksAfterDisposal() {
        XCTAssertNoLeaksEventually {
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let terminated = expectation(description: "source terminated")
            continuation.onTermination = { _ in terminated.fulfill() }
            let first = expectation(description: "first element")
            let subscription = stream.asObservable().map { $0 + 1 }.subscribe(onNext: { _ in first.fulfill() })
            continuation.yield(1)
            wait(for: [first], timeout: 5)
            subscription.dispose()
            wait(for: [terminated], timeout: 5)
        }
    }
}

final class Counter: @unchecked Sendable {
    // Safety: `count` is only accessed under its lock (LockedState: visible to ThreadSanitizer); `onIteratorEnd` is set before the
    // sequence is subscribed and only read afterwards.
    private let count = LockedState(0)
    var onIteratorEnd: @Sendable () -> Void = {}

    var produced: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Produces 1, 2, ... up to `limit` without ever checking for cancellation.
private struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let counter: Counter
    var limit = Int.max

    final class AsyncIterator: AsyncIteratorProtocol {
        var current = 0
        let limit: Int
        let counter: Counter
        init(limit: Int, counter: Counter) {
            self.limit = limit
            self.counter = counter
        }
        deinit { counter.onIteratorEnd() }
        func next() async -> Int? {
            guard current < limit else { return nil }
            current += 1
            counter.increment()
            return current
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit, counter: counter) }
}

/// Records the priority of the task that iterates it; produces nothing.
private struct PrioritySpy: AsyncSequence, Sendable {
    typealias Element = Int
    let seen: PrioritySeen

    struct AsyncIterator: AsyncIteratorProtocol {
        let seen: PrioritySeen
        func next() async -> Int? {
            seen.set(Task.currentPriority)
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(seen: seen) }
}

final class PrioritySeen: Sendable {
    private let value = LockedState<TaskPriority?>(nil)
    var priority: TaskPriority? { value.withLock { $0 } }
    func set(_ priority: TaskPriority) { value.withLock { $0 = priority } }
}
