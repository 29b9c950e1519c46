import Dispatch

/// Outputs decided while holding a `SerializedState`'s lock, delivered after it is released.
package struct SerializedOutbox<Output> {
    fileprivate var queue = FIFOQueue<Output>()

    /// Queues `output` for delivery, after everything queued before it.
    package mutating func send(_ output: Output) { queue.append(output) }

    /// Drops every output not delivered yet (used when the subscription is disposed).
    package mutating func discardPending() { queue.removeAll() }
}

/// State guarded by a lock, plus a queue of outputs delivered one at a time, in queue order,
/// outside the lock: the queue-drain pattern of `SerializingSink` for code whose outputs are
/// not one observer's events (``ObservableType/window(timeSpan:count:scheduler:)``'s windows and their elements, the group-comments
/// pipeline of ConfigFeatures).
///
/// `update` changes the state and queues outputs in one critical section, so the order of
/// outputs is the order of state changes; then whichever thread holds the "draining" role
/// delivers them, never while the lock is held and never concurrently. A thread (or a
/// reentrant call from inside `deliver`) that finds another one draining only queues and
/// returns, so there is no blocking on the receiver and no recursion, within the bounds of
/// `BacklogGate`: a producer on another thread waits while the queue is past its bound, or
/// once the draining thread has delivered long for others (which then hands the role over).
package final class SerializedState<State, Output>: @unchecked Sendable {
    // Safety: `locked` is only accessed inside its lock; `update`'s body only mutates the
    // state and the outbox. Outputs are handed to `deliver` outside the lock by the single
    // thread recorded as `drainer` (set and cleared under the lock).
    private struct Locked {
        var state: State
        var outbox = SerializedOutbox<Output>()
        /// The thread delivering the queue (0 when none), so a reentrant call is told apart.
        var drainer: UInt = 0
        var gate = BacklogGate()

        /// Makes the calling thread the drainer if there is none and something is queued.
        mutating func takeDrainer() -> Bool {
            guard drainer == 0, !outbox.queue.isEmpty else { return false }
            drainer = currentThreadID()
            return true
        }
    }

    private let locked: LockedState<Locked>

    /// Wraps `state`, with an empty queue.
    package init(_ state: State) {
        locked = LockedState(Locked(state: state))
    }

    /// Runs `body` under the lock, then (unless another call is already draining) delivers what
    /// it queued, and anything queued meanwhile, through `deliver`, outside the lock.
    ///
    /// `deliver` must behave the same whichever caller passes it: the draining caller may
    /// deliver outputs queued by other callers.
    @discardableResult
    package func update<R>(_ body: (inout State, inout SerializedOutbox<Output>) -> R, deliver: (Output) -> Void) -> R {
        let (result, drain, wait) = locked.withLock { locked -> (R, Bool, DispatchSemaphore?) in
            let result = body(&locked.state, &locked.outbox)
            guard locked.drainer == 0 else {
                let isReentrant = locked.drainer == currentThreadID()
                return (result, false, locked.gate.admit(queued: locked.outbox.queue.count, isReentrant: isReentrant))
            }
            return (result, locked.takeDrainer(), nil)
        }
        if drain {
            drainQueue(deliver)
        } else if let wait {
            wait.wait()
            // Woken by a hand-off, the queue may be this thread's to deliver.
            if locked.withLock({ $0.takeDrainer() }) { drainQueue(deliver) }
        }
        return result
    }

    /// Delivers the queue until it is empty, or until the turn has been long and producers
    /// wait: then the role goes to them (`BacklogGate.handOff()`).
    private func drainQueue(_ deliver: (Output) -> Void) {
        while true {
            let (next, wakeup) = locked.withLock { locked -> (Output?, BacklogGate.Wakeup?) in
                if let handOff = locked.gate.handOff() {
                    locked.drainer = 0
                    return (nil, handOff)
                }
                guard let next = locked.outbox.queue.popFirst() else {
                    locked.drainer = 0
                    return (nil, locked.gate.finish())
                }
                locked.gate.serve(1)
                return (next, locked.gate.release(queued: locked.outbox.queue.count))
            }
            wakeup?.run()
            guard let next else { return }
            deliver(next)
        }
    }

    /// Reads the state under the lock.
    package func read<R>(_ body: (State) -> R) -> R {
        locked.withLock { body($0.state) }
    }

    /// Changes the state under the lock, queueing and delivering nothing.
    package func withState<R>(_ body: (inout State) -> R) -> R {
        locked.withLock { body(&$0.state) }
    }
}
