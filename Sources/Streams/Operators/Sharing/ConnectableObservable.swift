/// A sequence that starts sharing its source only when `connect()` is called.
///
/// Subscribing to a connectable sequence registers the observer with its subject; no
/// subscription to the source is made until `connect()`. See <doc:Sharing>.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the subject to the source, so subscribed observers start receiving events.
    ///
    /// - Returns: The connection; disposing it unsubscribes from the source. While a connection
    ///   is alive, calling `connect()` again returns it instead of subscribing again.
    func connect() -> Disposable
}

/// A sequence that shares one subscription to its source among its observers, from `connect()`
/// until the connection is disposed or the source terminates.
///
/// Create one with ``ObservableType/publish()``, ``ObservableType/replay(_:)``, ``ObservableType/replayAll()`` or `multicast(_:)`, and turn it back
/// into an automatically connected sequence with `refCount()`. See <doc:Sharing>.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    /// Creates the base object; subclasses override `subscribe(_:)` and `connect()`.
    override init() { super.init() }

    /// Connects to the source; subclasses must override.
    public func connect() -> Disposable {
        fatalError("ConnectableObservable.connect() is abstract; override it in \(type(of: self))")
    }
}
