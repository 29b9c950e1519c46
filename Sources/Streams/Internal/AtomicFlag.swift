import Synchronization

/// A one-way boolean flag, set at most once, readable from any thread.
@usableFromInline
package final class AtomicFlag: Sendable {
    @usableFromInline let raw = Atomic<Bool>(false)

    /// A flag not yet set.
    @usableFromInline
    package init() {}

    /// Whether the flag has been set.
    @inlinable
    package var isSet: Bool { raw.load(ordering: .acquiring) }

    /// Sets the flag; returns `true` only for the call that changed it.
    @inlinable
    package func set() -> Bool {
        !raw.exchange(true, ordering: .acquiringAndReleasing)
    }
}
