import Synchronization

/// A disposable that only records whether it has been disposed.
public final class BooleanDisposable: Cancelable, Sendable {
    /// A disposable that is already disposed.
    public static let boolDisposable = BooleanDisposable(isDisposed: true)

    private let flag: Atomic<Bool>

    /// Creates a disposable that is not yet disposed.
    public init() { flag = Atomic(false) }

    /// Creates a disposable in the given state.
    public init(isDisposed: Bool) { flag = Atomic(isDisposed) }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { flag.load(ordering: .acquiring) }

    /// Marks the disposable as disposed.
    public func dispose() { flag.store(true, ordering: .releasing) }
}
