extension ObservableType {
    /// Calls `observableFactory` for every subscription and subscribes to the sequence it returns.
    ///
    ///     Observable.deferred { Observable.just(Date()) }   // a fresh date per subscriber
    ///
    /// An error thrown by `observableFactory` is sent as an `error` event.
    /// - Parameter observableFactory: Creates the sequence for one subscription.
    /// - Returns: A sequence whose subscriptions each get a new sequence from the factory.
    /// - Note: The factory runs on the subscribing thread; events arrive wherever the created
    ///   sequence sends them. See <doc:Creating>.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        DeferredProducer(factory: observableFactory)
    }
}

final private class DeferredSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run(_ factory: () throws -> Observable<Element>) -> Disposable {
        do {
            return try factory().subscribe(self)
        } catch {
            forwardOn(.error(error))
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }
}

final private class DeferredProducer<Element>: Producer<Element> {
    private let factory: () throws -> Observable<Element>

    init(factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DeferredSink(observer: observer, cancel: cancel)
        let subscription = sink.run(factory)
        return (sink, subscription)
    }
}
