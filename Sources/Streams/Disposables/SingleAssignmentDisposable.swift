/// Holds one disposable that is assigned once; disposing before assignment disposes it on arrival.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    // Safety: `current` is written once before `state.assign` publishes it, and read and
    // cleared only by the one caller `AssignOnceState` designates (see its documentation), so
    // accesses never overlap: unchecked exclusivity.
    private let state = AssignOnceState()
    // Not an optional: destroying an `Optional<any Disposable>` goes through the runtime's
    // generic value witnesses; a plain existential is released directly.
    @exclusivity(unchecked) private var current: Disposable = NopDisposable.shared

    /// Creates an unassigned disposable.
    public init() {}

    /// Whether it has been disposed.
    public var isDisposed: Bool { state.isDisposed }

    /// Assigns the disposable. Assigning twice is a programmer error and stops the program.
    public func setDisposable(_ disposable: Disposable) {
        current = disposable
        if state.assign("SingleAssignmentDisposable.setDisposable called twice") {
            current = NopDisposable.shared
            disposable.dispose()
        }
    }

    /// Disposes the assigned disposable (now or when it arrives).
    public func dispose() {
        guard state.dispose() else { return }
        var taken: Disposable = NopDisposable.shared
        swap(&taken, &current)
        taken.dispose()
    }
}
