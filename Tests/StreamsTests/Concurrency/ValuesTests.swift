import XCTest
import Streams
import StreamsTest

final class ValuesTests: XCTestCase {
    struct TestError: Error {}

    func testValues_elementsThenCompletion() async throws {
        var got: [Int] = []
        for try await element in Observable.of(1, 2, 3).values { got.append(element) }
        XCTAssertEqual(got, [1, 2, 3])
    }

    func testValues_error() async {
        var got: [Int] = []
        do {
            for try await element in Observable.of(1).concat(Observable<Int>.error(TestError())).values { got.append(element) }
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error is TestError)
        }
        XCTAssertEqual(got, [1])
    }

    func testValues_taskCancellationDisposesSubscription() async {
        let disposed = expectation(description: "disposed")
        let subscribed = expectation(description: "subscribed")
        let source = Observable<Int>.create { _ in
            subscribed.fulfill()
            return Disposables.create { disposed.fulfill() }
        }
        let task = Task {
            var count = 0
            do { for try await _ in source.values { count += 1 } } catch { return error is CancellationError ? -1 : count }
            return count
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        let result = await task.value
        // The loop ends without elements: normally, or with CancellationError when the
        // disposal-without-terminal reached the stream first.
        XCTAssertTrue(result == 0 || result == -1, "got \(result)")
    }

    func testValues_leavingLoopDisposes() async throws {
        let disposed = expectation(description: "disposed")
        let source = Observable.of(1, 2, 3).concat(Observable<Int>.never()).do(onDispose: { disposed.fulfill() })
        var got: [Int] = []
        for try await element in source.values {
            got.append(element)
            if element == 2 { break }
        }
        XCTAssertEqual(got, [1, 2])
        await fulfillment(of: [disposed], timeout: 5)
    }

    func testInfallibleValues() async {
        var got: [Int] = []
        for await element in Infallible.of(1, 2).values { got.append(element) }
        XCTAssertEqual(got, [1, 2])
    }

    func testSingleValue() async throws {
        let value = try await Single.just(5).value
        XCTAssertEqual(value, 5)
        do {
            _ = try await Single<Int>.error(TestError()).value
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error is TestError)
        }
    }

    func testSingleValue_cancellation() async {
        let disposed = expectation(description: "disposed")
        let subscribed = expectation(description: "subscribed")
        let single = Single<Int>.create { _ in
            subscribed.fulfill()
            return Disposables.create { disposed.fulfill() }
        }
        let task = Task { () -> Bool in
            do { _ = try await single.value; return false } catch { return error is CancellationError }
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        let threwCancellation = await task.value
        XCTAssertTrue(threwCancellation)
    }

    func testMaybeAndCompletableValue() async throws {
        let some = try await Maybe.just(1).value
        let none = try await Maybe<Int>.empty().value
        XCTAssertEqual(some, 1)
        XCTAssertNil(none)
        try await Completable.empty().value
        do {
            try await Completable.error(TestError()).value
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error is TestError)
        }
    }

    // MARK: value in an already-cancelled task

    /// Runs `body` in a task that is cancelled before `body` starts.
    private func inCancelledTask<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await body()
        }.value
    }

    /// The outcome of awaiting `value` as a string: the value, or `#` and the error's type.
    private static func outcome<T>(_ body: () async throws -> T) async -> String {
        do { return "\(try await body())" } catch { return "#\(type(of: error))" }
    }

    func testValue_finishedDuringSubscribe_winsOverEarlierCancellation() async {
        let outcomes = await inCancelledTask { () -> [String] in
            XCTAssertTrue(Task.isCancelled)
            return [
                await Self.outcome { try await Single.just(5).value },
                await Self.outcome { try await Single<Int>.error(TestError()).value },
                await Self.outcome { try await Maybe.just(1).value },
                await Self.outcome { try await Maybe<Int>.empty().value },
                await Self.outcome { try await Maybe<Int>.error(TestError()).value },
                await Self.outcome { try await Completable.empty().value },
                await Self.outcome { try await Completable.error(TestError()).value },
            ]
        }
        XCTAssertEqual(outcomes, ["5", "#TestError", "Optional(1)", "nil", "#TestError", "()", "#TestError"])
    }

    func testValue_stillRunning_cancelledTaskThrowsCancellationAndDisposes() async {
        let outcomes = await inCancelledTask { () -> [String] in
            let disposals = AsyncEventLog()
            let single = Single<Int>.create { _ in Disposables.create { disposals.append("single") } }
            let maybe = Maybe<Int>.create { _ in Disposables.create { disposals.append("maybe") } }
            let completable = Completable.create { _ in Disposables.create { disposals.append("completable") } }
            let results = [
                await Self.outcome { try await single.value },
                await Self.outcome { try await maybe.value },
                await Self.outcome { try await completable.value },
            ]
            return results + disposals.all
        }
        XCTAssertEqual(outcomes, ["#CancellationError", "#CancellationError", "#CancellationError", "single", "maybe", "completable"])
    }

    func testValue_asynchronousResultInCancelledTask_throwsCancellation() async {
        let outcome = await inCancelledTask {
            await Self.outcome {
                try await Single.just(3).delay(.milliseconds(1), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).value
            }
        }
        XCTAssertEqual(outcome, "#CancellationError")
    }

    func testMaybeAndCompletableValue_cancellationWhileRunning() async {
        let subscribed = expectation(description: "subscribed")
        subscribed.expectedFulfillmentCount = 2
        let disposed = expectation(description: "disposed")
        disposed.expectedFulfillmentCount = 2
        let maybe = Maybe<Int>.create { _ in
            subscribed.fulfill()
            return Disposables.create { disposed.fulfill() }
        }
        let completable = Completable.create { _ in
            subscribed.fulfill()
            return Disposables.create { disposed.fulfill() }
        }
        let maybeTask = Task { () -> Bool in
            do { _ = try await maybe.value; return false } catch { return error is CancellationError }
        }
        let completableTask = Task { () -> Bool in
            do { try await completable.value; return false } catch { return error is CancellationError }
        }
        await fulfillment(of: [subscribed], timeout: 5)
        maybeTask.cancel()
        completableTask.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        let maybeOutcome = await maybeTask.value
        let completableOutcome = await completableTask.value
        XCTAssertTrue(maybeOutcome)
        XCTAssertTrue(completableOutcome)
    }
}
