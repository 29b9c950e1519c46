/// A subject that sends only its last element, followed by completion, when it completes.
///
///     onNext:  -1-2-3-|
///     early:   -------(3|)
///     late:           (3|)       (subscribed after completion)
///
///     onNext:  -1-2-#
///     output:  -----#            (an error is forwarded; the last element is dropped)
///
/// Completing without any element sends just `completed`. Observers that subscribe after
/// termination receive the last element and `completed`, or the error.
/// - Note: Events are delivered on the thread that sends the terminal event. Sending from
///   several threads at once is the caller's contract to avoid, as in RxSwift. See
///   <doc:Subjects>.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; observers are called
    // outside the lock from a snapshot of the list.
    private struct State {
        var observers = ObserverList()
        var lastElement: Element?
        /// `completed` or `error` once the subject has terminated.
        var stopEvent: Event<Element>?
    }

    private let state = LockedState(State())

    /// Creates a subject.
    public override init() {
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    /// Remembers an element, or on a terminal event sends the last element and `completed`
    /// (or the error) to every observer. Ignored after a terminal event.
    public func on(_ event: Event<Element>) {
        let (handlers, last, dropped) = state.withLock { state -> (ObserverList.Handlers, Element?, Element?) in
            guard state.stopEvent == nil else { return ([], nil, nil) }
            switch event {
            case .next(let value):
                // The replaced element is released after the lock.
                let previous = state.lastElement
                state.lastElement = value
                return ([], nil, previous)
            case .error:
                state.stopEvent = event
                let previous = state.lastElement
                state.lastElement = nil
                return (state.observers.removeAll(), nil, previous)
            case .completed:
                state.stopEvent = event
                return (state.observers.removeAll(), state.lastElement, nil)
            }
        }
        _ = dropped
        guard !handlers.isEmpty else { return }
        if case .next = event { return }
        if let last { deliver(.next(last), to: handlers) }
        deliver(event, to: handlers)
    }

    /// Subscribes `observer`; after termination it at once receives the last element and
    /// `completed`, or the error.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }
        return subscribeUninspected(observer)
    }

    @inline(__always)
    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.withLock { state -> SubscribeOutcome<Element> in
            switch state.stopEvent {
            case .some(.error(let error)):
                return .rejected(.error(error))
            case .some:
                return .rejected(.completed, replay: state.lastElement.map { [$0] } ?? [])
            case .none:
                return .register(observer, in: &state.observers, replay: [])
            }
        }
        return outcome.complete(observer, subject: self)
    }

    func unsubscribe(_ key: UInt64) {
        let removed = state.withLock { $0.observers.remove(key) }
        _ = removed  // released outside the lock
    }

    /// Returns `self` as an observer.
    public func asObserver() -> AsyncSubject<Element> { self }
}
