extension ObservableType {
    /// Emits `elements` first, then the elements of this sequence.
    ///
    ///     source: -----1--2--|
    ///     output: (ab)-1--2--|     (elements: a, b)
    ///
    /// The prefix is emitted synchronously on subscription, before the source is subscribed.
    /// - Parameter elements: The elements to emit first.
    /// - Returns: The source preceded by `elements`.
    /// - Note: The prefix is delivered on the subscribing thread, the rest on the source's
    ///   scheduler. See <doc:Combining>.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWithProducer(source: asObservable(), elements: elements)
    }
}

final private class StartWithSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }

    func run(source: Observable<Element>, elements: [Element]) -> Disposable {
        for element in elements {
            if isDisposed { return Disposables.create() }
            forwardNext(element)
        }
        // Subscribed even if the output ended meanwhile (then disposed at once, with the sink),
        // as in RxSwift: its subscription side effects run.
        return source.subscribe(self)
    }
}

final private class StartWithProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = StartWithSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, elements: elements)
        return (sink, subscription)
    }
}
