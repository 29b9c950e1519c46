extension ObservableType where Element: EventConvertible {
    /// Turns ``Event`` elements back into the events they describe (the inverse of ``ObservableType/materialize()``).
    ///
    ///     source: --n(1)--n(2)--e(#)--…
    ///     output: --1-----2-----#
    ///
    /// An element holding `error` or `completed` terminates the output with that event; the
    /// source's own `error` and `completed` are forwarded as they are.
    /// - Returns: The sequence the events describe.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func dematerialize() -> Observable<Element.Element> {
        DematerializeProducer(source: asObservable())
    }
}

final private class DematerializeSink<Source: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Source.Element {
    typealias Element = Source

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            forwardOn(element.event)
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class DematerializeProducer<Source: EventConvertible>: Producer<Source.Element> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        let sink = DematerializeSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
