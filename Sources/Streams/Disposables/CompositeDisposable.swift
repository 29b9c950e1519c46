/// A group of disposables disposed together.
///
/// Disposables added after the group was disposed are disposed at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    // Safety: all mutable state lives in `state`, guarded by its lock; disposables are
    // only disposed after being removed from the state, outside the lock.
    private struct State {
        var disposables: [UInt64: Disposable]? = [:]
        var nextKey: UInt64 = 0
    }

    /// A key that removes one disposable from the group.
    public struct DisposeKey: Hashable, Sendable {
        let value: UInt64
    }

    private let state = LockedState(State())

    /// Creates an empty group.
    public init() {}

    /// Creates a group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        _ = insert(disposable1)
        _ = insert(disposable2)
    }

    /// Creates a group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        _ = insert(disposable1)
        _ = insert(disposable2)
        _ = insert(disposable3)
    }

    /// Creates a group of four or more.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables { _ = insert(disposable) }
    }

    /// Creates a group of several.
    public init(disposables: [Disposable]) {
        for disposable in disposables { _ = insert(disposable) }
    }

    /// Whether the group has been disposed.
    public var isDisposed: Bool { state.withLock { $0.disposables == nil } }

    /// The number of disposables in the group.
    public var count: Int { state.withLock { $0.disposables?.count ?? 0 } }

    /// Adds `disposable`; returns its key, or `nil` (after disposing it) if the group is disposed.
    @discardableResult
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key = state.withLock { state -> DisposeKey? in
            guard state.disposables != nil else { return nil }
            let key = DisposeKey(value: state.nextKey)
            state.nextKey &+= 1
            state.disposables![key.value] = disposable
            return key
        }
        if key == nil { disposable.dispose() }
        return key
    }

    /// Removes and disposes the disposable for `disposeKey`.
    public func remove(for disposeKey: DisposeKey) {
        state.withLock { $0.disposables?.removeValue(forKey: disposeKey.value) }?.dispose()
    }

    /// Disposes every disposable in the group.
    public func dispose() {
        let all = state.withLock { state -> [UInt64: Disposable]? in
            defer { state.disposables = nil }
            return state.disposables
        }
        guard let all else { return }
        for key in all.keys.sorted() { all[key]!.dispose() }
    }
}
