/// A ``BehaviorSubject`` that never terminates: it holds a current value, which each new
/// observer receives first.
///
///     value:   0
///     accept:  --1-----2--
///     early:   0-1-----2--
///     late:         1--2--     (subscribed between 1 and 2)
///
/// - Note: Elements are delivered on the thread that calls `accept(_:)`; a concurrent
///   `accept` never overtakes the current value sent to a new observer. Calling `accept`
///   from several threads at once is the caller's contract to avoid, as in RxRelay. See
///   <doc:Subjects>.
public final class BehaviorRelay<Element>: ObservableType, Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
        Resources.increment(type(of: self))
    }

    deinit { Resources.decrement(type(of: self)) }

    /// The current value.
    public var value: Element {
        // The subject is private and never terminated nor disposed, so `value()` cannot throw.
        do {
            return try subject.value()
        } catch {
            fatalError("BehaviorRelay's subject failed unexpectedly: \(error)")
        }
    }

    /// Makes `event` the current value and sends it to every observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`, which first receives the current value; it receives elements
    /// only (never `error` or `completed`).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// Returns the relay as an observable sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
