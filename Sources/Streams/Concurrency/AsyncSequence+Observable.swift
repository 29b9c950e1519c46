extension AsyncSequence where Self: Sendable {
    /// An ``Observable`` that iterates the async sequence and emits its elements.
    ///
    ///     sequence: --1--2--3--|        --1--#        --1--2--(disposed)
    ///     output:   --1--2--3--|        --1--#        --1--2--
    ///                                                 (iteration task cancelled)
    ///
    /// Each subscription iterates the sequence once, in its own `Task.detached`, so iteration
    /// never runs on (or inherits the actor of) the subscribing thread. Finishing completes the
    /// observable; a thrown error is sent as `.error`, except `CancellationError`, which
    /// completes it (as in RxSwift). Disposing the subscription cancels the task: iteration
    /// stops at the next suspension point of a cancellation-aware sequence (e.g. `AsyncStream`
    /// finishes and calls its `onTermination`), and in any case before another element is
    /// emitted.
    /// - Parameter priority: The priority of the iterating task; `nil` uses the default.
    /// - Returns: An ``Observable`` of the sequence's elements.
    /// - Note: Requires the sequence to be `Sendable` (it is iterated from a detached task).
    ///   Events are delivered on the concurrency runtime's threads; use ``ObservableType/observe(on:)`` to move
    ///   them. See <doc:Concurrency>.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.create { observer in
            // Safety: the observer wraps this subscription's sink; only the task below sends to
            // it (one event at a time), and the sink's forwardOn tolerates a concurrent dispose.
            let target = UncheckedSendable(observer)
            let task = Task.detached(priority: priority) { [self] in
                // Elements sent after downstream stopped (e.g. `take(1)`, before the disposal
                // reaches the task) are dropped by the sink behind the observer.
                let observer = target.value
                do {
                    for try await element in self {
                        guard !Task.isCancelled else { return }
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch is CancellationError {
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
