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
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        ScanProducer(source: asObservable(), seed: seed, accumulator: .into(accumulator))
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
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        ScanProducer(source: asObservable(), seed: seed, accumulator: .combining(accumulator))
    }
}

/// The two forms of scan's accumulator, kept apart so that the value form runs without a
/// wrapping closure (see <doc:Performance>).
private enum ScanAccumulator<Accumulate, Source> {
    /// Mutates the accumulator in place (`scan(into:accumulator:)`).
    case into((inout Accumulate, Source) throws -> Void)
    /// Returns the next accumulator (`scan(_:accumulator:)`).
    case combining((Accumulate, Source) throws -> Accumulate)
}

final private class ScanSink<Source, Accumulate, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Accumulate {
    typealias Element = Source
    private let accumulator: ScanAccumulator<Accumulate, Source>
    // Only `onNext` touches it, and an observer is never called concurrently (the Rx contract,
    // checked in debug builds by `Sink`); the accumulator closure cannot reach this private
    // field. Unchecked: the dynamic check cost ~80 instructions per element.
    @exclusivity(unchecked) private var accumulate: Accumulate

    init(seed: Accumulate, accumulator: ScanAccumulator<Accumulate, Source>, observer: Observer, cancel: SinkDisposer) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    @inline(__always)  // into its protocol witness: one call frame per stage (see `Sink.forwardNext`)
    func onNext(_ element: Source) {
        do {
            switch accumulator {
            case .into(let update): try update(&accumulate, element)
            case .combining(let combine): accumulate = try combine(accumulate, element)
            }
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
    private let accumulator: ScanAccumulator<Accumulate, Source>

    init(source: Observable<Source>, seed: Accumulate, accumulator: ScanAccumulator<Accumulate, Source>) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Accumulate {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
