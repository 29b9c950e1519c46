/// The lock-guarded part of a `DrainingSink`: who is running, and the work queued meanwhile.
/// Not generic, so taking the lock costs no runtime metadata lookup (see Guides/Performance.md).
struct DrainingQueue {
    /// A thread is running work for the sink.
    var draining = false
    /// Work that arrived while another thread was running, in arrival order.
    var tasks: ContiguousArray<() -> Void> = []
}

/// A sink for operators with several upstreams whose state is owned by "the running thread".
///
/// Every upstream event is handled by `serialize(_:later:)`: if no other thread is handling an
/// event of this sink, the handler runs at once on the calling thread; otherwise it is queued and
/// run, in arrival order, by the thread that is already running — the same queue-drain scheme as
/// `SerializingSink`, but queueing *inputs* instead of outputs. So handlers run one at a time and
/// may read and write the operator's state (plain stored properties) and call the observer and
/// user closures directly: no lock is held while they run, and there is nothing to copy out
/// of a lock. A reentrant event (sent by the observer while it is being called) is queued and
/// handled right after the current one, so there is no deadlock on reentry.
///
/// Uncontended, an event costs two lock round trips and no allocation; a queued event costs
/// one closure allocation.
class DrainingSink<Observer: ObserverType>: Sink<Observer> {
    // Safety: `queue` is guarded by its lock. Subclasses' state is touched only by handlers
    // run through `serialize`, which never overlap: the `draining` flag hands the role from
    // one thread to the next under the lock, which orders their memory accesses.
    private final let queue = LockedState(DrainingQueue())

    /// Runs `handler` now if no other thread is running this sink's handlers; otherwise queues
    /// the closure `later()` makes (called only then), which that thread runs in order.
    @inline(__always)
    final func serialize(_ handler: () -> Void, later: () -> (() -> Void)) {
        let runNow = queue.withLock { queue -> Bool in
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        if runNow {
            handler()
            drain()
        } else {
            enqueue(later())
        }
    }

    /// Queues `task`, or runs it if the running thread finished meanwhile.
    @inline(never)
    private final func enqueue(_ task: @escaping () -> Void) {
        let runNow = queue.withLock { queue -> Bool in
            if queue.draining {
                queue.tasks.append(task)
                return false
            }
            queue.draining = true
            return true
        }
        if runNow {
            task()
            drain()
        }
    }

    /// Runs the queued tasks until none is left, then gives up the running role.
    private final func drain() {
        while true {
            let batch = queue.withLock { queue -> ContiguousArray<() -> Void> in
                if queue.tasks.isEmpty {
                    queue.draining = false
                    return []
                }
                defer { queue.tasks = [] }
                return queue.tasks
            }
            if batch.isEmpty { return }
            for task in batch { task() }
        }
    }
}

/// A mutable box for an operator's latest element (so "no element yet" is a nil reference, not
/// an `Optional` of a generic type, which unspecialized code would look up at run time).
final class LatestElement<Element> {
    // Only accessed by `DrainingSink` handlers, which never overlap (exclusive by construction).
    @exclusivity(unchecked) var value: Element

    init(_ value: Element) {
        self.value = value
    }
}
