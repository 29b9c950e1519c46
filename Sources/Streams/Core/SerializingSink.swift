/// Events an operator decides to send while holding its lock; delivered after the lock is released.
struct Outbox<Element> {
    fileprivate var pending: [Event<Element>] = []
    fileprivate var head = 0

    /// Queues `event` for delivery.
    mutating func send(_ event: Event<Element>) { pending.append(event) }

    fileprivate var hasPending: Bool { head < pending.count }
}

/// A sink for operators with several upstreams (merge, combineLatest, flatMap, …).
///
/// Upstream events may arrive on different threads and reentrantly. Each arrival updates
/// `State` under one lock and queues the events it produces; the events are then delivered
/// one at a time, in queue order, by whichever thread holds the "draining" role — never while
/// the lock is held, and never concurrently. A thread that finds another one draining just
/// queues and returns, so there is no blocking on the observer and no deadlock on reentry.
class SerializingSink<Observer: ObserverType, State>: Sink<Observer> {
    struct Locked {
        var state: State
        var outbox = Outbox<Observer.Element>()
        var draining = false
    }

    final let locked: LockedState<Locked>

    init(state: State, observer: Observer, cancel: Cancelable) {
        locked = LockedState(Locked(state: state))
        super.init(observer: observer, cancel: cancel)
    }

    /// Runs `body` under the lock, then delivers whatever it queued in the outbox.
    @discardableResult
    final func synchronized<R>(_ body: (inout State, inout Outbox<Observer.Element>) -> R) -> R {
        let (result, drain) = locked.withLock { locked -> (R, Bool) in
            let result = body(&locked.state, &locked.outbox)
            guard !locked.draining, locked.outbox.hasPending else { return (result, false) }
            locked.draining = true
            return (result, true)
        }
        if drain { drainOutbox() }
        return result
    }

    /// Reads or writes the state under the lock without sending anything.
    final func withState<R>(_ body: (inout State) -> R) -> R {
        locked.withLock { body(&$0.state) }
    }

    private final func drainOutbox() {
        while true {
            let next = locked.withLock { locked -> Event<Observer.Element>? in
                if locked.outbox.hasPending {
                    let event = locked.outbox.pending[locked.outbox.head]
                    locked.outbox.head += 1
                    return event
                }
                locked.outbox.pending.removeAll(keepingCapacity: locked.outbox.pending.count <= 16)
                locked.outbox.head = 0
                locked.draining = false
                return nil
            }
            guard let next else { return }
            forwardOn(next)
        }
    }
}
