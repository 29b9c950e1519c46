extension ObservableType {
    /// Emits only the elements that satisfy `predicate`.
    ///
    ///     source: --1--2--3--4--|
    ///     output: -----2-----4--|     (predicate: isEven)
    ///
    /// An error thrown by `predicate` terminates the sequence with that error.
    ///
    /// Applied directly to a `map` or a `filter`, it runs as one stage with it (one sink per
    /// subscription instead of two); what is delivered, and when each closure is called, is the
    /// same as for the two stages.
    /// - Parameter predicate: Decides whether an element passes.
    /// - Returns: The sequence of passing elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    @inlinable  // so that the producer's metadata is looked up once per call site, not per call
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        // After a `map` or a `filter`, one fused stage (see `FusingProducer`).
        if let producer = source as? FusingProducer<Element> { return producer.filterStage(predicate) }
        return FilterProducer(source: source, predicate: predicate)
    }
}

final private class FilterSink<Observer: ObserverType>: StageSink<Observer.Element, Observer>, ObserverType {
    typealias Element = Observer.Element
    private let predicate: (Element) throws -> Bool

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes this sink to `source` (see `MapSink.subscribeSelf(to:)`).
    func subscribeSelf(to source: Observable<Element>) -> Disposable {
        source.subscribe(self)
    }

    /// Receives an element from the subject it is registered in (as its own node).
    override __consuming func receiveNext(_ element: Element) { onNext(element) }

    @inline(__always)  // into its protocol witness: one call frame per stage (see `Sink.forwardNext`)
    func onNext(_ element: Element) {
        let passes: Bool
        do {
            passes = try predicate(element)
        } catch {
            forwardError(error)
            return
        }
        if passes { forwardNext(element) }
    }

    /// Completes without building an ``Event`` (a metadata lookup in this generic code).
    func onCompleted() {
        forwardCompleted()
    }

    func on(_ event: Event<Element>) {
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
final class FilterProducer<Element>: FusingProducer<Element> {
    let source: Observable<Element>
    let predicate: (Element) throws -> Bool

    @usableFromInline
    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        // The sink's type from the cache, and subscribed by its own method (where its metadata
        // is its isa): no runtime metadata lookup (see `MetatypeCache`).
        let sinkType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) {
            FilterSink<Observer>.self
        }
        let sink = unsafeBitCast(sinkType, to: FilterSink<Observer>.Type.self)
            .init(predicate: predicate, observer: observer, cancel: cancel)
        // A subject takes the sink as its own node (see `StageSink`); anything else gets it as an observer.
        if let subscription = source.register(stage: sink) { return (sink, subscription) }
        return (sink, sink.subscribeSelf(to: source))
    }

    /// `filter` after this `filter`: one stage that tests both (see `FilterFilterProducer`).
    @usableFromInline
    override func filterStage(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        // From the cache: named here, in unspecialized code, it would be a runtime metadata
        // lookup (~290 instructions) per `filter` call (the pair determines the type).
        let producerType = MetatypeCache.type(owner: type(of: self), observer: FilterStageKey.self) {
            FilterFilterProducer<Element>.self
        }
        return unsafeBitCast(producerType, to: FilterFilterProducer<Element>.Type.self)
            .init(source: source, first: self.predicate, second: predicate)
    }
}
