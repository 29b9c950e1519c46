import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds back live events for a new subscriber until its replayed elements have been sent,
/// so a concurrent `onNext` can never overtake the replay.
///
/// Once open, delivery costs one atomic load; only events racing with the replay take the lock.
final class ReplayGate<Observer: ObserverType>: ReplayGating<Observer.Element>, @unchecked Sendable {
    typealias Element = Observer.Element

    // Safety: `phase` is an atomic state machine. `queued` is read and written only inside
    // `lock.withGateLock` (the gate's own lock or its subject's), and only while the gate is not open; the opening thread drains it under
    // the lock and publishes `open` with a releasing store, so a sender that sees `open`
    // (acquiring) never touches `queued` again.
    private static var waiting: Int { 0 }
    private static var open: Int { 1 }
    private static var queueing: Int { 2 }

    /// The observer behind the gate (held directly: one node per subscription, not two).
    private let handler: Observer
    private let phase = Atomic<Int>(0)
    private let lock: any ReplayGateLock
    /// Events that raced with the replay, each boxed (`LatestElement<Event<Element>>`), so the
    /// field is not generic: creating and destroying a gate needs no metadata lookup for it.
    /// `nil` until an event races (the usual case: a gate that never queues stores and releases no array).
    @exclusivity(unchecked) private var queued: ContiguousArray<AnyObject>?

    /// Creates a gate in front of `handler` whose queue of racing events its own lock guards.
    init(_ handler: Observer) {
        self.handler = handler
        lock = LockedState(()).storage
    }

    /// Creates a gate in front of `handler` whose queue of racing events `lock` (its subject's)
    /// guards. A class reference, not a `LockedState`: a struct in an existential field is
    /// copied and destroyed through the runtime's value witnesses (~300 instructions per
    /// subscription of a ``BehaviorSubject``), a class-bound existential is retained and released.
    init(_ handler: Observer, sharing lock: any ReplayGateLock) {
        self.handler = handler
        self.lock = lock
    }

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
        let deliverNow = lock.withGateLock { () -> Bool in
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
            let batch = lock.withGateLock { () -> ContiguousArray<AnyObject> in
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

/// A lock a `ReplayGate` can share with its subject: the gate's queue is touched only in the
/// short critical sections of a race between a replay and a concurrent event, never while
/// anything is delivered. Class-bound, so the gate's field is a reference and a witness table.
protocol ReplayGateLock: AnyObject {
    /// Runs `body` under the lock.
    func withGateLock<R>(_ body: () -> R) -> R
}

extension LockStorage: ReplayGateLock {
    /// Runs `body` holding the mutex of this `LockedState`'s storage (without its state).
    func withGateLock<R>(_ body: () -> R) -> R {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }
    }
}

/// A `ReplayGate` seen without its observer type (what `SubscribeOutcome` keeps).
class ReplayGating<Element>: SubjectObserver<Element> {
    /// Sends `replay`, then whatever arrived meanwhile, then lets live events through.
    func open(replaying replay: [Element]) { fatalError("abstract") }
}
