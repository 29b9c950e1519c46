/// A ``PublishSubject`` that never terminates: it only sends elements, to the observers
/// subscribed at that moment.
///
///     accept:  --1--2--3--
///     early:   --1--2--3--
///     late:          -3--      (subscribed after 2)
///
/// - Note: Elements are delivered on the thread that calls `accept(_:)`. Calling it from
///   several threads at once is the caller's contract to avoid, as in RxRelay. See
///   <doc:Subjects>.
public final class PublishRelay<Element>: ObservableType, Sendable {
    private let subject: PublishSubject<Element>

    /// Creates a relay.
    public init() {
        subject = PublishSubject()
        Resources.increment(type(of: self))
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Sends `event` to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    /// Subscribes `observer`; it receives elements only (never `error` or `completed`).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// Returns the relay as an observable sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
