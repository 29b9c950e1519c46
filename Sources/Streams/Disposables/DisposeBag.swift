/// Collects subscriptions and disposes them all when the bag is deallocated.
///
/// Unlike RxSwift's bag, inserting prunes entries that are already disposed
/// (`Cancelable.isDisposed`), so a long-lived bag does not grow with finished work.
public final class DisposeBag: @unchecked Sendable {
    // Safety: `state` is guarded by its lock; disposal happens outside it.
    private struct State {
        var disposables: [Disposable] = []
        var isDisposed = false
        var insertionsSincePrune = 0
    }

    private let state = LockedState(State())

    /// Creates an empty bag.
    public init() {}

    /// Creates a bag holding `disposables`.
    public init(disposing disposables: Disposable...) {
        for disposable in disposables { insert(disposable) }
    }

    /// Creates a bag holding `disposables`.
    public init(disposing disposables: [Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    /// Adds `disposable`; if the bag is already disposed, disposes it at once.
    public func insert(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.insertionsSincePrune += 1
            if state.insertionsSincePrune >= 32 && state.insertionsSincePrune >= state.disposables.count {
                state.disposables.removeAll { ($0 as? Cancelable)?.isDisposed == true }
                state.insertionsSincePrune = 0
            }
            state.disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Adds several disposables.
    public func insert(_ disposables: Disposable...) {
        for disposable in disposables { insert(disposable) }
    }

    /// The number of disposables held (including ones already disposed but not yet pruned).
    public var count: Int { state.withLock { $0.disposables.count } }

    deinit {
        let all = state.withLock { state -> [Disposable] in
            state.isDisposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
        for disposable in all { disposable.dispose() }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
