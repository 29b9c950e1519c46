/// The subject behind ``ObservableType/replay(_:)`` and ``ObservableType/replayAll()``: sends each event to its observers and
/// replays the last `bufferSize` elements to each new one (plus the terminal event, once there is one).
///
/// Internal stand-in for ``ReplaySubject``, with the same semantics; a concurrent `onNext` never
/// overtakes the replay sent to a new observer (see `ReplayGate`).
final class ShareReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; observers are called
    // outside the lock from a snapshot of the list.
    private struct State {
        var observers = ObserverList()
        var buffer: ReplayBuffer<Element>
        var stopEvent: Event<Element>?
        var isDisposed = false
    }

    private let state: LockedState<State>

    /// Creates a subject replaying up to `bufferSize` elements (`Int.max`: all of them).
    init(bufferSize: Int) {
        state = LockedState(State(buffer: ReplayBuffer(capacity: bufferSize)))
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func on(_ event: Event<Element>) {
        let handlers = state.withLock { state -> ObserverList.Handlers in
            guard !state.isDisposed, state.stopEvent == nil else { return [] }
            if case .next(let element) = event {
                state.buffer.append(element)
                return state.observers.handlers
            }
            state.stopEvent = event
            return state.observers.removeAll()
        }
        deliver(event, to: handlers)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {

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
        _ = removed  // released outside the lock: dropping an observer may run deinit code
    }

    func asObserver() -> ShareReplaySubject<Element> { self }

    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            _ = state.observers.removeAll()
            state.buffer.removeAll()
            state.stopEvent = nil
        }
    }
}
