// The rest of RxCocoa's `drive`/`emit` overloads: observers and relays of optional elements,
// custom binder functions (`drive`), and the argument-less `drive()`/`emit()`. The plain forms
// are in `SharedSequence.swift`.

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes `observers` of optional elements: every event is sent to each of them with its
    /// element wrapped in an optional.
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the subscription.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            let wrapped = event.map { Optional($0) }
            observers.forEach { $0.on(wrapped) }
        }
    }

    /// Sends every element to `relays` of optionals.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optionals.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Calls `transformation` with the driver's observable and returns its result (for custom
    /// binding functions).
    /// - Parameter transformation: A function that subscribes to the sequence.
    /// - Returns: Whatever `transformation` returns, usually a ``Disposable``.
    @_alwaysEmitIntoClient
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(asObservable())
    }

    /// Calls `with` with the driver's observable, then the function it returns with
    /// `curriedArgument`.
    /// - Parameters:
    ///   - with: A curried function that subscribes to the sequence.
    ///   - curriedArgument: The second argument of `with`.
    /// - Returns: Whatever `with(observable)(curriedArgument)` returns.
    @_alwaysEmitIntoClient
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        with(asObservable())(curriedArgument)
    }

    /// Subscribes with no handlers (keeps the driver's work running until disposed).
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes `observers` of optional elements: every event is sent to each of them with its
    /// element wrapped in an optional.
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the subscription.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            let wrapped = event.map { Optional($0) }
            observers.forEach { $0.on(wrapped) }
        }
    }

    /// Sends every element to `relays` of optionals.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optionals.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optionals.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes with no handlers (keeps the signal's work running until disposed).
    /// - Returns: A disposable that ends the subscription.
    @_alwaysEmitIntoClient
    public func emit() -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
