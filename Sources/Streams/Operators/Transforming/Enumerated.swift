extension ObservableType {
    /// Pairs each element with its zero-based index.
    ///
    ///     source: --a--b--c--|
    ///     output: --(0,a)--(1,b)--(2,c)--|
    ///
    /// Errors and completion are forwarded as they come.
    /// - Returns: The sequence of `(index, element)` tuples.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        EnumeratedProducer(source: asObservable())
    }
}

final private class EnumeratedSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == (index: Int, element: Source) {
    typealias Element = Source
    // The upstream is serial by contract, so `index` needs no lock.
    private var index = 0

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            let current = index
            // Overflow after Int.max elements is an error, as in RxSwift.
            let (next, overflow) = index.addingReportingOverflow(1)
            if overflow {
                forwardOn(.error(RxError.overflow))
                return
            }
            index = next
            forwardNext((index: current, element: element))
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class EnumeratedProducer<Source>: Producer<(index: Int, element: Source)> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == (index: Int, element: Source) {
        let sink = EnumeratedSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
