extension ObservableType {
    /// Wraps every event, the terminal one included, in a `next` element, then completes.
    ///
    ///     source: --1--2--#
    ///     output: --n(1)--n(2)--(e(#)|)
    ///
    /// The output never fails: an error becomes a `next(.error(…))` element followed by completion.
    /// - Returns: The sequence of the source's events.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func materialize() -> Observable<Event<Element>> {
        MaterializeProducer(source: asObservable())
    }
}

final private class MaterializeSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Event<Source> {
    typealias Element = Source

    func on(_ event: Event<Source>) {
        forwardNext(event)
        if event.isStopEvent {
            forwardCompleted()
        }
    }
}

final private class MaterializeProducer<Source>: Producer<Event<Source>> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Event<Source> {
        let sink = MaterializeSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
