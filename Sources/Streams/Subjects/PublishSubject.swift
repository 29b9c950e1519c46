/// A subject that sends each event to the observers subscribed at that moment.
///
/// Observers that subscribe after termination receive only the terminal event.
///
///     onNext: --1--2--3--|
///     early:  --1--2--3--|
///     late:          -3--|      (subscribed after 2)
///
/// - Note: Events are delivered on the thread that sends them. Sending from several threads at
///   once is the caller's contract to avoid, as in RxSwift (see <doc:Subjects>).
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `core`, read and written only inside `withCore` (under
    // the stripe for this subject's address); observers are called outside the lock from a
    // snapshot of the list. A striped lock, not a `LockedState` of its own: one allocation per
    // subject, not two (see `StripedLock`).
    /// The observers and the terminal state; read and written only inside `withCore`.
    @exclusivity(unchecked) var core = SubjectCore()

    /// The lock guarding `core`: the stripe for this subject's address, found in `init`.
    @exclusivity(unchecked) private(set) var coreLock: StripedLock

    /// Creates a subject.
    public override init() {
        coreLock = .unassigned
        Resources.increment(Self.self)
        super.init()
        coreLock = StripedLock(for: ObjectIdentifier(self))
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { withCore { !$0.observers.isEmpty } }

    /// Whether the subject has been disposed.
    public var isDisposed: Bool { withCore { $0.isDisposed } }

    /// Sends `event` to every current observer; ignored after a terminal event or disposal.
    public func on(_ event: Event<Element>) {
        guard case .next(let element) = event else {
            terminate(with: event)
            return
        }
        onNext(element)
    }

    /// Sends `element` to every current observer; ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {
        let handlers = withCore { state -> ObserverList.Handlers in
            state.isLive ? state.observers.handlers : []
        }
        deliverNext(element, to: handlers)
    }

    /// Subscribes `observer`.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }
        return subscribeUninspected(observer)
    }

    @inline(__always)
    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        // The node (or the observer itself) by a type from the cache, not the runtime (see `MetatypeCache`).
        // Moved into the list (`take()`: a captured value cannot be consumed), so the list takes
        // over this +1 reference instead of retaining the node and this frame releasing it.
        var node: AnySubjectObserver? = subjectNode(for: observer, owner: type(of: self))
        let key = withCore { state -> UInt64? in
            state.isLive ? state.observers.insert(node.take().unsafelyUnwrapped) : nil
        }
        if let key { return SubjectSubscription(self, key: key) }
        return reject(observer)
    }

    /// Registers a `StageSink` as its own node (no `SubjectObserverOf`, no witness table for its
    /// conformance); `nil` while the inspector records (so it sees the subscription) or once
    /// the subject has terminated (the stage's ordinary subscription then sends it the terminal
    /// event).
    override func register(stage: SubjectObserver<Element>) -> SubjectSubscription? {
        if InspectorHook.isRecording { return nil }
        // Moved into the list, as in `subscribeUninspected(_:)`.
        var node: AnySubjectObserver? = stage
        let key = withCore { state -> UInt64? in
            state.isLive ? state.observers.insert(node.take().unsafelyUnwrapped) : nil
        }
        guard let key else { return nil }
        return SubjectSubscription(self, key: key)
    }

    /// Sends a late subscriber the terminal event (out of line, so the subscribing path does
    /// not look up ``Event``'s metadata).
    @inline(never)
    private func reject<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(rejection(subject: "PublishSubject"))
        return Disposables.create()
    }

    func unsubscribe(_ key: UInt64) {
        let removed = withCore { $0.observers.remove(key) }
        _ = removed  // released outside the lock
    }

    /// Returns `self` as an observer.
    public func asObserver() -> PublishSubject<Element> { self }

    /// Drops every observer; later events and subscriptions are rejected.
    public func dispose() {
        disposeSubject()
    }
}

extension PublishSubject: SubjectCoreLock {}

#if DEBUG
extension PublishSubject {
    /// The registered observer nodes, in subscription order (tests only: which object a
    /// subscription registered).
    var registeredNodes: [AnySubjectObserver] {
        var nodes: [AnySubjectObserver] = []
        let slots = withCore { $0.observers.handlers }
        slots.forEachValue { nodes.append($0) }
        return nodes
    }
}
#endif
