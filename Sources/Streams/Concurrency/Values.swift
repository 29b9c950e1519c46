extension ObservableConvertibleType where Element: Sendable {
    /// The sequence's elements as an `AsyncThrowingStream`.
    ///
    ///     for try await element in observable.values { ... }
    ///
    /// Each iteration subscribes once. The stream finishes when the sequence completes, throws
    /// its error, and throws `CancellationError` if the subscription is disposed without a
    /// terminal event. Cancelling the iterating task, or leaving the loop, disposes the
    /// subscription. Elements are buffered without bound until the loop consumes them.
    /// - Note: The observable runs on its own schedulers; the loop resumes on the task's
    ///   executor. See <doc:Concurrency>.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream { continuation in
            let subscription = asObservable().subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() },
                onDisposed: { continuation.finish(throwing: CancellationError()) }
            )
            // Safety: disposables are thread-safe (lock-protected); dispose() may run on any thread.
            let disposable = UncheckedSendable(subscription)
            continuation.onTermination = { _ in disposable.value.dispose() }
        }
    }
}

extension Infallible where Element: Sendable {
    /// The sequence's elements as an `AsyncStream`; it finishes when the sequence completes or
    /// its subscription is disposed. Cancelling the iterating task disposes the subscription.
    /// - Note: See <doc:Concurrency>.
    public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = subscribe(
                onNext: { continuation.yield($0) },
                onCompleted: { continuation.finish() },
                onDisposed: { continuation.finish() }
            )
            // Safety: disposables are thread-safe (lock-protected); dispose() may run on any thread.
            let disposable = UncheckedSendable(subscription)
            continuation.onTermination = { _ in disposable.value.dispose() }
        }
    }
}

// The traits' `value` getters are `nonisolated(nonsending)` (Swift 6.2): they run on the caller's
// executor, so main-actor code (an async `@main`, a `@MainActor` view model) can await a trait it
// holds without sending it to another executor.

extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Awaits the ``Single``'s element, or throws its error.
    ///
    /// Cancelling the task disposes the subscription and throws `CancellationError` while the
    /// ``Single`` is still running; one that already succeeded or failed during `subscribe` (e.g.
    /// `Single.just`) gives its result even in an already-cancelled task, as in RxSwift. Runs on
    /// the caller's executor, so it can be awaited from the main actor.
    /// - Note: See <doc:Concurrency>.
    nonisolated(nonsending) public var value: Element {
        get async throws { try await awaitOutcome(singleOutcome) }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
    /// Awaits the ``Maybe``'s element (`nil` when it completes empty), or throws its error.
    ///
    /// Cancelling the task disposes the subscription and throws `CancellationError` while the
    /// ``Maybe`` is still running; one that already finished during `subscribe` gives its result
    /// even in an already-cancelled task, as in RxSwift. Runs on the caller's executor, so it can
    /// be awaited from the main actor.
    /// - Note: See <doc:Concurrency>.
    nonisolated(nonsending) public var value: Element? {
        get async throws { try await awaitOutcome(maybeOutcome) }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the ``Completable``'s completion, or throws its error.
    ///
    /// Cancelling the task disposes the subscription and throws `CancellationError` while the
    /// ``Completable`` is still running; one that already finished during `subscribe` gives its
    /// result even in an already-cancelled task, as in RxSwift. Runs on the caller's executor, so
    /// it can be awaited from the main actor.
    /// - Note: See <doc:Concurrency>.
    nonisolated(nonsending) public var value: Void {
        get async throws { try await awaitOutcome(completableOutcome) }
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Subscribes, reporting the ``Single``'s outcome (or `CancellationError` on disposal) to `finish`.
    func singleOutcome(_ finish: @escaping (Result<Element, Swift.Error>) -> Void) -> Disposable {
        primitiveSequence.subscribe(
            onSuccess: { finish(.success($0)) },
            onFailure: { finish(.failure($0)) },
            onDisposed: { finish(.failure(CancellationError())) }
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
    /// Subscribes, reporting the ``Maybe``'s outcome (or `CancellationError` on disposal) to `finish`.
    func maybeOutcome(_ finish: @escaping (Result<Element?, Swift.Error>) -> Void) -> Disposable {
        primitiveSequence.subscribe(
            onSuccess: { finish(.success($0)) },
            onError: { finish(.failure($0)) },
            onCompleted: { finish(.success(nil)) },
            onDisposed: { finish(.failure(CancellationError())) }
        )
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes, reporting the ``Completable``'s outcome (or `CancellationError` on disposal) to `finish`.
    func completableOutcome(_ finish: @escaping (Result<Void, Swift.Error>) -> Void) -> Disposable {
        primitiveSequence.subscribe(
            onCompleted: { finish(.success(())) },
            onError: { finish(.failure($0)) },
            onDisposed: { finish(.failure(CancellationError())) }
        )
    }
}

/// Subscribes with `subscribe` and awaits the first outcome it reports through `finish`.
///
/// Task cancellation disposes the subscription (so `onDisposed` reports `CancellationError`).
/// In an already-cancelled task the subscription is disposed as soon as `subscribe` returns: a
/// sequence that finished during `subscribe` has reported its outcome by then, and that outcome
/// wins, as in RxSwift.
nonisolated(nonsending) private func awaitOutcome<Value: Sendable>(
    _ subscribe: (_ finish: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable
) async throws -> Value {
    let subscription = SingleAssignmentDisposable()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Swift.Error>) in
            let outcome = OneOutcome(continuation)
            subscription.setDisposable(subscribe { outcome.resume($0) })
        }
    } onCancel: {
        subscription.dispose()
    }
}

/// Resumes a continuation with the first result it is given and ignores the rest.
private final class OneOutcome<Value: Sendable>: Sendable {
    private let continuation: LockedState<CheckedContinuation<Value, Swift.Error>?>

    init(_ continuation: CheckedContinuation<Value, Swift.Error>) {
        self.continuation = LockedState(continuation)
    }

    func resume(_ result: Result<Value, Swift.Error>) {
        // Take it under the lock, resume after (never resume while holding the lock).
        let first = continuation.withLock { $0.take() }
        first?.resume(with: result)
    }
}
