extension ObservableType {
    /// Unwraps optional elements, dropping `nil`s (as RxOptional's / RxSwiftExt's ``ObservableType/filterNil()``/`unwrap`).
    ///
    ///     source: --1--nil--3--|
    ///     output: --1-------3--|
    ///
    /// - Returns: The sequence of non-`nil` elements, unwrapped.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func filterNil<Wrapped>() -> Observable<Wrapped> where Element == Wrapped? {
        FilterNilProducer(source: asObservable())
    }
}

final private class FilterNilSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element?

    func on(_ event: Event<Observer.Element?>) {
        switch event {
        case .next(let element):
            if let element { forwardNext(element) }
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class FilterNilProducer<Wrapped>: Producer<Wrapped> {
    private let source: Observable<Wrapped?>

    init(source: Observable<Wrapped?>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Wrapped {
        let sink = FilterNilSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
