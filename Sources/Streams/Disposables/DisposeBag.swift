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
    ///
    /// Every payload is a class reference or a small struct of one (no opaque existential), so an
    /// entry is copied, switched over and destroyed inline, with one retain or release, rather
    /// than through the value witnesses of a boxed existential.
    private enum Entry {
        /// A subject's subscription (the most common entry): never pruned.
        case subscription(SubjectSubscription)
        /// A class that never reports being finished, so never pruned.
        case plain(any Disposable & AnyObject)
        /// A class pruned once `isDisposed`.
        case cancelable(any Cancelable & AnyObject)
        /// Any other value type, boxed (never pruned, unless it is `Cancelable`).
        case boxed(BoxedDisposable)
        /// A slot whose entry `deinit` has moved out to dispose (nothing to release); also what
        /// `Disposables.create()` classifies as (nothing to hold).
        case spent

        /// Classifies `disposable` by its concrete type `D` (the caller's opened existential). A
        /// subject's subscription never comes here: `insert(opened:)` stores it as `.subscription`
        /// by its own path.
        static func make<D: Disposable>(_ disposable: D) -> Entry {
            if D.self == NopDisposable.self { return .spent }
            if let cancelable = disposable as? any Cancelable & AnyObject { return .cancelable(cancelable) }
            if let object = disposable as? any Disposable & AnyObject { return .plain(object) }
            return .boxed(BoxedDisposable(disposable))
        }

        var isFinished: Bool {
            switch self {
            case .cancelable(let cancelable): cancelable.isDisposed
            case .boxed(let box): box.isFinished
            default: false
            }
        }

        /// Whether a prune may find this entry finished.
        var isCancelable: Bool {
            switch self {
            case .cancelable: true
            case .boxed(let box): box.isCancelable
            default: false
            }
        }

        /// Disposes the held disposable (consuming the entry: its payload is moved out, not copied).
        consuming func dispose() {
            switch consume self {
            case .subscription(let subscription): subscription.dispose()
            case .plain(let disposable): disposable.dispose()
            case .cancelable(let cancelable): cancelable.dispose()
            case .boxed(let box): box.disposable.dispose()
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
        insert(opened: disposable)
    }

    /// Adds `disposable`, whose concrete type `D` is known (an opened existential): classifying
    /// it is a comparison of `D`, and a subject's subscription is never boxed again.
    func insert<D: Disposable>(opened disposable: D) {
        if D.self == SubjectSubscription.self {
            // A subject's subscription (what `subscribe(onNext:)` on a subject returns): stored by
            // a non-generic path, not copied through `D`'s value witnesses inside the lock's closure.
            insert(subscription: unsafeBitCast(disposable, to: SubjectSubscription.self))
            return
        }
        // Only cancelable entries can be found finished, so only they count towards the next
        // prune: a bag of plain entries (subjects' subscriptions) is never copied to be pruned.
        // Each prune keeps at least the entries it found live, and runs after that many cancelable
        // insertions at the least: O(1) amortized per insertion, and the bag stays within about
        // twice its live entries.
        let outcome = state.withLock { state -> InsertOutcome in
            if state.isDisposed { return .disposeNow }
            // Classified here (a type comparison, or a cast; no call out), so that the entry is
            // moved into the array rather than copied out of a capture through its value witnesses.
            let entry = Entry.make(disposable)
            if case .spent = entry { return .stored }  // `Disposables.create()`: nothing to hold
            let isCancelable = entry.isCancelable
            state.disposables.append(consume entry)
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

    /// Stores a subject's subscription (never cancelable, so never counted towards a prune), or
    /// disposes it at once when the bag is already disposed.
    private func insert(subscription: SubjectSubscription) {
        let stored = state.withLock { state -> Bool in
            if state.isDisposed { return false }
            state.disposables.append(.subscription(subscription))
            return true
        }
        if !stored { subscription.dispose() }
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
        bag.insert(opened: self)
    }
}
