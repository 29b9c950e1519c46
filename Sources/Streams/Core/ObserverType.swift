/// A type that receives the events of an observable sequence.
public protocol ObserverType {
    /// The type of elements the observer receives.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends a `next` event.
    @inlinable
    public func onNext(_ element: Element) { on(.next(element)) }

    /// Sends a `completed` event.
    @inlinable
    public func onCompleted() { on(.completed) }

    /// Sends an `error` event.
    @inlinable
    public func onError(_ error: Swift.Error) { on(.error(error)) }
}
