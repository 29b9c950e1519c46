/// A type-erased observer that forwards events to a closure or another observer.
public struct AnyObserver<Element>: ObserverType {
    /// The closure type that receives events.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline let observer: EventHandler
    /// The wrapped observer when it is an object (a sink), so that a looping source behind
    /// ``ObservableType/create(_:)`` can see through this wrapper whether anyone downstream still listens.
    let base: AnyObject?

    /// Creates an observer that calls `eventHandler` for every event.
    public init(eventHandler: @escaping EventHandler) {
        observer = eventHandler
        base = nil
    }

    /// Creates an observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let any = observer as? AnyObserver<Element> {
            self.observer = any.observer
            self.base = any.base
        } else {
            self.observer = observer.on
            self.base = Observer.self is AnyClass ? observer as AnyObject : nil
        }
    }

    /// Forwards `event`.
    @inlinable
    public func on(_ event: Event<Element>) { observer(event) }

    /// Returns `self`.
    public func asObserver() -> AnyObserver<Element> { self }
}

extension ObserverType {
    /// Erases the observer's type.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    /// Returns an observer that transforms elements with `transform` before forwarding them.
    ///
    /// A thrown error is forwarded as an `error` event.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}
