// `map` followed by `filter`, fused into one stage when the chain is built (as Rx.NET fuses
// `Select` and `Where`): a subscription makes one sink and one `SinkDisposer` instead of two of
// each, and an element crosses one sink instead of two. See Sources/Streams/Streams.docc/Performance.md,
// "Operator fusion".

/// The sink of a fused `map(transform).filter(predicate)`: calls `transform`, then `predicate`
/// on its result, and forwards the results that pass, exactly as the two unfused sinks would.
final private class MapFilterSink<Source, Result, Observer: ObserverType>: StageSink<Source, Observer>, ObserverType where Observer.Element == Result {
    typealias Element = Source
    // Both closures in one stored property: this generic class finds a field's offset in its
    // metadata, so one property costs one offset load per element where two cost two.
    private let stages: (transform: (Source) throws -> Result, predicate: (Result) throws -> Bool)

    init(transform: @escaping (Source) throws -> Result, predicate: @escaping (Result) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        stages = (transform, predicate)
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes this sink to `source` (see `MapSink.subscribeSelf(to:)`).
    func subscribeSelf(to source: Observable<Source>) -> Disposable {
        source.subscribe(self)
    }

    /// Receives an element from the subject it is registered in (as its own node).
    override __consuming func receiveNext(_ element: Source) { onNext(element) }

    @inline(__always)  // into its protocol witness: one call frame per stage (see `Sink.forwardNext`)
    func onNext(_ element: Source) {
        do {
            let result = try stages.transform(element)
            // Unfused, the `map` sink forwards to the `filter` sink only while it is not
            // disposed: a `transform` that disposes the subscription never reaches `predicate`.
            if isDisposed { return }
            if try stages.predicate(result) { forwardNext(result) }
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

/// `map(transform).filter(predicate)` as one producer (built by `MapProducer.filterStage(_:)`).
///
/// While the inspector records, a subscription goes through the two unfused producers instead,
/// so that the inspector shows `map` and `filter` as the user wrote them.
final class MapFilterProducer<Source, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result
    private let predicate: (Result) throws -> Bool

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result, predicate: @escaping (Result) throws -> Bool) {
        self.source = source
        self.transform = transform
        self.predicate = predicate
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        if InspectorHook.isRecording { return unfused().subscribe(observer) }
        return super.subscribe(observer)
    }

    /// The chain as written: `filter` applied to `map`.
    @inline(never)
    private func unfused() -> Observable<Result> {
        FilterProducer(source: MapProducer(source: source, transform: transform), predicate: predicate)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        // The sink's type from the cache, and subscribed by its own method (see `MapProducer.run`).
        let sinkType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) {
            MapFilterSink<Source, Result, Observer>.self
        }
        let sink = unsafeBitCast(sinkType, to: MapFilterSink<Source, Result, Observer>.Type.self)
            .init(transform: transform, predicate: predicate, observer: observer, cancel: cancel)
        // A subject takes the sink as its own node (see `StageSink`); anything else gets it as an observer.
        if let subscription = source.register(stage: sink) { return (sink, subscription) }
        return (sink, sink.subscribeSelf(to: source))
    }
}
