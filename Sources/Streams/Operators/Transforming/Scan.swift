extension ObservableType {
    /// Emits each intermediate result of accumulating the elements into `seed`, mutating it in place.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--3--6--|     (seed: 0, accumulator: { $0 += $1 })
    ///
    /// The seed itself is not emitted. An error thrown by `accumulator` terminates the sequence
    /// with that error.
    /// - Parameters:
    ///   - seed: The initial accumulator value (copied for every subscription).
    ///   - accumulator: Updates the accumulator with one element.
    /// - Returns: The sequence of accumulated values.
    /// - Note: Delivers on the source's scheduler. See `Guides/Transforming.md`.
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        ScanProducer(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Emits each intermediate result of accumulating the elements, starting from `seed`.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--3--6--|     (seed: 0, accumulator: +)
    ///
    /// The seed itself is not emitted. An error thrown by `accumulator` terminates the sequence
    /// with that error.
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Combines the accumulator and one element into the next accumulator.
    /// - Returns: The sequence of accumulated values.
    /// - Note: Delivers on the source's scheduler. See `Guides/Transforming.md`.
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        ScanProducer(source: asObservable(), seed: seed) { accumulate, element in
            accumulate = try accumulator(accumulate, element)
        }
    }
}

final private class ScanSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Source
    private let accumulator: (inout Observer.Element, Source) throws -> Void
    private var accumulate: Observer.Element

    init(seed: Observer.Element, accumulator: @escaping (inout Observer.Element, Source) throws -> Void, observer: Observer, cancel: Cancelable) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    func onNext(_ element: Source) {
        do {
            try accumulator(&accumulate, element)
        } catch {
            forwardError(error)
            return
        }
        forwardNext(accumulate)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class ScanProducer<Source, Accumulate>: Producer<Accumulate> {
    private let source: Observable<Source>
    private let seed: Accumulate
    private let accumulator: (inout Accumulate, Source) throws -> Void

    init(source: Observable<Source>, seed: Accumulate, accumulator: @escaping (inout Accumulate, Source) throws -> Void) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Accumulate {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
