/// A value-typed disposable held by a ``DisposeBag`` (whose entries hold only class references),
/// with whether it can report being finished decided once, when boxed.
final class BoxedDisposable: @unchecked Sendable {
    // Safety: both fields are immutable; the disposable is only disposed or asked `isDisposed`,
    // which every disposable allows from any thread.
    /// The boxed disposable.
    let disposable: Disposable
    /// The same disposable as a ``Cancelable``, if it is one (so pruning makes no cast).
    private let cancelable: Cancelable?

    init(_ disposable: Disposable) {
        self.disposable = disposable
        cancelable = disposable as? Cancelable
    }

    /// Whether a prune may find it finished.
    var isCancelable: Bool { cancelable != nil }

    /// Whether it reports being disposed.
    var isFinished: Bool { cancelable?.isDisposed ?? false }
}
