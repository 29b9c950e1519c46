import Foundation

/// Runs work as operations on an `OperationQueue` (no time-based scheduling, as in RxSwift).
///
/// Each `schedule` adds one `BlockOperation` with `queuePriority`; disposing the returned
/// disposable before the operation starts skips the action (and cancels the operation).
/// Whether actions run concurrently depends on the queue's `maxConcurrentOperationCount`: use
/// ``ObservableType/observe(on:)`` with it only when that is 1. See <doc:Schedulers>.
public class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
    // Safety: both stored properties are immutable; `OperationQueue` is thread-safe.

    /// The queue operations are added to.
    public let operationQueue: OperationQueue

    /// The priority of the operations this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// Creates a scheduler that adds operations of `queuePriority` to `operationQueue`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation that runs `action` with `state`.
    ///
    /// - Returns: A disposable that skips the action if it has not started, and disposes what the
    ///   action returned otherwise.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // Safety: ownership of the state and the action passes to the operation, which runs once;
        // the caller keeps no reference to them.
        let work = UncheckedSendable((state, action))
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        // Safety: `Operation.cancel()` is thread-safe; the reference only crosses to the disposer.
        let cancellable = UncheckedSendable(operation)
        return Disposables.create(cancel, Disposables.create { cancellable.value.cancel() })
    }
}
