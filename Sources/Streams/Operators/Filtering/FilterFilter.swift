// `filter` followed by `filter`, fused into one stage when the chain is built (as `map` then
// `filter`, see MapFilter.swift and Sources/Streams/Streams.docc/Performance.md, "Operator fusion").

/// The sink of a fused `filter(first).filter(second)`: forwards the elements that pass both,
/// calling `second` only for those that pass `first`, exactly as the two unfused sinks would.
final private class FilterFilterSink<Observer: ObserverType>: StageSink<Observer.Element, Observer>, ObserverType {
    typealias Element = Observer.Element
    private let first: (Element) throws -> Bool
    private let second: (Element) throws -> Bool

    init(first: @escaping (Element) throws -> Bool, second: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.first = first
        self.second = second
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
        do {
            guard try first(element) else { return }
            // Unfused, the first `filter` sink forwards only while it is not disposed: a `first`
            // that disposes the subscription never reaches `second`.
            if isDisposed { return }
            guard try second(element) else { return }
        } catch {
            forwardError(error)
            return
        }
        forwardNext(element)
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

/// `filter(first).filter(second)` as one producer (built by `FilterProducer.filterStage(_:)`).
///
/// While the inspector records, a subscription goes through the two unfused producers instead,
/// so that the inspector shows both `filter`s as the user wrote them.
final class FilterFilterProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let first: (Element) throws -> Bool
    private let second: (Element) throws -> Bool

    init(source: Observable<Element>, first: @escaping (Element) throws -> Bool, second: @escaping (Element) throws -> Bool) {
        self.source = source
        self.first = first
        self.second = second
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return unfused().subscribe(observer) }
        return super.subscribe(observer)
    }

    /// The chain as written: `filter` applied to `filter`.
    @inline(never)
    private func unfused() -> Observable<Element> {
        FilterProducer(source: FilterProducer(source: source, predicate: first), predicate: second)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        // The sink's type from the cache, and subscribed by its own method (see `MapProducer.run`).
        let sinkType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) {
            FilterFilterSink<Observer>.self
        }
        let sink = unsafeBitCast(sinkType, to: FilterFilterSink<Observer>.Type.self)
            .init(first: first, second: second, observer: observer, cancel: cancel)
        // A subject takes the sink as its own node (see `StageSink`); anything else gets it as an observer.
        if let subscription = source.register(stage: sink) { return (sink, subscription) }
        return (sink, sink.subscribeSelf(to: source))
    }
}
