extension ObservableType {
    /// Combines the latest elements of every sequence in `collection` with `resultSelector`
    /// whenever any of them emits, once all have emitted.
    ///
    ///     collection[0]: --1-----2------|
    ///     collection[1]: -----a-----b---|
    ///     output:        -----A--B--C---|     (A = selector([1, a]), B = [2, a], C = [2, b])
    ///
    /// An empty collection emits `resultSelector([])` and completes at once (as RxSwift).
    /// Otherwise termination is as for `combineLatest(_:_:resultSelector:)`.
    /// - Parameters:
    ///   - collection: The sources; the selector receives their elements in collection order.
    ///   - resultSelector: Combines the latest elements. Runs outside Streams' locks.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        CombineLatestCollection(
            sources: collection.map { $0.asObservable() },
            select: { values in
                try resultSelector(values.elements(as: Collection.Element.Element.self))
            })
    }

    /// Emits an array of the latest elements of every sequence in `collection` whenever any of
    /// them emits, once all have emitted.
    ///
    ///     collection[0]: --1-----2------|
    ///     collection[1]: -----a-----b---|
    ///     output:        -----A--B--C---|     (A = [1, a], B = [2, a], C = [2, b])
    ///
    /// An empty collection emits `[]` and completes at once (as RxSwift).
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CombineLatestCollection(
            sources: collection.map { $0.asObservable() },
            select: { values in
                values.elements(as: Element.self)
            })
    }
}

final private class CombineLatestCollection<SourceElement, Result>: Producer<Result> {
    private let sources: [Observable<SourceElement>]
    private let select: (CombineLatestValues) throws -> Result

    init(sources: [Observable<SourceElement>], select: @escaping (CombineLatestValues) throws -> Result) {
        self.sources = sources
        self.select = select
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = CombineLatestSink(arity: sources.count, select: select, observer: observer, cancel: cancel)
        if sources.isEmpty {
            sink.runEmpty()
        }
        for (index, source) in sources.enumerated() {
            sink.subscribe(source, at: index)
        }
        return (sink, sink.takeSubscription())
    }
}

extension CombineLatestValues {
    /// Every source's latest element, in source order.
    func elements<Element>(as type: Element.Type) -> [Element] {
        (0..<count).map { self[$0, as: Element.self] }
    }
}
