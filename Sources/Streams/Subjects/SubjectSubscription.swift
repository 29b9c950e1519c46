/// A subject that can drop one observer by key.
protocol Unsubscribing: AnyObject {
    func unsubscribe(_ key: UInt64)
}

/// The disposable a subject returns from `subscribe`: a value (the subject and the observer's
/// key), so subscribing allocates nothing for it. Disposing twice is harmless: keys are never
/// reused, and removing an absent key does nothing. Like RxSwift's, it keeps the subject alive
/// while it is held.
struct SubjectSubscription: Disposable, @unchecked Sendable {
    // Safety: `subject` is a subject, whose state is all behind its own lock (every subject is
    // Sendable); `key` is immutable.
    /// The subject to unsubscribe from.
    let subject: Unsubscribing
    /// The observer's key in the subject's list.
    let key: UInt64

    init(_ subject: Unsubscribing, key: UInt64) {
        self.subject = subject
        self.key = key
    }

    func dispose() {
        subject.unsubscribe(key)
    }
}

/// What `subscribe` decided under a subject's lock, carried out after it.
enum SubscribeOutcome<Element> {
    /// Registered under `key`; `gate` (if any) holds back live events until `replay` is sent.
    case subscribed(UInt64, gate: ReplayGating<Element>? = nil, replay: [Element] = [])
    /// Not registered: `replay` is sent, then the terminal event `stop`.
    case rejected(Event<Element>, replay: [Element] = [])

    /// Registers `observer` in `observers`, gated if there is something to replay first.
    static func register<Observer: ObserverType>(_ observer: Observer, in observers: inout ObserverList, replay: [Element]) -> SubscribeOutcome
    where Observer.Element == Element {
        if replay.isEmpty {
            return .subscribed(observers.insert(SubjectObserverOf(observer)))
        }
        let gate = ReplayGate(observer)
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
