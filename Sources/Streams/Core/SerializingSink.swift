import Dispatch

/// Events an operator decides to send while holding its lock; delivered after the lock is released.
///
/// The queue is the elements, in order, then at most one terminal event: nothing sent after a
/// terminal event could ever be delivered (the sink stops on it), so it is dropped here. The
/// elements queue in an `ElementBuffer`, without an ``Event`` each: in the sink's unspecialized
/// code both building an `Event<Element>` and appending to an array of them ask the runtime
/// for generic metadata (see <doc:Performance>).
struct Outbox<Element>: ~Copyable {
    fileprivate var elements = ElementBuffer<Element>()
    /// The terminal event, queued after `elements`; taken by the drainer.
    fileprivate var termination: Termination?
    /// Whether a terminal event was queued (everything sent later is dropped).
    private var closed = false
    fileprivate var gate = BacklogGate()

    /// Queues `event` for delivery.
    mutating func send(_ event: Event<Element>) {
        switch event {
        case .next(let element): sendNext(element)
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }

    /// Queues an element for delivery.
    @inline(__always)
    mutating func sendNext(_ element: Element) {
        if !closed { elements.append(element) }
    }

    private mutating func terminate(_ event: Termination) {
        guard !closed else { return }
        closed = true
        termination = event
    }

    fileprivate var hasPending: Bool { !elements.isEmpty || termination != nil }

    /// How many events are queued.
    fileprivate var count: Int { elements.count &+ (termination == nil ? 0 : 1) }
}

/// A sink for operators with several upstreams (merge, combineLatest, flatMap, …).
///
/// Upstream events may arrive on different threads and reentrantly. Each arrival updates
/// `State` under one lock and queues the events it produces; the events are then delivered
/// one at a time, in queue order, by whichever thread holds the "draining" role — never while
/// the lock is held, and never concurrently. A thread that finds another one draining queues
/// and returns, so there is no blocking on the observer and no deadlock on reentry — unless the
/// queue is past `BacklogGate.limit`: then a producer on another thread waits until the drainer
/// has taken the queue, so memory stays bounded when producers outrun the observer.
///
/// `serializedNext(_:)` is the per-element fast path: when no one is draining and nothing
/// is queued, the element is delivered directly, without building an ``Event`` or touching the
/// outbox.
class SerializingSink<Observer: ObserverType, State>: Sink<Observer> {
    // Safety: `state` and `outbox` are read and written only inside `lock.withLock` (which makes
    // every access exclusive, hence unchecked exclusivity). Only the thread holding `role`
    // delivers (see `DrainRole` for the handshake with queueing threads).
    final let lock = LockedState(())
    private final let role = DrainRole()
    @exclusivity(unchecked) private final var state: State
    @exclusivity(unchecked) private final var outbox = Outbox<Observer.Element>()
    /// The batch being delivered: swapped with the outbox's elements under the lock, read by the
    /// thread holding the draining role only (and emptied by it, keeping its memory for the next
    /// swap, so a steady contended stream does not allocate per batch).
    @exclusivity(unchecked) private final var draining = ElementBuffer<Observer.Element>()

    init(state: State, observer: Observer, cancel: SinkDisposer) {
        self.state = state
        super.init(observer: observer, cancel: cancel)
    }

    /// Runs `body` under the lock, then delivers whatever it queued in the outbox.
    ///
    /// `body` must only update state and queue events: it runs under the lock, so it must not
    /// call observers, user closures, `dispose()` or schedulers.
    @discardableResult
    final func synchronized<R>(_ body: (inout State, inout Outbox<Observer.Element>) -> R) -> R {
        let result = lock.withLock { _ -> R in
            let result = withStateAccess { body(&$0, &outbox) }
            if outbox.hasPending { role.markPending() }
            return result
        }
        role.drainIfIdle(drainQueued)
        return result
    }

    /// Delivers `element` in order with everything queued before it. The per-element fast path:
    /// when nobody is draining and nothing is queued, it costs two atomic operations (take and
    /// give back the draining role) and no lock; otherwise the element is queued.
    @inline(__always)  // into the source's observer (merge's `MergeSource`): one call frame less per element
    final func serializedNext(_ element: Observer.Element) {
        if role.enterDirectly() {
            forwardNext(element)
            if role.leave() { drainPending() }
            return
        }
        enqueue(element)
    }

    /// Delivers `element` as `serializedNext(_:)` does, if `isCurrent()` still holds when it is
    /// its turn: the condition is checked holding the draining role (direct path) or under the
    /// lock when queueing, so a state change made under the lock (e.g. ``ObservableType/flatMapLatest(_:)``'s switch)
    /// either precedes the check or follows the delivery, never falls between them.
    final func serializedNext(_ element: Observer.Element, when isCurrent: () -> Bool) {
        if role.enterDirectly() {
            if isCurrent() {
                #if DEBUG
                SerializingSinkTestHooks.beforeConditionalDelivery?()
                #endif
                forwardNext(element)
            }
            if role.leave() { drainPending() }
            return
        }
        enqueue(element, when: isCurrent)
    }

    /// Delivers what was queued while this thread held the role (out of line: the contended path).
    @inline(never)
    private final func drainPending() {
        role.drainIfIdle(drainQueued)
    }

    /// Queues an element that met a busy drainer or a non-empty queue (out of line: the
    /// contended path), waiting afterwards if the queue is past its bound (see `BacklogGate`).
    @inline(never)
    private final func enqueue(_ element: Observer.Element, when isCurrent: () -> Bool = { true }) {
        let wait = lock.withLock { _ -> DispatchSemaphore? in
            guard isCurrent() else { return nil }
            outbox.sendNext(element)
            role.markPending()
            return outbox.gate.admit(queued: outbox.count, role: role)
        }
        role.drainIfIdle(drainQueued)
        if let wait {
            wait.wait()
            role.drainIfIdle(drainQueued)  // woken by a hand-off: the queue may be ours to deliver
        }
    }

    /// Runs `body` on the state under the lock (for state changes that send nothing).
    @inline(__always)  // so the caller's closure is inlined with the lock (no closure context or generic result)
    final func withState<R>(_ body: (inout State) -> R) -> R {
        lock.withLock { _ in withStateAccess(body) }
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

    /// Delivers the queued events outside the lock, in order, until the outbox is empty (call
    /// holding the draining role). It takes the whole queue at a time (one lock per batch, not
    /// per event) and then wakes the producers waiting for room. After a long turn it may hand
    /// the role to waiting producers instead (`BacklogGate.handOff()`): it returns their wakeup.
    @inline(never)
    private final func drainQueued() -> BacklogGate.Wakeup? {
        while true {
            var termination: Termination?
            let (taken, wakeup, handOff) = lock.withLock { _ -> (Int, BacklogGate.Wakeup?, BacklogGate.Wakeup?) in
                if !outbox.hasPending {
                    role.clearPending()
                    return (0, outbox.gate.finish(), nil)
                }
                if let handOff = outbox.gate.handOff() { return (0, nil, handOff) }
                let taken = outbox.count
                swap(&outbox.elements, &draining)
                termination = outbox.termination
                outbox.termination = nil
                outbox.gate.serve(taken)
                return (taken, outbox.gate.release(queued: 0), nil)
            }
            if handOff != nil { return handOff }
            wakeup?.run()
            if taken == 0 { return nil }
            for index in 0..<draining.count { forwardNext(draining[index]) }
            draining.removeAll(keepingCapacityUpTo: 2 * BacklogGate.limit)
            if let termination { forward(termination) }
        }
    }
}

#if DEBUG
/// Test hooks (DEBUG builds only) that let tests drive race interleavings deterministically.
package enum SerializingSinkTestHooks {
    // Safety: set by a test before the events it drives start and cleared after they ended;
    // only read while those events flow, so no write races with a read.
    /// Called by `serializedNext(_:when:)` between its check and the delivery.
    nonisolated(unsafe) package static var beforeConditionalDelivery: (() -> Void)?
}
#endif
