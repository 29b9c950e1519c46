/// The observer a multi-source sink (``ObservableType/flatMap(_:)``, ``ObservableType/flatMapLatest(_:)``, …) subscribes to each inner
/// sequence, created through a metatype the sink stores once per subscription.
///
/// In a generic sink's unspecialized code, naming `SomeObserver<A, B, Observer>` asks the
/// runtime for that type's metadata, a hash-table lookup of ~330 instructions: once per inner
/// sequence, that is once per element for `flatMap { Observable.just($0) }`. A sink instead
/// stores `SomeObserver<…>.self` as an `any InnerObserver.Type` when it is created and calls
/// `subscribe(_:sink:key:)` on it, where `Self` is a generic parameter whose metadata comes
/// with the call (see <doc:Performance>).
protocol InnerObserver: ObserverType {
    /// An observer of `sink`'s inner sequence `key` (`sink` is the sink that stored this
    /// metatype; conforming types downcast it unchecked).
    init(sink: AnyObject, key: UInt64)
}

extension InnerObserver {
    /// Subscribes an observer of `sink`'s inner sequence `key` to `inner`, an
    /// `Observable<Element>`, and returns the subscription.
    @inline(__always)
    static func subscribe(_ inner: AnyObject, sink: AnyObject, key: UInt64) -> Disposable {
        // Unchecked: the sink passes its own inner sequences, of this observer's element type.
        unsafeDowncast(inner, to: Observable<Element>.self).subscribe(Self(sink: sink, key: key))
    }
}
