import Synchronization

/// The lock-free state machine of a disposable that is assigned its target once and may be
/// disposed before or after (used by ``SingleAssignmentDisposable`` and the producers' disposer).
///
/// The owner writes its target to plain stored properties, then calls `assign()`; `dispose()`
/// marks it disposed. Exactly one of the two calls returns `true` — the second one, once both
/// have happened — and only that caller reads, disposes and clears the target. The
/// read-modify-writes are acquiring and releasing, so the target written before `assign()` is
/// visible to a `dispose()` on another thread.
struct AssignOnceState: ~Copyable {
    private static var disposedBit: Int { 1 }
    private static var assignedBit: Int { 2 }
    private let bits = Atomic<Int>(0)

    init() {}

    /// Whether `dispose()` has been called.
    var isDisposed: Bool { bits.load(ordering: .acquiring) & Self.disposedBit != 0 }

    /// Whether `assign()` has been called (the target is set for good).
    var isAssigned: Bool { bits.load(ordering: .acquiring) & Self.assignedBit != 0 }

    /// Marks the target assigned; returns whether the caller must dispose it now (it was
    /// disposed before). Traps when called twice.
    func assign(_ message: @autoclosure () -> String) -> Bool {
        let previous = bits.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedBit == 0, message())
        return previous & Self.disposedBit != 0
    }

    /// Marks it disposed; returns whether the caller must dispose the assigned target (it is
    /// assigned and this is the first `dispose()`).
    func dispose() -> Bool {
        let previous = bits.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        return previous & Self.disposedBit == 0 && previous & Self.assignedBit != 0
    }
}
