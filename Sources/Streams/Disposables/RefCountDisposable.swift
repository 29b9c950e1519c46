/// Disposes its underlying disposable once it is disposed and every retained handle is disposed too.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    // Safety: `state` is guarded by its lock; disposal happens outside it.
    private struct State {
        var underlying: Disposable?
        var count = 0
        var isPrimaryDisposed = false
    }

    private let state: LockedState<State>

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        state = LockedState(State(underlying: disposable))
    }

    /// Whether the underlying disposable has been disposed.
    public var isDisposed: Bool { state.withLock { $0.underlying == nil } }

    /// Returns a handle that keeps the underlying disposable alive until the handle is disposed.
    public func retain() -> Disposable {
        let live = state.withLock { state -> Bool in
            guard state.underlying != nil else { return false }
            state.count += 1
            return true
        }
        guard live else { return Disposables.create() }
        return Disposables.create { [self] in release() }
    }

    /// Marks the primary as disposed; disposes the underlying when no handle remains.
    public func dispose() {
        let toDispose = state.withLock { state -> Disposable? in
            guard !state.isPrimaryDisposed else { return nil }
            state.isPrimaryDisposed = true
            guard state.count == 0 else { return nil }
            defer { state.underlying = nil }
            return state.underlying
        }
        toDispose?.dispose()
    }

    private func release() {
        let toDispose = state.withLock { state -> Disposable? in
            state.count -= 1
            guard state.count == 0, state.isPrimaryDisposed else { return nil }
            defer { state.underlying = nil }
            return state.underlying
        }
        toDispose?.dispose()
    }
}
