import Synchronization

/// An object that is both an observable sequence and an observer.
public protocol SubjectType: ObservableType {
    /// The observer type of the subject.
    associatedtype Observer: ObserverType

    /// Returns the subject's observer side.
    func asObserver() -> Observer
}

/// The element-independent root of `SubjectObserver`, so that observer lists (and the subject
/// state holding them) are not generic: per-element code in an unspecialized generic subject
/// then never asks the Swift runtime for generic metadata (see Guides/Performance.md).
class AnySubjectObserver {
    /// The key the observer is registered under in its subject's `ObserverList` (one list per
    /// node; set under the subject's lock).
    @exclusivity(unchecked) final var subjectKey: UInt64 = 0
}

/// A subject's reference to one registered observer.
///
/// Subjects call `onNext(_:)` for elements, so a library observer downstream receives them
/// without an `Event` being built (see Guides/Performance.md).
class SubjectObserver<Element>: AnySubjectObserver {
    /// Receives one event.
    func on(_ event: Event<Element>) { fatalError("abstract") }
    /// Receives one element.
    func onNext(_ element: Element) { fatalError("abstract") }
}

/// A `SubjectObserver` that forwards to an `ObserverType`.
final class SubjectObserverOf<Observer: ObserverType>: SubjectObserver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func on(_ event: Event<Observer.Element>) { observer.on(event) }
    override func onNext(_ element: Observer.Element) { observer.onNext(element) }
}

/// The lock-guarded bookkeeping of a subject, without a generic parameter (so the per-element
/// path of an unspecialized generic subject needs no runtime metadata lookup). The subject keeps
/// its element-typed state (terminal event, current value) in its own fields, guarded by the
/// same lock.
struct SubjectCore {
    var observers = ObserverList()
    /// The terminal event received, if any.
    var termination: Termination?
    var isDisposed = false

    /// Whether events are still accepted.
    var isLive: Bool {
        if case .none = termination { return !isDisposed }
        return false
    }
}

/// A terminal event, without the element type (terminal events carry no element), so subjects
/// can store it in non-generic state.
enum Termination {
    case completed
    case error(Swift.Error)

    /// The terminal event of `event`, or `nil` for `next`.
    init?<Element>(_ event: Event<Element>) {
        switch event {
        case .next: return nil
        case .error(let error): self = .error(error)
        case .completed: self = .completed
        }
    }

    /// The event for a sequence of `Element`.
    func event<Element>(_ type: Element.Type = Element.self) -> Event<Element> {
        switch self {
        case .completed: return .completed
        case .error(let error): return .error(error)
        }
    }
}

/// The registered observers of a subject, in subscription order.
struct ObserverList {
    typealias Handler = AnySubjectObserver
    typealias Handlers = ContiguousArray<Handler>

    /// The observers; each carries its key (`subjectKey`), so the list is one array.
    private(set) var handlers: ContiguousArray<Handler> = []
    private var nextKey: UInt64 = 0

    var isEmpty: Bool { handlers.isEmpty }

    mutating func insert(_ handler: Handler) -> UInt64 {
        let key = nextKey
        nextKey &+= 1
        handler.subjectKey = key
        handlers.append(handler)
        return key
    }

    /// Removes the handler registered under `key` and returns it, so the caller can release it
    /// after leaving its lock (dropping the last reference may run arbitrary deinit code).
    @discardableResult
    mutating func remove(_ key: UInt64) -> Handler? {
        guard let index = handlers.firstIndex(where: { $0.subjectKey == key }) else { return nil }
        return handlers.remove(at: index)
    }

    mutating func removeAll() -> ContiguousArray<Handler> {
        defer { handlers = [] }
        return handlers
    }
}

@inline(__always)
func deliver<Element>(_ event: Event<Element>, to handlers: ObserverList.Handlers) {
    if case .next(let element) = event {
        deliverNext(element, to: handlers)
        return
    }
    for handler in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).on(event) }
}

@inline(__always)
func deliverNext<Element>(_ element: Element, to handlers: ObserverList.Handlers) {
    for handler in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).onNext(element) }
}

/// A subject that can drop one observer by key.
protocol Unsubscribing: AnyObject {
    func unsubscribe(_ key: UInt64)
}

/// The disposable a subject returns from `subscribe`.
final class SubjectSubscription: Disposable, @unchecked Sendable {
    // Safety: `subject` is written in `init` and then read and cleared only by the one `dispose()`
    // call that wins the `taken` flag (an acquiring/releasing exchange), so no two threads touch it.
    private var subject: Unsubscribing?
    private let key: UInt64
    private let taken = Atomic<Bool>(false)

    init(_ subject: Unsubscribing, key: UInt64) {
        self.subject = subject
        self.key = key
    }

    func dispose() {
        guard !taken.exchange(true, ordering: .acquiringAndReleasing), let subject else { return }
        self.subject = nil
        subject.unsubscribe(key)
    }
}

/// What `subscribe` decided under a subject's lock, carried out after it.
enum SubscribeOutcome<Element> {
    /// Registered under `key`; `gate` (if any) holds back live events until `replay` is sent.
    case subscribed(UInt64, gate: ReplayGate<Element>? = nil, replay: [Element] = [])
    /// Not registered: `replay` is sent, then the terminal event `stop`.
    case rejected(Event<Element>, replay: [Element] = [])

    /// Registers `observer` in `observers`, gated if there is something to replay first.
    static func register<Observer: ObserverType>(_ observer: Observer, in observers: inout ObserverList, replay: [Element]) -> SubscribeOutcome where Observer.Element == Element {
        if replay.isEmpty {
            return .subscribed(observers.insert(SubjectObserverOf(observer)))
        }
        let gate = ReplayGate(SubjectObserverOf(observer))
        return .subscribed(observers.insert(gate), gate: gate, replay: replay)
    }

    /// Sends the replayed elements (and terminal event), and returns the subscription.
    func complete<Observer: ObserverType>(_ observer: Observer, subject: Unsubscribing) -> Disposable where Observer.Element == Element {
        switch self {
        case .subscribed(let key, let gate, let replay):
            gate?.open(replaying: replay)
            return SubjectSubscription(subject, key: key)
        case .rejected(let stop, let replay):
            for element in replay { observer.on(.next(element)) }
            observer.on(stop)
            return Disposables.create()
        }
    }
}

/// Holds back live events for a new subscriber until its replayed elements have been sent,
/// so a concurrent `onNext` can never overtake the replay.
///
/// Once open, delivery costs one atomic load; only events racing with the replay take the lock.
final class ReplayGate<Element>: SubjectObserver<Element>, @unchecked Sendable {
    // Safety: `phase` is an atomic state machine. `queued` is read and written only inside
    // `lock.withLock`, and only while the gate is not open; the opening thread drains it under
    // the lock and publishes `open` with a releasing store, so a sender that sees `open`
    // (acquiring) never touches `queued` again.
    private static var waiting: Int { 0 }
    private static var open: Int { 1 }
    private static var queueing: Int { 2 }

    private let handler: SubjectObserver<Element>
    private let phase = Atomic<Int>(0)
    private let lock = LockedState(())
    @exclusivity(unchecked) private var queued: [Event<Element>] = []

    init(_ handler: SubjectObserver<Element>) {
        self.handler = handler
    }

    override func onNext(_ element: Element) {
        if phase.load(ordering: .acquiring) == Self.open {
            handler.onNext(element)
            return
        }
        queueOrDeliver(element)
    }

    /// The path of an element that races with the replay (kept out of line so the open gate's
    /// path never touches `Event`'s generic metadata).
    @inline(never)
    private func queueOrDeliver(_ element: Element) {
        on(.next(element))
    }

    override func on(_ event: Event<Element>) {
        if phase.load(ordering: .acquiring) == Self.open {
            handler.on(event)
            return
        }
        let deliverNow = lock.withLock { _ -> Bool in
            // Move waiting -> queueing with a compare-exchange: the opener may open the gate
            // (waiting -> open, without the lock) at any moment, and then this event goes through.
            let (exchanged, current) = phase.compareExchange(expected: Self.waiting, desired: Self.queueing, ordering: .acquiringAndReleasing)
            if !exchanged && current == Self.open { return true }
            queued.append(event)
            return false
        }
        if deliverNow { handler.on(event) }
    }

    /// Sends `replay`, then whatever arrived meanwhile, then lets live events through.
    func open(replaying replay: [Element]) {
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
            let batch = lock.withLock { _ -> [Event<Element>] in
                if queued.isEmpty {
                    phase.store(Self.open, ordering: .releasing)
                    return []
                }
                defer { queued = [] }
                return queued
            }
            if batch.isEmpty { return }
            for event in batch { handler.on(event) }
        }
    }
}
