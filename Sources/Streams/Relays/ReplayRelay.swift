/// A ``ReplaySubject`` that never terminates: each new observer first receives the buffered
/// elements, then later ones.
///
///     accept:  -1-2-3----4--
///     early:   -1-2-3----4--
///     late:          (23)4--      (bufferSize: 2, subscribed after 3)
///
/// - Note: Elements are delivered on the thread that calls `accept(_:)`; a concurrent
///   `accept` never overtakes the replay sent to a new observer. Calling `accept` from
///   several threads at once is the caller's contract to avoid, as in RxRelay. See
///   <doc:Subjects>.
public final class ReplayRelay<Element>: ObservableType, Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
        Resources.increment(type(of: self))
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Creates a relay that replays at most `bufferSize` of the latest elements
    /// (none when `bufferSize` is zero or less).
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// Creates a relay that replays every element it has received (RxRelay's spelling).
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Creates a relay that replays every element it has received (same as `createUnbound()`,
    /// spelled like `ReplaySubject.createUnbounded()`).
    public static func createUnbounded() -> ReplayRelay<Element> {
        createUnbound()
    }

    /// Buffers `event` and sends it to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`, which first receives the buffered elements; it receives
    /// elements only (never `error` or `completed`).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// Returns the relay as an observable sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
