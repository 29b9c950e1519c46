/// Collects subscriptions and disposes them all when the bag is deallocated.
///
/// Disposables are disposed in insertion order; one inserted into a bag that is being
/// deallocated is disposed at once. Unlike RxSwift's bag, inserting now and then prunes entries
/// that have already finished (a ``Cancelable`` whose `isDisposed` is true, or
/// `Disposables.create()`), so a long-lived bag does not grow with completed work: its size
/// stays within about twice the number of live entries (at least 32). See <doc:DisposablesGuide>.
public final class DisposeBag: @unchecked Sendable {
    // Safety: `state` is guarded by its lock. Entries are disposed, and `isDisposed` of entries
    // is read during pruning, only outside the lock.
    private struct State {
        var disposables: [Entry] = []
        var isDisposed = false
        /// Cancelable entries inserted since the last prune (only they can be found finished).
        var cancelablesSincePrune = 0
        var keptAtLastPrune = 0
        /// Entries taken out by a prune in progress (still owned by the bag).
        var pruning = 0
    }

    private enum InsertOutcome {
        case stored
        case disposeNow
        case prune([Entry])
    }

    /// A held disposable, classified once when inserted (so pruning makes no dynamic casts).
    private enum Entry {
        /// Never reported finished, so never pruned.
        case plain(Disposable)
        /// Pruned once `isDisposed`.
        case cancelable(Cancelable)
        /// A slot whose entry `deinit` has moved out to dispose (nothing to release).
        case spent

        /// Classifies `disposable`; `nil` for one that does nothing when disposed.
        init?(_ disposable: Disposable) {
            let type = type(of: disposable)
            // A subject's subscription (the most common entry) is a known plain value: no cast.
            if type == SubjectSubscription.self {
                self = .plain(disposable)
            } else if type == NopDisposable.self {
                return nil
            } else if let cancelable = disposable as? Cancelable {
                self = .cancelable(cancelable)
            } else {
                self = .plain(disposable)
            }
        }

        var isFinished: Bool {
            if case .cancelable(let cancelable) = self { return cancelable.isDisposed }
            return false
        }

        /// Whether a prune may find this entry finished.
        var isCancelable: Bool {
            if case .cancelable = self { return true }
            return false
        }

        /// Disposes the held disposable (consuming the entry: its payload is moved out, not copied).
        consuming func dispose() {
            switch self {
            case .plain(let disposable): disposable.dispose()
            case .cancelable(let cancelable): cancelable.dispose()
            case .spent: break
            }
        }
    }

    private static var pruneThreshold: Int { 32 }

    private let state = LockedState(State())

    /// Creates an empty bag.
    public init() {}

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// Creates a bag holding the disposables listed in `builder`.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds `disposable`; if the bag is already being deallocated, disposes it at once.
    public func insert(_ disposable: Disposable) {
        // Only cancelable entries can be found finished, so only they count towards the next
        // prune: a bag of plain entries (subjects' subscriptions) is never copied to be pruned.
        // Each prune keeps at least the entries it found live, and runs after that many cancelable
        // insertions at the least: O(1) amortized per insertion, and the bag stays within about
        // twice its live entries.
        let outcome = state.withLock { state -> InsertOutcome in
            if state.isDisposed { return .disposeNow }
            // Classified here (a type comparison, or a cast; no call out), so that the entry is
            // moved into the array rather than copied out of a capture through its value witnesses.
            guard let entry = Entry(disposable) else { return .stored }  // `Disposables.create()`: nothing to hold
            let isCancelable = entry.isCancelable
            state.disposables.append(entry)
            guard isCancelable else { return .stored }
            state.cancelablesSincePrune += 1
            guard state.pruning == 0,
                state.cancelablesSincePrune >= max(Self.pruneThreshold, state.keptAtLastPrune)
            else { return .stored }
            let taken = state.disposables
            state.disposables = []
            state.pruning = taken.count
            state.cancelablesSincePrune = 0
            return .prune(taken)
        }
        switch outcome {
        case .stored:
            break
        case .disposeNow:
            disposable.dispose()
        case .prune(let taken):
            let kept = taken.filter { !$0.isFinished }
            state.withLock { state in
                state.disposables = kept + state.disposables
                state.keptAtLastPrune = kept.count
                state.pruning = 0
            }
        }
    }

    /// Adds several disposables.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds an array of disposables.
    public func insert(_ disposables: [Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    /// Adds the disposables listed in `builder`.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// The number of disposables held (including finished ones not yet pruned; `Disposables.create()`,
    /// which does nothing when disposed, is not held).
    public var count: Int { state.withLock { $0.disposables.count + $0.pruning } }

    /// Collects a list of disposables for `DisposeBag(builder:)` and `insert(builder:)`.
    @resultBuilder
    public struct DisposableBuilder {
        /// Returns the listed disposables.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }

    deinit {
        var all = state.withLock { state -> [Entry] in
            state.isDisposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
        // Moved out one by one, in insertion order, each slot left `.spent` (trivial to destroy):
        // neither an iterator nor `reverse()` + `popLast()`, which copied every entry through the
        // value witnesses of its disposable.
        all.withUnsafeMutableBufferPointer { entries in
            guard let base = entries.baseAddress else { return }
            for index in 0..<entries.count {
                let entry = (base + index).move()
                (base + index).initialize(to: .spent)
                entry.dispose()
            }
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
