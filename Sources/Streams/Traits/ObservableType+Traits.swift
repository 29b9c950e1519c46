extension ObservableType {
    /// Converts the sequence into a ``Single``: its only element, emitted when the source completes.
    ///
    ///     source: --a-----|        --a--b        ---|
    ///     output: --------a|       -----#        ---#
    ///                              (moreThanOneElement)  (noElements)
    ///
    /// Fails with `RxError.moreThanOneElement` at a second element, and with
    /// `RxError.noElements` when the source completes empty.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func asSingle() -> Single<Element> {
        Single(raw: CollectProducer(source: asObservable(), mode: .single))
    }

    /// Converts the sequence into a ``Maybe``: its only element (emitted when the source
    /// completes), or empty completion.
    ///
    /// Fails with `RxError.moreThanOneElement` at a second element.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: CollectProducer(source: asObservable(), mode: .maybe))
    }

    /// Collects every element into one array, emitted when the source completes.
    ///
    ///     source: --1--2--|
    ///     output: --------([1, 2]|)
    ///
    /// - Returns: A ``Single`` of all elements (`[]` for an empty source).
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArrayProducer(source: asObservable()))
    }

    /// The first element, or `nil` when the source completes empty.
    ///
    ///     source: --1--2--|        ---|
    ///     output: --(1|)           ---(nil|)
    ///
    /// The source is disposed as soon as the first element arrives.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func first() -> Single<Element?> {
        Single(raw: FirstProducer(source: asObservable()))
    }
}

private enum CollectMode {
    case single, maybe
}

final private class CollectSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let mode: CollectMode
    private var element: Element?

    init(mode: CollectMode, observer: Observer, cancel: SinkDisposer) {
        self.mode = mode
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardOn(.error(RxError.moreThanOneElement))
            } else {
                element = value
            }
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            if let element {
                forwardNext(element)
                forwardCompleted()
                return
            }
            switch mode {
            case .single: forwardOn(.error(RxError.noElements))
            case .maybe: forwardCompleted()
            }
        }
    }
}

final private class CollectProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let mode: CollectMode

    init(source: Observable<Element>, mode: CollectMode) {
        self.source = source
        self.mode = mode
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = CollectSink(mode: mode, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

final private class ToArraySink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == [Source] {
    typealias Element = Source
    // Only the upstream's (serial) events touch it: no dynamic exclusivity check per element.
    @exclusivity(unchecked) private var elements: [Source] = []

    func onNext(_ element: Source) {
        elements.append(element)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardNext(elements)
            forwardCompleted()
        }
    }
}

final private class ToArrayProducer<Source>: Producer<[Source]> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == [Source] {
        let sink = ToArraySink<Source, Observer>(observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

final private class FirstSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Source? {
    typealias Element = Source

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let value):
            forwardNext(value)
            forwardCompleted()
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardNext(nil)
            forwardCompleted()
        }
    }
}

final private class FirstProducer<Source>: Producer<Source?> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Source? {
        let sink = FirstSink<Source, Observer>(observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}
