extension ObservableType {
    /// Emits the last `count` elements of the source when it completes.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --------------(34|)     (count: 2)
    ///
    /// Elements are buffered (at most `count`) and emitted all at once on completion. An error
    /// is forwarded and drops the buffer. A `count` of zero or less emits nothing.
    /// - Parameter count: The number of trailing elements to emit.
    /// - Returns: The last `count` elements of the source.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func takeLast(_ count: Int) -> Observable<Element> {
        TakeLastProducer(source: asObservable(), count: count)
    }
}

final private class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let count: Int
    // The upstream is serial by contract, so the buffer needs no lock. A ring of `count` slots.
    private var ring: [Element] = []
    private var start = 0

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.count = max(count, 0)
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            if ring.count < count {
                ring.append(element)
            } else {
                ring[start] = element
                start = (start + 1) % count
            }
        case .error:
            ring = []
            forwardOn(event)
        case .completed:
            let ordered = ring[start...] + ring[..<start]
            ring = []
            for element in ordered {
                if isDisposed { return }
                forwardNext(element)
            }
            forwardCompleted()
        }
    }
}

final private class TakeLastProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
