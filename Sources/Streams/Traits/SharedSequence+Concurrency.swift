// `Driver`/`Signal` to async/await, as RxCocoa's `SharedSequence+Concurrency.swift`.

extension SharedSequence where Element: Sendable {
    /// The shared sequence's elements as an `AsyncStream` (it cannot fail, so the stream does not
    /// throw).
    ///
    ///     for await value in driver.values { ... }
    ///
    /// Each iteration subscribes once; the stream finishes when the sequence completes or its
    /// subscription is disposed. Cancelling the iterating task, or leaving the loop, disposes the
    /// subscription. Main-actor isolated, as in RxCocoa, because drivers are consumed on the main
    /// thread.
    /// - Note: Elements arrive on the sharing scheduler; the loop resumes on the main actor.
    ///   See <doc:Concurrency>.
    @MainActor public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = source.subscribe(
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
