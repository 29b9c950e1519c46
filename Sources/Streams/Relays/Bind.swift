extension ObservableType {
    /// Subscribes `observers` to this sequence: every event, terminal ones included, is sent
    /// to each of them, in argument order.
    ///
    ///     source:    --1--2--|
    ///     observers: --1--2--|
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe(
            AnonymousObserver<Element> { event in
                for observer in observers { observer.on(event) }
            })
    }

    /// Subscribes `observers` of optional elements to this sequence: every event, terminal ones
    /// included, is sent to each of them with its element wrapped in an optional.
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        subscribe(
            AnonymousObserver<Element> { event in
                let wrapped = event.map { Optional($0) }
                for observer in observers { observer.on(wrapped) }
            })
    }

    /// Calls `binder` with this sequence and returns its result (for custom binding functions).
    ///
    /// - Parameter binder: A function that subscribes to the sequence.
    /// - Returns: Whatever `binder` returns, usually a ``Disposable``.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with this sequence, then the function it returns with `curriedArgument`.
    ///
    ///     source.bind(to: MyView.bindText, curriedArgument: label)
    ///
    /// - Parameters:
    ///   - binder: A curried function that subscribes to the sequence.
    ///   - curriedArgument: The second argument of `binder`.
    /// - Returns: Whatever `binder(self)(curriedArgument)` returns.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements of this sequence.
    ///
    /// Binding expects a sequence that never fails: an error is reported to
    /// `Hooks.defaultErrorHandler` (RxSwift raises a `fatalError` in debug builds instead).
    /// - Parameter onNext: Called with each element.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext)
    }

    /// Subscribes `onNext` to the elements of this sequence, passing it `object`, held weakly:
    /// once `object` is gone, `onNext` is no longer called.
    ///
    ///     source: --1--2--3--|
    ///     onNext:   1  2          (object released between 2 and 3)
    ///
    /// Binding expects a sequence that never fails: an error is reported to
    /// `Hooks.defaultErrorHandler` (RxSwift raises a `fatalError` in debug builds instead).
    /// - Parameters:
    ///   - object: The object passed to `onNext`; not retained.
    ///   - onNext: Called with the object and each element.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        subscribe(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }
}

// MARK: - Relays

extension ObservableType {
    /// Sends the elements of this sequence to `relays`, in argument order.
    ///
    ///     source: --1--2--|
    ///     relays: --1--2---      (relays never terminate)
    ///
    /// Completion ends the binding and is not forwarded. An error also ends it and is reported to
    /// `Hooks.defaultErrorHandler` (RxRelay raises a `fatalError` in debug builds instead).
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements of this sequence, wrapped in an optional, to `relays`.
    ///
    /// Completion is not forwarded; an error is reported to `Hooks.defaultErrorHandler`.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements of this sequence to `relays`, making each the relays' current value.
    ///
    /// Completion is not forwarded; an error is reported to `Hooks.defaultErrorHandler`.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements of this sequence, wrapped in an optional, to `relays`.
    ///
    /// Completion is not forwarded; an error is reported to `Hooks.defaultErrorHandler`.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements of this sequence to `relays`, which buffer them for replay.
    ///
    /// Completion is not forwarded; an error is reported to `Hooks.defaultErrorHandler`.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements of this sequence, wrapped in an optional, to `relays`.
    ///
    /// Completion is not forwarded; an error is reported to `Hooks.defaultErrorHandler`.
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    /// - Note: Delivers on the source's scheduler. See <doc:Subjects>.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Subscribes `accept` to the elements; completion is dropped, an error is reported.
    private func bindElements(_ accept: @escaping (Element) -> Void) -> Disposable {
        let callStack = Hooks.subscriptionCallStack()
        return subscribe(
            AnonymousObserver<Element> { event in
                switch event {
                case .next(let element): accept(element)
                case .error(let error): Hooks.reportUnhandledError(error, subscriptionCallStack: callStack)
                case .completed: break
                }
            })
    }
}
