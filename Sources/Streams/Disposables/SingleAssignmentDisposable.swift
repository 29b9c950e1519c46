/// Holds one disposable that is assigned once; disposing before assignment disposes it on arrival.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    // Safety: `state` is guarded by its lock; disposal happens outside it.
    private struct State {
        var current: Disposable?
        var isAssigned = false
        var isDisposed = false
    }

    private let state = LockedState(State())

    /// Creates an unassigned disposable.
    public init() {}

    /// Whether it has been disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Assigns the disposable. Assigning twice is a programmer error and stops the program.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            precondition(!state.isAssigned, "SingleAssignmentDisposable.setDisposable called twice")
            state.isAssigned = true
            if state.isDisposed { return true }
            state.current = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the assigned disposable (now or when it arrives).
    public func dispose() {
        let current = state.withLock { state -> Disposable? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
