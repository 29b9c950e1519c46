extension ObservableType {
    /// Merges the elements of several sequences into one, in arrival order.
    ///
    ///     a:      --1-----3--|
    ///     b:      ----2-----4---|
    ///     output: --1-2---3-4---|
    ///
    /// Completes when every source has completed (at once for an empty list); fails as soon as
    /// one fails, disposing the rest.
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged sequence.
    /// - Note: Delivers on the thread of the source that emitted (or of a thread already
    ///   delivering); the output is serialized even when the sources emit concurrently.
    ///   See <doc:Combining>.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Merges the elements of several sequences into one, in arrival order.
    ///
    /// See `merge(_:)` for an array.
    /// - Note: The output is serialized. See <doc:Combining>.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Merges the elements of a collection of sequences into one, in arrival order.
    ///
    /// See `merge(_:)` for an array.
    /// - Note: The output is serialized. See <doc:Combining>.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        MergeArrayProducer(sources: Array(sources))
    }
}

final private class MergeArraySink<Observer: ObserverType>: SerializingSink<Observer, Int> {
    typealias Element = Observer.Element
    private let group = CompositeDisposable()

    func run(_ sources: [Observable<Element>]) -> Disposable {
        if sources.isEmpty {
            forwardCompleted()
            return group
        }
        for source in sources {
            // Every source is subscribed, even after one terminated the output during its
            // subscription (then disposed at once, with the group), as in RxSwift.
            let node = MergeSource(sink: self)
            guard let key = group.insert(node) else {
                source.subscribe(node).dispose()
                continue
            }
            node.key = key
            node.setSubscription(source.subscribe(node))
        }
        return group
    }

    fileprivate func on(_ event: Event<Element>, key: CompositeDisposable.DisposeKey) {
        switch event {
        case .next, .error:
            synchronized { _, outbox in outbox.send(event) }
        case .completed:
            group.remove(for: key)
            synchronized { active, outbox in
                active -= 1
                if active == 0 { outbox.send(.completed) }
            }
        }
    }

    override func dispose() {
        group.dispose()
        super.dispose()
    }
}

/// One source of a `merge`: forwards its events to the `MergeArraySink` and holds its
/// subscription (a `SourceNode`: a subject source calls `receiveNext(_:)` directly).
final private class MergeSource<Observer: ObserverType>: SourceNode<Observer.Element>, ObserverType {
    typealias Element = Observer.Element
    private let sink: MergeArraySink<Observer>
    /// The node's key in the sink's group. Written once, before the source is subscribed (so
    /// before any event can arrive); read when the source completes.
    @exclusivity(unchecked) var key = CompositeDisposable.DisposeKey(value: 0)

    init(sink: MergeArraySink<Observer>) {
        self.sink = sink
    }

    override __consuming func receiveNext(_ element: Element) {
        // Through the borrowing `onNext`: reading `sink` from the consumed `self` here retains
        // and releases it around the call.
        onNext(element)
    }

    override func receive(_ event: Event<Element>) {
        sink.on(event, key: key)
    }

    @inline(__always)  // into its protocol witness: one call frame less per element
    func onNext(_ element: Element) {
        sink.serializedNext(element)
    }

    func on(_ event: Event<Element>) {
        sink.on(event, key: key)
    }
}

final private class MergeArrayProducer<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = MergeArraySink(state: sources.count, observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink, subscription)
    }
}
