/// A subject that replays buffered elements to each new observer, then sends it later events.
///
///     onNext:  -1-2-3----4--|
///     early:   -1-2-3----4--|
///     late:          (23)4--|      (bufferSize: 2, subscribed after 3)
///     after:                (34|)  (bufferSize: 2, subscribed after completion)
///
/// After termination, new observers receive the buffered elements and then the terminal event.
/// Create one with `create(bufferSize:)` or `createUnbounded()`.
/// - Note: Events are delivered on the thread that sends them; a concurrent `onNext` never
///   overtakes the replay sent to a new observer. Sending from several threads at once is the
///   caller's contract to avoid, as in RxSwift. See <doc:Subjects>.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; observers are called
    // outside the lock from a snapshot of the list.
    private struct State {
        var observers = ObserverList()
        var buffer: ReplayBuffer<Element>
        var stopEvent: Event<Element>?
        var isDisposed = false
    }

    private let state: LockedState<State>

    private init(limit: Int?) {
        state = LockedState(State(buffer: ReplayBuffer(limit: limit)))
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Creates a subject that replays at most `bufferSize` of the latest elements.
    ///
    /// A `bufferSize` of zero or less replays nothing (the subject then behaves like a
    /// ``PublishSubject`` that also sends its terminal event to late observers).
    /// - Parameter bufferSize: The maximum number of elements to replay.
    /// - Returns: A new subject.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(limit: max(0, bufferSize))
    }

    /// Creates a subject that replays every element it has received.
    ///
    /// - Returns: A new subject whose buffer grows without limit.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(limit: nil)
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    /// Whether the subject has been disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Buffers and sends `event`; ignored after a terminal event or disposal.
    public func on(_ event: Event<Element>) {
        // The element evicted from a full buffer is released after the lock, with the handlers.
        let (handlers, evicted) = state.withLock { state -> (ObserverList.Handlers, Element?) in
            guard !state.isDisposed, state.stopEvent == nil else { return ([], nil) }
            if case .next(let value) = event {
                let evicted = state.buffer.append(value)
                return (state.observers.handlers, evicted)
            }
            state.stopEvent = event
            return (state.observers.removeAll(), nil)
        }
        _ = evicted
        deliver(event, to: handlers)
    }

    /// Subscribes `observer`, which first receives the buffered elements (and the terminal
    /// event, if the subject has terminated).
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }
        return subscribeUninspected(observer)
    }

    @inline(__always)
    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.withLock { state -> SubscribeOutcome<Element> in
            if state.isDisposed { return .rejected(.error(RxError.disposed(object: "ReplaySubject"))) }
            if let stop = state.stopEvent { return .rejected(stop, replay: state.buffer.elements) }
            return .register(observer, in: &state.observers, replay: state.buffer.elements)
        }
        return outcome.complete(observer, subject: self)
    }

    func unsubscribe(_ key: UInt64) {
        let removed = state.withLock { $0.observers.remove(key) }
        _ = removed  // released outside the lock
    }

    /// Returns `self` as an observer.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Drops every observer and the buffer; later events and subscriptions are rejected.
    public func dispose() {
        let released = state.withLock { state -> (ObserverList.Handlers, ReplayBuffer<Element>) in
            state.isDisposed = true
            state.stopEvent = nil
            let buffer = state.buffer
            state.buffer.removeAll()
            return (state.observers.removeAll(), buffer)
        }
        // Released here, outside the lock: dropping the last reference to an element or an
        // observer may run arbitrary deinit code.
        _ = released
    }
}
