extension ObservableType {
    /// Drops the first `count` elements and forwards the rest.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --------3--4--|     (count: 2)
    ///
    /// Errors and completion are forwarded as they come. A `count` of zero or less drops nothing
    /// (as RxSwift).
    /// - Parameter count: The number of elements to drop.
    /// - Returns: The source without its first `count` elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func skip(_ count: Int) -> Observable<Element> {
        SkipCountProducer(source: asObservable(), count: count)
    }
}

final private class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    // The upstream is serial by contract, so `remaining` needs no lock.
    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        if case .next = event, remaining > 0 {
            remaining -= 1
            return
        }
        forwardOn(event)
    }
}

final private class SkipCountProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SkipCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
