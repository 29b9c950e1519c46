extension ObservableType {
    /// Combines the elements of every sequence in `collection` by index with `resultSelector`.
    ///
    ///     collection[0]: --1--2-----3--|
    ///     collection[1]: ----a---b-------c--|
    ///     output:        ----A---B-------C--|     (A = selector([1, a]), B = [2, b], C = [3, c])
    ///
    /// An empty collection completes at once. Completes when every source has completed, or
    /// (as RxSwift's collection `zip`) when a source emits while all the others have completed
    /// and some buffer is empty. Fails as soon as a source fails or `resultSelector` throws.
    /// - Parameters:
    ///   - collection: The sources; the selector receives their elements in collection order.
    ///   - resultSelector: Combines one element of each source. Runs outside Streams' locks.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        ZipCollection(sources: collection.map { $0.asObservable() }, selection: .user(resultSelector))
    }

    /// Combines the elements of every sequence in `collection` by index into arrays.
    ///
    ///     collection[0]: --1--2-----3--|
    ///     collection[1]: ----a---b-------c--|
    ///     output:        ----A---B-------C--|     (A = [1, a], B = [2, b], C = [3, c])
    ///
    /// Termination as for `zip(_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        ZipCollection(sources: collection.map { $0.asObservable() }, selection: .library { $0 })
    }
}

final private class ZipCollection<SourceElement, Result>: Producer<Result> {
    typealias Buffers = [ZipBuffer<SourceElement>]
    private let sources: [Observable<SourceElement>]
    private let selection: ResultSelection<[SourceElement], Result>

    init(sources: [Observable<SourceElement>], selection: ResultSelection<[SourceElement], Result>) {
        self.sources = sources
        self.selection = selection
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = ZipSink(
            arity: sources.count, buffers: Buffers(repeating: ZipBuffer(), count: sources.count), completesEarly: true,
            take: { buffers in
                var arguments: [SourceElement] = []
                arguments.reserveCapacity(buffers.count)
                for index in buffers.indices { arguments.append(buffers[index].dequeue()) }
                return arguments
            },
            selection: selection, observer: observer, cancel: cancel
        )
        if sources.isEmpty {
            sink.runEmpty()
        }
        for (index, source) in sources.enumerated() {
            sink.subscribe(source, at: index) { buffers, element in buffers[index].enqueue(element) }
        }
        return (sink, sink.subscription)
    }
}
