/// A type that receives the events of an observable sequence.
public protocol ObserverType<Element> {
    /// The type of elements the observer receives.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)

    /// Receives one element; the same as `on(.next(element))`.
    ///
    /// A customization point for speed: the library's own observers implement it to deliver
    /// elements without wrapping them in an ``Event`` (see <doc:Performance>). Observers
    /// written outside the library get the default, which calls `on(.next(element))`.
    func onNext(_ element: Element)

    /// Receives completion; the same as `on(.completed)` (a customization point for speed, like
    /// `onNext(_:)`).
    func onCompleted()
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
