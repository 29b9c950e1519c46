extension ObservableType {
    /// Drops every element and forwards only the terminal event.
    ///
    ///     source: --1--2--3--|
    ///     output: -----------|
    ///
    /// - Returns: A sequence of `Never` that ends when the source ends.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElementsProducer(source: asObservable())
    }
}

final private class IgnoreElementsSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Never {
    typealias Element = Source

    func on(_ event: Event<Source>) {
        switch event {
        case .next: break
        case .error(let error): forwardOn(.error(error))
        case .completed: forwardCompleted()
        }
    }
}

final private class IgnoreElementsProducer<Source>: Producer<Never> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Never {
        let sink = IgnoreElementsSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
