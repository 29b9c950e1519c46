extension ObservableType {
    /// Folds all elements into one value with `accumulator`, then emits `mapResult` of it on completion.
    ///
    ///     source: --1--2--3--|
    ///     output: -----------(6|)     (seed: 0, accumulator: +, mapResult: identity)
    ///
    /// Emits exactly one element, when the source completes (the seed itself for an empty source),
    /// then completes. An error from the source, or thrown by `accumulator` or `mapResult`, is
    /// forwarded and nothing is emitted.
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Combines the accumulated value with the next element.
    ///   - mapResult: Transforms the final accumulated value into the result.
    /// - Returns: A sequence with the single result.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func reduce<A, Result>(_ seed: A, accumulator: @escaping (A, Element) throws -> A, mapResult: @escaping (A) throws -> Result) -> Observable<Result> {
        ReduceProducer(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds all elements into one value with `accumulator` and emits it on completion.
    ///
    ///     source: --1--2--3--|
    ///     output: -----------(6|)     (seed: 0, accumulator: +)
    ///
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Combines the accumulated value with the next element.
    /// - Returns: A sequence with the single accumulated value.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func reduce<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        ReduceProducer(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

final private class ReduceSink<Source, A, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Source
    private let accumulator: (A, Source) throws -> A
    private let mapResult: (A) throws -> Observer.Element
    // The upstream is serial by contract, so `accumulated` needs no lock.
    private var accumulated: A

    init(seed: A, accumulator: @escaping (A, Source) throws -> A, mapResult: @escaping (A) throws -> Observer.Element, observer: Observer, cancel: SinkDisposer)
    {
        accumulated = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            do {
                accumulated = try accumulator(accumulated, element)
            } catch {
                forwardOn(.error(error))
            }
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            do {
                let result = try mapResult(accumulated)
                forwardNext(result)
                forwardCompleted()
            } catch {
                forwardOn(.error(error))
            }
        }
    }
}

final private class ReduceProducer<Source, A, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let seed: A
    private let accumulator: (A, Source) throws -> A
    private let mapResult: (A) throws -> Result

    init(source: Observable<Source>, seed: A, accumulator: @escaping (A, Source) throws -> A, mapResult: @escaping (A) throws -> Result) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = ReduceSink(seed: seed, accumulator: accumulator, mapResult: mapResult, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
