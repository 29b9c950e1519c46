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
    ///   executor. See `Guides/Concurrency.md`.
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
    /// - Note: See `Guides/Concurrency.md`.
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

extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Awaits the `Single`'s element, or throws its error (`CancellationError` when the task is
    /// cancelled first; cancellation disposes the subscription).
    /// - Note: See `Guides/Concurrency.md`.
    public var value: Element {
        get async throws {
            for try await element in primitiveSequence.source.values { return element }
            try Task.checkCancellation()
            throw RxError.noElements
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
    /// Awaits the `Maybe`'s element (`nil` when it completes empty), or throws its error
    /// (`CancellationError` when the task is cancelled first).
    /// - Note: See `Guides/Concurrency.md`.
    public var value: Element? {
        get async throws {
            for try await element in primitiveSequence.source.values { return element }
            try Task.checkCancellation()
            return nil
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the `Completable`'s completion, or throws its error (`CancellationError` when the
    /// task is cancelled first).
    /// - Note: See `Guides/Concurrency.md`.
    public var value: Void {
        get async throws {
            for try await _ in primitiveSequence.source.values {}
            try Task.checkCancellation()
        }
    }
}
