/// A subject that holds a current value: each new observer first receives it, then later events.
///
///     value:   0
///     onNext:  --1-----2--|
///     early:   0-1-----2--|
///     late:         1--2--|     (subscribed between 1 and 2)
///
/// After termination, new observers receive only the terminal event.
/// - Note: Events are delivered on the thread that sends them; a concurrent `onNext` never
///   overtakes the current value sent to a new observer. See <doc:Subjects>.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `core` and `current`, read and written only inside
    // `withCore` (the stripe for this subject's address). Observers are called outside
    // the lock from a snapshot of the list. (So the runtime's exclusivity checks on the fields
    // are redundant: the lock already makes every access exclusive.) A striped lock, not a
    // `LockedState` of its own: a subject created per element (`flatMapLatest {
    // BehaviorSubject(value: $0) }`) then costs one allocation, not two (see `StripedLock`).
    /// The observers and the terminal state; read and written only inside `withCore`.
    @exclusivity(unchecked) var core = SubjectCore()
    @exclusivity(unchecked) private var current: Element

    /// The lock guarding the fields: the stripe for the subject's address, found on each use
    /// (~9 instructions). Not a field: the address is known only after `super.init()`, and
    /// writing a field then costs a retain and a release of the new subject, ~40 instructions
    /// per subject (`flatMapLatest { BehaviorSubject(value: $0) }` creates one per element).
    var coreLock: StripedLock {
        @inline(__always) get { StripedLock(for: ObjectIdentifier(self)) }
    }

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        current = value
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { withCore { !$0.observers.isEmpty } }

    /// Whether the subject has been disposed.
    public var isDisposed: Bool { withCore { $0.isDisposed } }

    /// The current value; throws the error the subject failed with, or `RxError.disposed`.
    public func value() throws -> Element {
        let (value, stop, disposed) = withCore { (current, $0.termination, $0.isDisposed) }
        if disposed { throw RxError.disposed(object: "BehaviorSubject") }
        if case .error(let error)? = stop { throw error }
        return value
    }

    /// Stores and sends `event`; ignored after a terminal event or disposal.
    public func on(_ event: Event<Element>) {
        guard case .next(let element) = event else {
            terminate(with: event)
            return
        }
        onNext(element)
    }

    /// Stores `element` as the current value and sends it; ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {
        if _isPOD(Element.self) {
            // A trivial value (no references): replacing it releases nothing, so it can be
            // overwritten under the lock (one value-witness call instead of four).
            let handlers = withCore { state -> ObserverList.Handlers in
                guard state.isLive else { return [] }
                current = element
                return state.observers.handlers
            }
            deliverNext(element, to: handlers)
            return
        }
        // The replaced value is released after the lock: `replaced` holds it (a copy, so the
        // assignments under the lock never release a last reference). Plain copies, not
        // `swap`, which unspecialized code calls out of line (three value-witness moves and a
        // call: ~60 instructions per element).
        var replaced = element
        let handlers = withCore { state -> ObserverList.Handlers in
            replaced = current
            guard state.isLive else { return [] }
            current = element
            return state.observers.handlers
        }
        _ = replaced
        deliverNext(element, to: handlers)
    }

    /// Subscribes `observer`, which first receives the current value.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }
        return subscribeUninspected(observer)
    }

    @inline(__always)
    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        // One value to replay: no `SubscribeOutcome`/array, so subscribing (e.g. by
        // `flatMapLatest` for every element) stays cheap.
        // The gate's type from the cache, not the runtime (see `MetatypeCache`).
        let gateType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) { ReplayGate<Observer>.self }
        let gate = unsafeBitCast(gateType, to: ReplayGate<Observer>.Type.self).init(observer, sharing: coreLock)
        // The current value is copied under the lock into a stack slot, so the locked closure
        // returns a concrete type and is inlined (returning `Element` from it called the
        // unspecialized `withLock` out of line).
        let registered = withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { buffer -> UInt64? in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            let key = withCore { state -> UInt64? in
                guard state.isLive else { return nil }
                slot.initialize(to: current)
                return state.observers.insert(gate)
            }
            if key != nil { gate.open(replayingOne: slot.move()) }
            return key
        }
        if let key = registered { return SubjectSubscription(self, key: key) }
        return reject(observer)
    }

    /// Sends a late subscriber the terminal event (out of line, so the subscribing path does
    /// not look up ``Event``'s metadata: ~330 instructions per subscription).
    @inline(never)
    private func reject<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(rejection(subject: "BehaviorSubject"))
        return Disposables.create()
    }

    func unsubscribe(_ key: UInt64) {
        let removed = withCore { $0.observers.remove(key) }
        _ = removed  // released outside the lock
    }

    /// Returns `self` as an observer.
    public func asObserver() -> BehaviorSubject<Element> { self }

    /// Drops every observer; later events and subscriptions are rejected.
    public func dispose() {
        disposeSubject()
    }
}

extension BehaviorSubject: SubjectCoreLock {}
