/// The lock-guarded bookkeeping of a subject, without a generic parameter (so the per-element
/// path of an unspecialized generic subject needs no runtime metadata lookup). The subject keeps
/// its element-typed state (``BehaviorSubject``'s current value) in its own fields, guarded by the
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

/// A subject that keeps its `SubjectCore` in its own field, under a `StripedLock`
/// (``PublishSubject``, ``BehaviorSubject``).
protocol SubjectCoreLock: AnyObject {
    /// The lock guarding `core` (and the subject's other mutable fields).
    var coreLock: StripedLock { get }
    /// The core; read and written only inside `withCore`.
    var core: SubjectCore { get set }
}

extension SubjectCoreLock {
    /// Runs `body` with exclusive access to the core (under the lock; no call-outs).
    @inline(__always)
    func withCore<R>(_ body: (inout SubjectCore) -> R) -> R {
        // Locked before the access to `core` begins (see `StripedLock.lock()`).
        let lock = coreLock
        lock.lock()
        defer { lock.unlock() }
        return body(&core)
    }

    /// Records `event` (a terminal event) and sends it to the observers, which are dropped;
    /// ignored after a terminal event or disposal.
    func terminate<Element>(with event: Event<Element>) {
        let handlers = withCore { state -> ObserverList.Handlers in
            guard state.isLive else { return [] }
            state.termination = Termination(event)
            return state.observers.removeAll()
        }
        deliver(event, to: handlers)
    }

    /// What a subscriber arriving after termination or disposal receives.
    func rejection<Element>(subject: String) -> Event<Element> {
        let (disposed, stop) = withCore { ($0.isDisposed, $0.termination) }
        return disposed ? .error(RxError.disposed(object: subject)) : (stop ?? .completed).event()
    }

    /// Drops every observer and the terminal event (released after the lock); later events and
    /// subscriptions are rejected.
    func disposeSubject() {
        let released = withCore { state -> (ObserverList.Handlers, Termination?) in
            state.isDisposed = true
            defer { state.termination = nil }
            return (state.observers.removeAll(), state.termination)
        }
        _ = released
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
