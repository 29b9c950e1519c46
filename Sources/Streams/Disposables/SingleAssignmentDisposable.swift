/// Holds one disposable that is assigned once; disposing before assignment disposes it on arrival.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    // Safety: `current` is written once before `state.assign` publishes it, and read and
    // cleared only by the one caller `AssignOnceState` designates (see its documentation).
    private let state = AssignOnceState()
    private var current: Disposable?

    /// Creates an unassigned disposable.
    public init() {}

    /// Whether it has been disposed.
    public var isDisposed: Bool { state.isDisposed }

    /// Assigns the disposable. Assigning twice is a programmer error and stops the program.
    public func setDisposable(_ disposable: Disposable) {
        current = disposable
        if state.assign("SingleAssignmentDisposable.setDisposable called twice") {
            current = nil
            disposable.dispose()
        }
    }

    /// Disposes the assigned disposable (now or when it arrives).
    public func dispose() {
        guard state.dispose() else { return }
        current.take()?.dispose()
    }
}
