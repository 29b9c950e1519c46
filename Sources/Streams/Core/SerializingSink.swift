/// Events an operator decides to send while holding its lock; delivered after the lock is released.
struct Outbox<Element> {
    fileprivate var pending: [Event<Element>] = []
    fileprivate var head = 0

    /// Queues `event` for delivery.
    mutating func send(_ event: Event<Element>) { pending.append(event) }

    fileprivate var hasPending: Bool { head < pending.count }
}

/// The lock-guarded flags of a `SerializingSink`. Not generic, so taking the lock in an
/// unspecialized generic operator costs no runtime metadata lookup (see Guides/Performance.md).
struct SerializingFlags {
    /// A thread holds the draining role (is delivering, outside the lock).
    var draining = false
    /// The outbox holds events not yet delivered.
    var hasPending = false
}

/// A sink for operators with several upstreams (merge, combineLatest, flatMap, …).
///
/// Upstream events may arrive on different threads and reentrantly. Each arrival updates
/// `State` under one lock and queues the events it produces; the events are then delivered
/// one at a time, in queue order, by whichever thread holds the "draining" role — never while
/// the lock is held, and never concurrently. A thread that finds another one draining just
/// queues and returns, so there is no blocking on the observer and no deadlock on reentry.
///
/// `synchronizedNext(_:if:)` is the per-element fast path: when no one is draining and nothing
/// is queued, the element is delivered directly, without building an `Event` or touching the
/// outbox.
class SerializingSink<Observer: ObserverType, State>: Sink<Observer> {
    // Safety: `state` and `outbox` are read and written only inside `flags.withLock`, so the one
    // lock guards all three (and makes every access exclusive, hence unchecked exclusivity).
    final let flags = LockedState(SerializingFlags())
    @exclusivity(unchecked) private final var state: State
    @exclusivity(unchecked) private final var outbox = Outbox<Observer.Element>()

    init(state: State, observer: Observer, cancel: Cancelable) {
        self.state = state
        super.init(observer: observer, cancel: cancel)
    }

    /// Runs `body` under the lock, then delivers whatever it queued in the outbox.
    ///
    /// `body` must only update state and queue events: it runs under the lock, so it must not
    /// call observers, user closures, `dispose()` or schedulers.
    @discardableResult
    final func synchronized<R>(_ body: (inout State, inout Outbox<Observer.Element>) -> R) -> R {
        var drain = false
        let result = flags.withLock { flags -> R in
            let result = withStateAccess { body(&$0, &outbox) }
            flags.hasPending = outbox.hasPending
            if !flags.draining, flags.hasPending {
                flags.draining = true
                drain = true
            }
            return result
        }
        if drain { drainOutbox() }
        return result
    }

    /// Delivers `element` if `accept` (run under the lock) says so, in order with everything
    /// queued before it. Uncontended, this is one lock round trip before and one after delivery.
    final func synchronizedNext(_ element: Observer.Element, if accept: (inout State) -> Bool) {
        let direct = flags.withLock { flags -> Bool? in
            guard withStateAccess(accept) else { return nil }
            if flags.draining || flags.hasPending {
                return false
            }
            flags.draining = true
            return true
        }
        guard let direct else { return }
        guard direct else {
            enqueue(element)
            return
        }
        forwardNext(element)
        drainOutbox()
    }

    /// Queues an element that met a busy drainer (out of line: the contended path).
    @inline(never)
    private final func enqueue(_ element: Observer.Element) {
        synchronized { _, outbox in outbox.send(.next(element)) }
    }

    /// Runs `body` on the state under the lock (for state changes that send nothing).
    final func withState<R>(_ body: (inout State) -> R) -> R {
        flags.withLock { _ in withStateAccess(body) }
    }

    /// Gives `body` the state (call under the lock). A state without storage (`Void`, used by
    /// operators whose only state is the outbox) is passed as a local copy: an `inout` access to
    /// a stored property without storage has no address of its own, and ThreadSanitizer reports
    /// it as a race with reads of the object's header.
    @inline(__always)
    private final func withStateAccess<R>(_ body: (inout State) -> R) -> R {
        if MemoryLayout<State>.size == 0 {
            var empty = state
            return body(&empty)
        }
        return body(&state)
    }

    /// Delivers queued events until the outbox is empty, then gives up the draining role.
    private final func drainOutbox() {
        while true {
            let more = flags.withLock { flags -> Bool in
                if flags.hasPending { return true }
                flags.draining = false
                return false
            }
            guard more else { return }
            drainQueued()
        }
    }

    /// Delivers the events queued so far, one at a time, outside the lock.
    @inline(never)
    private final func drainQueued() {
        while true {
            let next = flags.withLock { flags -> Event<Observer.Element>? in
                if outbox.hasPending {
                    let event = outbox.pending[outbox.head]
                    outbox.head += 1
                    return event
                }
                outbox.pending.removeAll(keepingCapacity: outbox.pending.count <= 16)
                outbox.head = 0
                flags.hasPending = false
                return nil
            }
            guard let next else { return }
            forwardOn(next)
        }
    }
}
