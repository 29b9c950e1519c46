/// Disposes its disposable on a scheduler.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    // Safety: the wrapped disposable is taken out exactly once under the lock, then disposed
    // by the scheduled action; `disposed` is an atomic flag.
    private let pending: LockedState<Disposable?>
    private let disposed = AtomicFlag()
    /// The scheduler on which the disposable is disposed.
    public let scheduler: ImmediateSchedulerType

    /// Wraps `disposable`, to be disposed on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        pending = LockedState(disposable)
    }

    /// Whether the wrapped disposable has been disposed (set when the scheduled disposal runs).
    public var isDisposed: Bool { disposed.isSet }

    /// Schedules the disposal on `scheduler` (once; later calls do nothing).
    public func dispose() {
        guard
            let disposable = pending.withLock({ state -> Disposable? in
                defer { state = nil }; return state
            })
        else { return }
        let flag = disposed
        _ = scheduler.schedule(disposable) { disposable in
            _ = flag.set()
            disposable.dispose()
            return Disposables.create()
        }
    }
}
