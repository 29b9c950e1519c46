#if DEBUG
import Synchronization

/// Debug builds only: catches an observer called from two threads at once (the Rx contract says
/// observers are never called concurrently) and reports it through `Hooks`.
///
/// A sink (`Sink`, `StageSink`) enters before each delivery and leaves after it; a reentrant
/// delivery on the same thread (an observer that makes its source emit again) is not concurrent.
struct DeliveryCheck: ~Copyable {
    /// The thread delivering now, 0 when none.
    private let thread = Atomic<UInt>(0)

    init() {}

    /// Marks this thread as delivering for `sink`; reports an anomaly when another thread already
    /// is. Returns whether this call entered (and must call `leave()`).
    func enter(_ sink: AnyObject) -> Bool {
        let current = currentThreadID()
        let (entered, owner) = thread.compareExchange(expected: 0, desired: current, ordering: .acquiringAndReleasing)
        if !entered && owner != current {
            Hooks.reportSynchronizationAnomaly(
                "an observer of \(type(of: sink)) was called concurrently from two threads; serialize the source (e.g. observe(on: a serial scheduler)).")
        }
        return entered
    }

    /// Clears the mark set by an `enter(_:)` that returned `true`.
    func leave() {
        thread.store(0, ordering: .releasing)
    }
}
#endif
