/// Disposes its disposable on a scheduler.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    // Safety: the wrapped disposable is taken out exactly once under the lock.
    private let state: LockedState<Disposable?>
    /// The scheduler on which the disposable is disposed.
    public let scheduler: ImmediateSchedulerType

    /// Wraps `disposable`, to be disposed on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        state = LockedState(disposable)
    }

    /// Whether it has been disposed.
    public var isDisposed: Bool { state.withLock { $0 == nil } }

    /// Schedules the disposal.
    public func dispose() {
        guard let disposable = state.withLock({ state -> Disposable? in defer { state = nil }; return state }) else { return }
        _ = scheduler.schedule(disposable) { disposable in
            disposable.dispose()
            return Disposables.create()
        }
    }
}
