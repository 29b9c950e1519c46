/// The observer a multi-source operator (`merge`, `combineLatest`) subscribes one of its sources
/// with, holding that source's subscription.
///
/// A `SubjectObserver`, so a subject source registers it as its own node (see
/// `subjectNode(for:owner:)`): an element goes from the subject to the operator's sink in one
/// call (the subclass's `receiveNext(_:)`), not through a `SubjectObserverOf` node and the
/// observer's witness, and the subscription needs no ``SingleAssignmentDisposable`` of its own
/// (one allocation less per subject source, none more per other source; see <doc:Performance>).
///
/// Subclasses override `receiveNext(_:)` and `receive(_:)` (from a subject) and implement
/// ``ObserverType`` with the same behaviour (from any other source).
///
/// The node holds its sink strongly and the sink's group of subscriptions holds the node: the
/// group must drop its nodes when the sink is disposed (``CompositeDisposable`` does), so the
/// cycle ends with the subscription.
class SourceNode<Element>: SubjectObserver<Element>, Disposable {
    // `subscription` is written once before `state.assign` publishes it, and read and
    // cleared only by the one caller `AssignOnceState` designates (as in
    // ``SingleAssignmentDisposable``), so accesses never overlap: unchecked exclusivity.
    private final let state = AssignOnceState()
    @exclusivity(unchecked) private final var subscription: Disposable = NopDisposable.shared

    override init() {}

    /// Stores the source's subscription (disposing it at once if the node was disposed first).
    /// Call once.
    final func setSubscription(_ disposable: Disposable) {
        subscription = disposable
        if state.assign("SourceNode.setSubscription called twice") {
            subscription = NopDisposable.shared
            disposable.dispose()
        }
    }

    /// Disposes the source's subscription (now, or when it is stored).
    final func dispose() {
        guard state.dispose() else { return }
        var taken: Disposable = NopDisposable.shared
        swap(&taken, &subscription)
        taken.dispose()
    }
}
