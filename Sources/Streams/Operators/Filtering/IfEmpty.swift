extension ObservableType {
    /// Emits `default` if the source completes without emitting any element.
    ///
    ///     source: --------|
    ///     output: --------(d|)        (default: d)
    ///     source: --1--2--|
    ///     output: --1--2--|
    ///
    /// Errors are forwarded unchanged.
    /// - Parameter default: The element emitted for an empty source.
    /// - Returns: The source, or `default` if it is empty.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmptyProducer(source: asObservable(), default: `default`)
    }

    /// Continues with `other` if the source completes without emitting any element.
    ///
    ///     source: --------|
    ///     other:          --a--b--|
    ///     output: ----------a--b--|
    ///
    /// `other` is subscribed only when the source completes empty; its events are forwarded.
    /// A source error is forwarded and `other` is never subscribed.
    /// - Parameter other: The sequence to switch to for an empty source.
    /// - Returns: The source, or `other` if the source is empty.
    /// - Note: Delivers on the source's scheduler, then on `other`'s. See <doc:Filtering>.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmptyProducer(source: asObservable(), other: other)
    }
}

final private class DefaultIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let defaultElement: Element
    // The upstream is serial by contract, so `isEmpty` needs no lock.
    private var isEmpty = true

    init(default defaultElement: Element, observer: Observer, cancel: SinkDisposer) {
        self.defaultElement = defaultElement
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
        case .completed:
            if isEmpty { forwardNext(defaultElement) }
            forwardCompleted()
        }
    }
}

final private class DefaultIfEmptyProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, default defaultElement: Element) {
        self.source = source
        self.defaultElement = defaultElement
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DefaultIfEmptySink(default: defaultElement, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

final private class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let other: Observable<Element>
    private let sourceSubscription = SingleAssignmentDisposable()
    private let otherSubscription = SingleAssignmentDisposable()
    // Only the (serial) source touches `isEmpty`, and `other` is subscribed after it ends.
    private var isEmpty = true

    init(other: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.other = other
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
        case .completed:
            guard isEmpty else {
                forwardOn(event)
                return
            }
            sourceSubscription.dispose()
            if isDisposed { return }
            otherSubscription.setDisposable(other.subscribe(SinkForward<Element> { [self] event in forwardOn(event) }))
        }
    }
}

final private class SwitchIfEmptyProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source)
        return (sink, subscription)
    }
}
