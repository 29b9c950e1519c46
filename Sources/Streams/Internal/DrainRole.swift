import Synchronization

/// The "draining" role of a queue-drain sink (`SerializingSink`, `DrainingSink`): at most one
/// thread at a time delivers, and work that arrives meanwhile is queued and delivered by it.
///
/// Two atomic flags, no lock: the owner keeps its queue under its own lock and calls
/// `markPending()` after queueing there and `clearPending()` when it finds the queue empty there.
/// The handshake: a queueing thread sets `hasPending` and then tries to take the role; a
/// drainer gives the role up and then reads `hasPending`. The operations are sequentially
/// consistent, so at least one of them sees the other's write and queued work is never left
/// behind.
struct DrainRole: ~Copyable {
    private let draining = Atomic<Bool>(false)
    private let hasPending = Atomic<Bool>(false)
    /// The thread holding the role (0 while it is free or being taken), so a producer can tell
    /// a reentrant call (from the drainer's own observer) from another thread's, for
    /// `BacklogGate`. Relaxed: a thread always sees its own writes, and a stale value read by
    /// another thread is never that thread's own ID (the role's holder clears it before leaving).
    private let owner = Atomic<UInt>(0)

    init() {}

    /// Takes the role for direct delivery if it is free and nothing is queued (so direct work
    /// cannot overtake queued work). Call `leave(drain:)` afterwards.
    func enterDirectly() -> Bool {
        guard !hasPending.load(ordering: .sequentiallyConsistent),
            draining.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return false }
        owner.store(currentThreadID(), ordering: .relaxed)
        return true
    }

    /// Whether the calling thread holds the role (so it is calling reentrantly).
    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .relaxed) == currentThreadID()
    }

    /// Records that work was queued (call under the owner's lock, after queueing).
    func markPending() {
        hasPending.store(true, ordering: .sequentiallyConsistent)
    }

    /// Records that the queue is empty (call under the owner's lock, holding the role).
    func clearPending() {
        hasPending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Takes the role if it is free and work is queued, and runs `drain` (which delivers until
    /// the queue is empty and calls `clearPending()`); repeats while work keeps arriving. If
    /// `drain` hands the role off instead (returning the waiting producers to wake, see
    /// `BacklogGate.handOff()`), the queue is left pending, the role is given up and they are
    /// woken: one of them goes on delivering.
    func drainIfIdle(_ drain: () -> BacklogGate.Wakeup?) {
        while hasPending.load(ordering: .sequentiallyConsistent) {
            guard draining.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else {
                return  // the thread that holds the role will see `hasPending` and deliver
            }
            owner.store(currentThreadID(), ordering: .relaxed)
            let handOff = drain()
            owner.store(0, ordering: .relaxed)
            draining.store(false, ordering: .sequentiallyConsistent)
            if let handOff {
                handOff.run()
                return
            }
        }
    }

    /// Gives up the role; returns whether work was queued meanwhile, which the caller then
    /// delivers with `drainIfIdle(_:)`. (Not a `drain` closure parameter: forming the closure
    /// from the owner's method retains and releases the owner on every direct delivery.)
    @inline(__always)
    func leave() -> Bool {
        owner.store(0, ordering: .relaxed)
        draining.store(false, ordering: .sequentiallyConsistent)
        return hasPending.load(ordering: .sequentiallyConsistent)
    }
}
