import Synchronization

/// The "draining" role of a queue-drain sink (`SerializingSink`, `DrainingSink`): at most one
/// thread at a time delivers, and work that arrives meanwhile is queued and delivered by it.
///
/// One atomic word, no lock: bit `draining` is the role, bit `pending` says work is queued. The
/// owner keeps its queue under its own lock and calls `markPending()` after queueing there and
/// `clearPending()` when it finds the queue empty there. The handshake: a queueing thread sets
/// `pending` and then tries to take the role; a drainer gives the role up and reads `pending` in
/// the same read-modify-write. The operations on the word are totally ordered, so either the
/// drainer sees the queued work or the queueing thread finds the role free, and queued work is
/// never left behind. Taking the role directly and giving it up are one atomic operation each.
struct DrainRole: ~Copyable {
    private static var draining: UInt8 { 1 }
    private static var pending: UInt8 { 2 }
    private let bits = Atomic<UInt8>(0)
    /// The thread holding the role, so a producer can tell a reentrant call (from the drainer's
    /// own observer) from another thread's, for `BacklogGate`. Relaxed: a thread always sees its
    /// own writes, and the holder writes its ID right after taking the role, before it calls out,
    /// so a reentrant call always finds its own ID. A direct delivery leaves its ID behind when it
    /// gives the role up (one store less per element; a drain clears it): until the next holder
    /// writes its own, that thread may take itself for the holder and skip one wait, never the
    /// other way round (a wait on itself would never end).
    private let owner = Atomic<UInt>(0)

    init() {}

    /// Takes the role for direct delivery if it is free and nothing is queued (so direct work
    /// cannot overtake queued work). Call `leave()` afterwards.
    @inline(__always)
    func enterDirectly() -> Bool {
        guard bits.compareExchange(expected: 0, desired: Self.draining, ordering: .sequentiallyConsistent).exchanged else { return false }
        owner.store(currentThreadID(), ordering: .relaxed)
        return true
    }

    /// Whether the calling thread holds the role (so it is calling reentrantly).
    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .relaxed) == currentThreadID()
    }

    /// Records that work was queued (call under the owner's lock, after queueing).
    func markPending() {
        bits.bitwiseOr(Self.pending, ordering: .sequentiallyConsistent)
    }

    /// Records that the queue is empty (call under the owner's lock, holding the role).
    func clearPending() {
        bits.bitwiseAnd(~Self.pending, ordering: .sequentiallyConsistent)
    }

    /// Takes the role if it is free and work is queued, and runs `drain` (which delivers until
    /// the queue is empty and calls `clearPending()`); repeats while work keeps arriving. If
    /// `drain` hands the role off instead (returning the waiting producers to wake, see
    /// `BacklogGate.handOff()`), the queue is left pending, the role is given up and they are
    /// woken: one of them goes on delivering.
    func drainIfIdle(_ drain: () -> BacklogGate.Wakeup?) {
        var current = bits.load(ordering: .sequentiallyConsistent)
        while current & Self.pending != 0 {
            // The thread that holds the role will see `pending` when it gives the role up.
            if current & Self.draining != 0 { return }
            let (taken, found) = bits.compareExchange(expected: current, desired: current | Self.draining, ordering: .sequentiallyConsistent)
            guard taken else {
                current = found
                continue
            }
            owner.store(currentThreadID(), ordering: .relaxed)
            let handOff = drain()
            owner.store(0, ordering: .relaxed)
            current = bits.wrappingSubtract(Self.draining, ordering: .sequentiallyConsistent).newValue
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
        return bits.wrappingSubtract(Self.draining, ordering: .sequentiallyConsistent).oldValue & Self.pending != 0
    }
}
