import Synchronization

/// Holds back live events for a new subscriber until its replayed elements have been sent,
/// so a concurrent `onNext` can never overtake the replay.
///
/// Once open, delivery costs one atomic load; only events racing with the replay take the lock.
final class ReplayGate<Observer: ObserverType>: ReplayGating<Observer.Element>, @unchecked Sendable {
    typealias Element = Observer.Element

    // Safety: `phase` is an atomic state machine. `queued` is read and written only inside
    // `lock.withLock` (the gate's own stripe or its subject's), and only while the gate is not
    // open; the opening thread drains it under the lock and publishes `open` with a releasing
    // store, so a sender that sees `open` (acquiring) never touches `queued` again.
    private static var waiting: Int { 0 }
    private static var open: Int { 1 }
    private static var queueing: Int { 2 }

    /// The observer behind the gate (held directly: one node per subscription, not two).
    private let handler: Observer
    private let phase = Atomic<Int>(0)
    /// The lock guarding `queued`: its subject's, or `nil` for the stripe for the gate's own
    /// address (found when needed: a field written after `super.init()` would cost a retain
    /// and a release of the new gate).
    private let sharedLock: StripedLock?
    /// Events that raced with the replay, each boxed (`LatestElement<Event<Element>>`), so the
    /// field is not generic: creating and destroying a gate needs no metadata lookup for it.
    /// `nil` until an event races (the usual case: a gate that never queues stores and releases no array).
    @exclusivity(unchecked) private var queued: ContiguousArray<AnyObject>?

    /// Creates a gate in front of `handler` whose queue of racing events the stripe for its own
    /// address guards (no lock object: the gate is the subscription's only allocation).
    init(_ handler: Observer) {
        self.handler = handler
        sharedLock = nil
    }

    /// Creates a gate in front of `handler` whose queue of racing events `lock` (its subject's)
    /// guards: a pointer into `LockStripes`' table, which lives as long as the process, so the
    /// gate holds no reference for it.
    init(_ handler: Observer, sharing lock: StripedLock) {
        self.handler = handler
        sharedLock = lock
    }

    /// The lock guarding `queued`.
    private var lock: StripedLock { sharedLock ?? StripedLock(for: ObjectIdentifier(self)) }

    override __consuming func receiveNext(_ element: Observer.Element) {
        if phase.load(ordering: .acquiring) == Self.open {
            handler.onNext(element)
            return
        }
        queueOrDeliver(element)
    }

    /// The path of an element that races with the replay (kept out of line so the open gate's
    /// path never touches ``Event``'s generic metadata).
    @inline(never)
    private func queueOrDeliver(_ element: Observer.Element) {
        receive(.next(element))
    }

    override func receive(_ event: Event<Observer.Element>) {
        if phase.load(ordering: .acquiring) == Self.open {
            handler.on(event)
            return
        }
        let deliverNow = lock.withLock { () -> Bool in
            // Move waiting -> queueing with a compare-exchange: the opener may open the gate
            // (waiting -> open, without the lock) at any moment, and then this event goes through.
            let (exchanged, current) = phase.compareExchange(expected: Self.waiting, desired: Self.queueing, ordering: .acquiringAndReleasing)
            if !exchanged && current == Self.open { return true }
            if queued == nil { queued = [] }
            queued?.append(LatestElement(event))
            return false
        }
        if deliverNow { handler.on(event) }
    }

    /// Sends `replay`, then whatever arrived meanwhile, then lets live events through.
    override func open(replaying replay: [Element]) {
        for element in replay { handler.onNext(element) }
        openGate()
    }

    /// Sends one replayed element, then whatever arrived meanwhile, then lets live events through.
    func open(replayingOne element: Element) {
        handler.onNext(element)
        openGate()
    }

    private func openGate() {
        // Nothing raced with the replay (the usual case): open without taking the lock.
        if phase.compareExchange(expected: Self.waiting, desired: Self.open, ordering: .acquiringAndReleasing).exchanged {
            return
        }
        drainAndOpen()
    }

    /// Delivers the events that raced with the replay, then opens (out of line: rare).
    @inline(never)
    private func drainAndOpen() {
        while true {
            let batch = lock.withLock { () -> ContiguousArray<AnyObject> in
                guard let batch = queued, !batch.isEmpty else {
                    phase.store(Self.open, ordering: .releasing)
                    return []
                }
                queued = nil
                return batch
            }
            if batch.isEmpty { return }
            for box in batch { handler.on(unsafeDowncast(box, to: LatestElement<Event<Element>>.self).value) }
        }
    }
}

/// A `ReplayGate` seen without its observer type (what `SubscribeOutcome` keeps).
class ReplayGating<Element>: SubjectObserver<Element> {
    /// Sends `replay`, then whatever arrived meanwhile, then lets live events through.
    func open(replaying replay: [Element]) { fatalError("abstract") }
}
