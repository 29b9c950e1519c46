import Synchronization

/// Leak counting: the number of live Streams resources (sinks, subjects, schedulers' work).
///
/// Unlike RxSwift, where the counter exists only with `-D TRACE_RESOURCES`, this counter is
/// always compiled in. It goes up when a subscription's sink, a subject or a relay is created
/// and down when it is deallocated, so once every chain is disposed or terminated it returns
/// to its starting value. Compare it before and after a test (see `StreamsTest`'s
/// `assertNoLeaks`).
public enum Resources {
    @usableFromInline static let counter = Atomic<Int>(0)

    /// The number of live resources.
    public static var total: Int { counter.load(ordering: .relaxed) }

    /// Counts one more live resource (for custom operators built on Streams' types).
    @inlinable
    public static func incrementTotal() { counter.add(1, ordering: .relaxed) }

    /// Counts one fewer live resource.
    @inlinable
    public static func decrementTotal() { counter.subtract(1, ordering: .relaxed) }
}
