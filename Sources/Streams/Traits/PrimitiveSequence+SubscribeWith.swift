// `subscribe(with:…)` for `Maybe` and `Completable` (`Single`'s lives in `Single.swift`): the
// closures receive an object held weakly, and are not called once it is gone.

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Subscribes closures that also receive `object`, held weakly: once it is gone, nothing is called.
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures; not retained.
    ///   - onSuccess: Called with the element.
    ///   - onError: Called with the error. Without it an error is dropped, not reported to
    ///     `Hooks.defaultErrorHandler` (as RxSwift's `subscribe(with:…)`).
    ///   - onCompleted: Called when the ``Maybe`` completes empty.
    ///   - onDisposed: Called when the subscription ends for any reason.
    /// - Returns: The subscription.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes closures that also receive `object`, held weakly: once it is gone, nothing is called.
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures; not retained.
    ///   - onCompleted: Called when the ``Completable`` completes.
    ///   - onError: Called with the error.
    ///   - onDisposed: Called when the subscription ends for any reason.
    /// - Returns: The subscription.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}
