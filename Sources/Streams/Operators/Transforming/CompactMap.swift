extension ObservableType {
    /// Transforms each element with `transform` and emits the non-`nil` results.
    ///
    ///     source: --"1"--"x"--"3"--|
    ///     output: --1-----------3--|     (transform: { Int($0) })
    ///
    /// An error thrown by `transform` terminates the sequence with that error.
    /// - Parameter transform: Returns the new element, or `nil` to skip it.
    /// - Returns: The sequence of non-`nil` transformed elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMapProducer(source: asObservable(), transform: transform)
    }
}

final private class CompactMapSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Source
    private let transform: (Source) throws -> Observer.Element?

    init(transform: @escaping (Source) throws -> Observer.Element?, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            do {
                if let result = try transform(element) { forwardNext(result) }
            } catch {
                forwardOn(.error(error))
            }
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class CompactMapProducer<Source, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result?

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result?) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = CompactMapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
