// The rest of `Infallible`'s `bind` overloads (RxCocoa's `Infallible+Bind.swift`): observers and
// relays of optional elements, custom binder functions. The plain forms are in `Infallible.swift`.

extension InfallibleType {
    /// Subscribes `observers` of optional elements: every event is sent to each of them with its
    /// element wrapped in an optional.
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            let wrapped = event.map { Optional($0) }
            observers.forEach { $0.on(wrapped) }
        }
    }

    /// Calls `binder` with this sequence and returns its result (for custom binding functions).
    /// - Parameter binder: A function that subscribes to the sequence.
    /// - Returns: Whatever `binder` returns, usually a ``Disposable``.
    @_alwaysEmitIntoClient
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with this sequence, then the function it returns with `curriedArgument`.
    /// - Parameters:
    ///   - binder: A curried function that subscribes to the sequence.
    ///   - curriedArgument: The second argument of `binder`.
    /// - Returns: Whatever `binder(self)(curriedArgument)` returns.
    @_alwaysEmitIntoClient
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Sends every element to `relays` of optionals (completion is not forwarded).
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    @_alwaysEmitIntoClient
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optionals (completion is not forwarded).
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    @_alwaysEmitIntoClient
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optionals (completion is not forwarded).
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    @_alwaysEmitIntoClient
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
