import Foundation
import XCTest
import Streams
import StreamsTest

final class AsyncCreateTests: XCTestCase {
    // MARK: Observable.create(detached:priority:work:)

    func testCreate_elementsThenCompletion() async {
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = Observable<Int>.create { observer in
            observer(1)
            await Task.yield()
            observer(2)
        }.subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "2", "|"])
        subscription.dispose()
    }

    func testCreate_empty() async {
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = Observable<Int>.create { (_: Observable<Int>.ElementObserver<Int>) async throws in }
            .subscribe { event in
                log.record(event)
                if event.isStopEvent { done.fulfill() }
            }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["|"])
        subscription.dispose()
    }

    func testCreate_error() async {
        let log = AsyncEventLog()
        let done = expectation(description: "errored")
        let subscription = Observable<Int>.create { observer in
            observer(1)
            throw AsyncTestError()
        }.subscribe { event in
            log.record(event)
            if event.isStopEvent { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "#e"])
        subscription.dispose()
    }

    func testCreate_disposeCancelsTheTask() async {
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let log = AsyncEventLog()
        let first = expectation(description: "first element")
        let workEnded = expectation(description: "work saw the cancellation")
        let subscription = Observable<Int>.create { observer in
            observer(1)
            for await _ in gate {}  // ends when the task is cancelled
            XCTAssertTrue(Task.isCancelled)
            observer(2)  // dropped
            workEnded.fulfill()
        }.subscribe { event in
            log.record(event)
            if case .next(1) = event { first.fulfill() }
        }
        await fulfillment(of: [first], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [workEnded], timeout: 5)
        XCTAssertEqual(log.all, ["1"])
        gateContinuation.finish()
    }

    func testCreate_cancellationErrorAfterDisposeIsDropped() async {
        let log = AsyncEventLog()
        let started = expectation(description: "started")
        let threw = expectation(description: "work threw")
        let subscription = Observable<Int>.create { _ in
            do {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, Error>) in
                    Self.parked.append(continuation)
                    started.fulfill()
                }
            } catch {
                threw.fulfill()
                throw error
            }
        }.subscribe { log.record($0) }
        await fulfillment(of: [started], timeout: 5)
        subscription.dispose()
        Self.parked.resumeAll(throwing: CancellationError())
        await fulfillment(of: [threw], timeout: 5)
        XCTAssertEqual(log.all, [])
    }

    func testCreate_detachedWithPriority() async {
        let seen = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = Observable<Int>.create(detached: true, priority: .low) { observer in
            seen.append("\(Task.currentPriority == .low)")
            observer(1)
        }.subscribe(onCompleted: { done.fulfill() })
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(seen.all, ["true"])
        subscription.dispose()
    }

    func testCreate_eachSubscriptionRunsWork() async {
        let runs = AsyncEventLog()
        let done = expectation(description: "both completed")
        done.expectedFulfillmentCount = 2
        let source = Observable<Int>.create { observer in
            runs.append("run")
            observer(1)
        }
        let first = source.subscribe(onCompleted: { done.fulfill() })
        let second = source.subscribe(onCompleted: { done.fulfill() })
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(runs.all, ["run", "run"])
        first.dispose()
        second.dispose()
    }

    func testCreate_synchronousCreateIsStillPreferred() {
        // The async overloads are disfavoured: existing trailing-closure code keeps its meaning.
        var events: [Int] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(7)
            observer.onCompleted()
            return Disposables.create()
        }.subscribe(onNext: { events.append($0) })
        var result: Int?
        _ = Single<Int>.create { single in
            single(.success(8))
            return Disposables.create()
        }.subscribe(onSuccess: { result = $0 })
        XCTAssertEqual(events, [7])
        XCTAssertEqual(result, 8)
    }

    func testCreate_noLeaks() {
        XCTAssertNoLeaksEventually {
            let done = expectation(description: "completed")
            let subscription = Observable<Int>.create { observer in observer(1) }
                .map { $0 * 2 }
                .subscribe(onCompleted: { done.fulfill() })
            wait(for: [done], timeout: 5)
            subscription.dispose()
        }
        XCTAssertNoLeaksEventually {
            let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
            let ended = expectation(description: "work ended")
            let subscription = Observable<Int>.create { _ in
                for await _ in gate {}
                ended.fulfill()
            }.subscribe()
            subscription.dispose()
            wait(for: [ended], timeout: 5)
            gateContinuation.finish()
        }
    }

    // MARK: Single.create(detached:priority:work:)

    func testSingleCreate_success() async throws {
        let single = Single<Int>.create { () async throws -> Int in
            await Task.yield()
            return 42
        }
        let value = try await single.value
        XCTAssertEqual(value, 42)
    }

    func testSingleCreate_failure() async {
        let log = AsyncEventLog()
        let done = expectation(description: "failed")
        let subscription = Single<Int>.create { () async throws -> Int in throw AsyncTestError() }
            .subscribe { result in
                switch result {
                case .success(let element): log.append("\(element)")
                case .failure(let error): log.append("#\(error)")
                }
                done.fulfill()
            }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["#e"])
        subscription.dispose()
    }

    func testSingleCreate_disposeCancelsTheTask() async {
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let started = expectation(description: "started")
        let workEnded = expectation(description: "work saw the cancellation")
        let log = AsyncEventLog()
        let subscription = Single<Int>.create(detached: true) { () async throws -> Int in
            started.fulfill()
            for await _ in gate {}
            workEnded.fulfill()
            try Task.checkCancellation()
            return 1
        }.subscribe { log.append("\($0)") }
        await fulfillment(of: [started], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [workEnded], timeout: 5)
        XCTAssertEqual(log.all, [])
        gateContinuation.finish()
    }

    func testSingleCreate_taskCancellationOfAwaiterCancelsWork() async {
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let started = expectation(description: "started")
        let workEnded = expectation(description: "work cancelled")
        let single = Single<Int>.create { () async throws -> Int in
            started.fulfill()
            for await _ in gate {}
            workEnded.fulfill()
            try Task.checkCancellation()
            return 1
        }
        let awaiting = Task { try await single.value }
        await fulfillment(of: [started], timeout: 5)
        awaiting.cancel()
        await fulfillment(of: [workEnded], timeout: 5)
        do {
            _ = try await awaiting.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        gateContinuation.finish()
    }

    func testSingleCreate_noLeaks() {
        XCTAssertNoLeaksEventually {
            let done = expectation(description: "succeeded")
            let subscription = Single<Int>.create { () async throws -> Int in 1 }
                .map { $0 + 1 }
                .subscribe(onSuccess: { _ in done.fulfill() })
            wait(for: [done], timeout: 5)
            subscription.dispose()
        }
    }

    // MARK: Infallible.create(detached:priority:work:)

    func testInfallibleCreate_elementsThenCompletion() async {
        let log = AsyncEventLog()
        let done = expectation(description: "completed")
        let subscription = Infallible<Int>.create { observer in
            observer(1)
            observer(2)
        }.subscribe(
            onNext: { log.append("\($0)") },
            onCompleted: {
                log.append("|")
                done.fulfill()
            })
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.all, ["1", "2", "|"])
        subscription.dispose()
    }

    private static let parked = ParkedContinuations()
}

/// Continuations parked by a work closure until the test resumes them.
final class ParkedContinuations: @unchecked Sendable {
    // Safety: `continuations` is only accessed under `lock`.
    private let lock = NSLock()
    private var continuations: [UnsafeContinuation<Void, Error>] = []

    func append(_ continuation: UnsafeContinuation<Void, Error>) {
        lock.lock(); defer { lock.unlock() }
        continuations.append(continuation)
    }

    func resumeAll(throwing error: Error) {
        lock.lock()
        let pending = continuations
        continuations = []
        lock.unlock()
        for continuation in pending { continuation.resume(throwing: error) }
    }
}
