extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    ///     source: --1--2--3--|
    ///     output: --2--4--6--|     (transform: { $0 * 2 })
    ///
    /// An error thrown by `transform` terminates the sequence with that error.
    ///
    /// Applied directly to `just`, it runs as one sequence with it (no sink per subscription);
    /// applied directly to a `map`, as one stage with it (one sink per subscription for a whole
    /// chain of `map`s). What is delivered, and when each transform is called, is the same as
    /// for the separate stages.
    /// - Parameter transform: The function applied to each element.
    /// - Returns: The sequence of transformed elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    @inlinable  // so that the producer's metadata is looked up once per call site, not per call
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        // After a `just` or a `map`, one fused sequence (see `Observable.mapStage(_:stage:)`).
        if let fused = source.mapStage(transform, stage: { mapChainStage(transform) }) { return fused }
        return MapProducer(source: source, transform: transform)
    }
}

// Generic over `Result` as well as the observer, so that the per-element code finds the result's
// metadata in the sink's own generic arguments instead of asking the runtime for
// `Observer.Element` (~12 instructions per element and stage; see Sources/Streams/Streams.docc/Performance.md).
final private class MapSink<Source, Result, Observer: ObserverType>: StageSink<Source, Observer>, ObserverType where Observer.Element == Result {
    typealias Element = Source
    private let transform: (Source) throws -> Result

    init(transform: @escaping (Source) throws -> Result, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes this sink to `source`. Called on the sink rather than written in `run`: in its
    /// own method the sink's metadata is its isa, whereas `run` would ask the runtime for
    /// `MapSink<Source, Result, Observer>` to pass it as the generic argument.
    func subscribeSelf(to source: Observable<Source>) -> Disposable {
        source.subscribe(self)
    }

    /// Receives an element from the subject it is registered in (as its own node).
    override __consuming func receiveNext(_ element: Source) { onNext(element) }

    @inline(__always)  // into its protocol witness: one call frame per stage (see `Sink.forwardNext`)
    func onNext(_ element: Source) {
        // The result goes straight to `forwardNext` (which cannot throw, so the `catch` is the
        // transform's): no intermediate copy of it through the value witnesses.
        do {
            forwardNext(try transform(element))
        } catch {
            forwardError(error)
        }
    }

    /// Completes without building an ``Event`` (a metadata lookup in this generic code).
    func onCompleted() {
        forwardCompleted()
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

@usableFromInline
final class MapProducer<Source, Result>: FusingProducer<Result> {
    let source: Observable<Source>
    let transform: (Source) throws -> Result

    @usableFromInline
    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        // The sink's type from the cache, and subscribed by its own method (where its metadata
        // is its isa): no runtime metadata lookup (see `MetatypeCache`).
        let sinkType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) {
            MapSink<Source, Result, Observer>.self
        }
        let sink = unsafeBitCast(sinkType, to: MapSink<Source, Result, Observer>.Type.self)
            .init(transform: transform, observer: observer, cancel: cancel)
        // No `register(stage:)` first (as the fused stages do): `map` is as often on a producer
        // (`Single.just(x).map`), where the extra call costs more than the lookup it saves on a
        // subject. A subject still takes the sink as its own node (see `StageSink`).
        let subscription = sink.subscribeSelf(to: source)
        return (sink, subscription)
    }

    /// `map` after this `map`: one stage that calls both transforms (see `MapMapProducer`).
    @usableFromInline
    override func mapStage<Next>(_ next: @escaping (Result) throws -> Next, stage: () -> MapChainStage) -> Observable<Next>? {
        // From the cache, as in `filterStage(_:)`: the pair determines the type.
        let producerType = MetatypeCache.stageType(owner: type(of: self), result: Next.self) {
            MapMapProducer<Source, Result, Next>.self
        }
        // This `map`'s own stage is built here, in unspecialized code (its source type is not
        // known where the next `map` is written): value-witness calls for one stage per element.
        let chain = MapChain(stages: [mapChainStage(transform), stage()], layout: MapChainLayout(Source.self, Result.self).adding(Next.self))
        return unsafeBitCast(producerType, to: MapMapProducer<Source, Result, Next>.Type.self)
            .init(source: source, chain: chain, upstream: self, last: next)
    }

    /// `filter` after this `map`: one stage that maps and filters (see `MapFilterProducer`).
    @usableFromInline
    override func filterStage(_ predicate: @escaping (Result) throws -> Bool) -> Observable<Result> {
        // From the cache: named here, in unspecialized code, it would be a runtime metadata
        // lookup (~290 instructions) per `filter` call (the pair determines the type).
        let producerType = MetatypeCache.type(owner: type(of: self), observer: FilterStageKey.self) {
            MapFilterProducer<Source, Result>.self
        }
        return unsafeBitCast(producerType, to: MapFilterProducer<Source, Result>.Type.self)
            .init(source: source, transform: transform, predicate: predicate)
    }
}
