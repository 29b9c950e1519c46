import Streams

/// Outputs decided while holding a `SerializedState`'s lock, delivered after it is released.
struct SerializedOutbox<Output> {
    fileprivate var pending: [Output] = []
    fileprivate var head = 0

    /// Queues `output` for delivery, after everything queued before it.
    mutating func send(_ output: Output) { pending.append(output) }

    /// Drops every output not delivered yet (used when the subscription is disposed).
    mutating func discardPending() {
        pending.removeAll()
        head = 0
    }

    fileprivate var hasPending: Bool { head < pending.count }

    fileprivate mutating func next() -> Output? {
        guard hasPending else {
            pending.removeAll(keepingCapacity: pending.count <= 16)
            head = 0
            return nil
        }
        defer { head += 1 }
        return pending[head]
    }
}

/// State guarded by a lock, plus a queue of outputs delivered one at a time, in queue order,
/// outside the lock.
///
/// This is the `SerializingSink` pattern of Streams (which is internal to that module) for code
/// outside it: `update` changes the state and queues outputs in one critical section, so the
/// order of outputs is the order of state changes; then whichever thread holds the "draining"
/// role delivers them, never while the lock is held and never concurrently. A thread (or a
/// reentrant call from inside `deliver`) that finds another one draining only queues and
/// returns: no blocking on the receiver and no recursion.
final class SerializedState<State, Output>: @unchecked Sendable {
    // Safety: `locked` is only accessed inside its lock; `update`'s body only mutates the
    // state and the outbox. Outputs are handed to `deliver` outside the lock by the single
    // thread holding the draining role (`draining` is set and cleared under the lock).
    private struct Locked {
        var state: State
        var outbox = SerializedOutbox<Output>()
        var draining = false
    }

    private let locked: LockedState<Locked>

    init(_ state: State) {
        locked = LockedState(Locked(state: state))
    }

    /// Runs `body` under the lock, then (unless another call is already draining) delivers what
    /// it queued, and anything queued meanwhile, through `deliver`, outside the lock.
    ///
    /// `deliver` must behave the same whichever caller passes it: the draining caller may
    /// deliver outputs queued by other callers.
    @discardableResult
    func update<R>(_ body: (inout State, inout SerializedOutbox<Output>) -> R, deliver: (Output) -> Void) -> R {
        let (result, drain) = locked.withLock { locked -> (R, Bool) in
            let result = body(&locked.state, &locked.outbox)
            guard !locked.draining, locked.outbox.hasPending else { return (result, false) }
            locked.draining = true
            return (result, true)
        }
        guard drain else { return result }
        while true {
            let next = locked.withLock { locked -> Output? in
                let next = locked.outbox.next()
                if next == nil { locked.draining = false }
                return next
            }
            guard let next else { return result }
            deliver(next)
        }
    }

    /// Reads the state under the lock.
    func read<R>(_ body: (State) -> R) -> R {
        locked.withLock { body($0.state) }
    }
}
