/// A sink that fixed-arity `combineLatest` subscribes its sources into.
@usableFromInline
protocol CombineLatestSources: AnyObject {
    func subscribe<E>(_ source: Observable<E>, at index: Int)
}

extension CombineLatestSink: CombineLatestSources {}

@usableFromInline
final class CombineLatestArityProducer<Result>: Producer<Result> {
    private let arity: Int
    private let select: (CombineLatestValues) throws -> Result
    private let subscribeSources: (any CombineLatestSources) -> Void

    @usableFromInline
    init(arity: Int, select: @escaping (CombineLatestValues) throws -> Result, subscribeSources: @escaping (any CombineLatestSources) -> Void) {
        self.arity = arity
        self.select = select
        self.subscribeSources = subscribeSources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = CombineLatestSink(arity: arity, select: select, observer: observer, cancel: cancel)
        subscribeSources(sink)
        return (sink, sink.takeSubscription())
    }
}

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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = ZipSink(
            arity: arity, buffers: makeBuffers(), completesEarly: false, take: take,
            selection: selection, observer: observer, cancel: cancel
        )
        subscribeSources(sink)
        return (sink, sink.subscription)
    }
}
