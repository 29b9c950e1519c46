/// A sink that fixed-arity `combineLatest` subscribes its sources into.
protocol CombineLatestSources<Values>: AnyObject {
    associatedtype Values
    /// Subscribes source number `index`; `store` writes its elements into `Values`.
    func subscribe<E>(_ source: Observable<E>, at index: Int, store: @escaping (inout Values, E) -> Void)
}

extension CombineLatestSink: CombineLatestSources {}

/// The producer shared by the fixed arities of `combineLatest`: `subscribeSources` subscribes
/// each source into the sink, writing its elements into slot `n` of the `Values` tuple.
final class CombineLatestArityProducer<Values, Result>: Producer<Result> {
    private let arity: Int
    private let initialValues: Values
    private let selection: ResultSelection<Values, Result>
    private let subscribeSources: (any CombineLatestSources<Values>) -> Void

    init(
        arity: Int, values: Values, selection: ResultSelection<Values, Result>,
        subscribeSources: @escaping (any CombineLatestSources<Values>) -> Void
    ) {
        self.arity = arity
        initialValues = values
        self.selection = selection
        self.subscribeSources = subscribeSources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = CombineLatestSink(arity: arity, values: initialValues, selection: selection, observer: observer, cancel: cancel)
        subscribeSources(sink)
        return (sink, sink.subscription)
    }
}

/// A sink that fixed-arity `zip` subscribes its sources into.
protocol ZipSources<Buffers>: AnyObject {
    associatedtype Buffers
    /// Subscribes source number `index`; `store` appends its elements to `Buffers`.
    func subscribe<E>(_ source: Observable<E>, at index: Int, store: @escaping (inout Buffers, E) -> Void)
}

extension ZipSink: ZipSources {}

/// The producer shared by the fixed arities of `zip`: `take` removes one element of each
/// buffer, `subscribeSources` subscribes each source into buffer `n`.
final class ZipArityProducer<Buffers, Arguments, Result>: Producer<Result> {
    private let arity: Int
    private let makeBuffers: () -> Buffers
    private let take: (inout Buffers) -> Arguments
    private let selection: ResultSelection<Arguments, Result>
    private let subscribeSources: (any ZipSources<Buffers>) -> Void

    init(
        arity: Int, buffers: @escaping () -> Buffers, take: @escaping (inout Buffers) -> Arguments,
        selection: ResultSelection<Arguments, Result>,
        subscribeSources: @escaping (any ZipSources<Buffers>) -> Void
    ) {
        self.arity = arity
        makeBuffers = buffers
        self.take = take
        self.selection = selection
        self.subscribeSources = subscribeSources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipSink(
            arity: arity, buffers: makeBuffers(), completesEarly: false, take: take,
            selection: selection, observer: observer, cancel: cancel
        )
        subscribeSources(sink)
        return (sink, sink.subscription)
    }
}
