/// A type that can be converted to an ``Observable``.
public protocol ObservableConvertibleType {
    /// The type of elements in the sequence.
    associatedtype Element

    /// Converts `self` to an ``Observable`` sequence.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence of events that observers subscribe to.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to receive the sequence's events.
    ///
    /// Events follow the grammar `next* (error | completed)?`; disposing the returned
    /// disposable stops delivery. See <doc:Grammar>.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Returns an ``Observable`` that forwards this sequence.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
