import Synchronization

/// A one-way boolean flag, set at most once, readable from any thread.
@usableFromInline
final class AtomicFlag: Sendable {
    @usableFromInline let raw = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    /// Whether the flag has been set.
    @inlinable
    var isSet: Bool { raw.load(ordering: .acquiring) }

    /// Sets the flag; returns `true` only for the call that changed it.
    @inlinable
    func set() -> Bool {
        !raw.exchange(true, ordering: .acquiringAndReleasing)
    }
}
