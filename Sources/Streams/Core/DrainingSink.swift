import Dispatch

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
/// Uncontended, an event costs two atomic operations, no lock and no allocation; a queued
/// event costs one closure allocation.
class DrainingSink<Observer: ObserverType>: Sink<Observer> {
    // Safety: `tasks` is read and written only inside `lock.withLock`. Handlers run only on the
    // thread holding `role` (see `DrainRole`), so they never overlap, and the role's
    // sequentially consistent hand-over orders their memory accesses: subclasses' state is
    // touched only by handlers.
    private final let lock = LockedState(())
    private final let role = DrainRole()
    @exclusivity(unchecked) private final var tasks: ContiguousArray<() -> Void> = []
    @exclusivity(unchecked) private final var gate = BacklogGate()

    /// Runs `handler` now if no other thread is running this sink's handlers and nothing is
    /// queued; otherwise queues the closure `later()` makes (called only then), which the
    /// running thread runs in order.
    @inline(__always)
    final func serialize(_ handler: () -> Void, later: () -> (() -> Void)) {
        if role.enterDirectly() {
            handler()
            if role.leave() { runPending() }
        } else {
            enqueue(later())
        }
    }

    /// Runs what was queued while this thread held the role (out of line: the contended path).
    @inline(never)
    private final func runPending() {
        role.drainIfIdle(runQueued)
    }

    /// Queues `task`, then runs the queue if no other thread holds the role (out of line: the
    /// contended or reentrant path); past the queue's bound, a producer on another thread then
    /// waits for the running thread to take the queue (see `BacklogGate`).
    @inline(never)
    private final func enqueue(_ task: @escaping () -> Void) {
        let wait = lock.withLock { _ -> DispatchSemaphore? in
            tasks.append(task)
            role.markPending()
            return gate.admit(queued: tasks.count, role: role)
        }
        role.drainIfIdle(runQueued)
        if let wait {
            wait.wait()
            role.drainIfIdle(runQueued)  // woken by a hand-off: the queue may be ours to run
        }
    }

    /// Runs the queued tasks until none is left (call holding the role). After a long turn it
    /// may hand the role to waiting producers instead (`BacklogGate.handOff()`): it returns
    /// their wakeup.
    private final func runQueued() -> BacklogGate.Wakeup? {
        while true {
            let (batch, wakeup, handOff) = lock.withLock { _ -> (ContiguousArray<() -> Void>, BacklogGate.Wakeup?, BacklogGate.Wakeup?) in
                if tasks.isEmpty {
                    role.clearPending()
                    return ([], gate.finish(), nil)
                }
                if let handOff = gate.handOff() { return ([], nil, handOff) }
                defer { tasks = [] }
                gate.serve(tasks.count)
                return (tasks, gate.release(queued: 0), nil)
            }
            if handOff != nil { return handOff }
            wakeup?.run()
            if batch.isEmpty { return nil }
            for task in batch { task() }
        }
    }
}

/// A mutable box for an operator's latest element (so "no element yet" is a nil reference, not
/// an `Optional` of a generic type, which unspecialized code would look up at run time).
@usableFromInline
final class LatestElement<Element> {
    // Only accessed by `DrainingSink` handlers, which never overlap (exclusive by construction).
    @usableFromInline @exclusivity(unchecked) var value: Element

    init(_ value: Element) {
        self.value = value
    }
}
