extension ObservableType {
    /// Emits only the element at `index` (zero-based), then completes.
    ///
    ///     source: --a--b--c--|
    ///     output: -----(b|)           (index: 1)
    ///
    /// If the source completes before reaching `index`, the output fails with
    /// `RxError.argumentOutOfRange`. A negative `index` fails at once with the same error
    /// (RxSwift stops the program instead). Source errors are forwarded.
    /// - Parameter index: The zero-based index of the element to emit.
    /// - Returns: A sequence with the element at `index`.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func element(at index: Int) -> Observable<Element> {
        if index < 0 { return Observable.error(RxError.argumentOutOfRange) }
        return ElementAtProducer(source: asObservable(), index: index)
    }

    /// Emits only the element at `index`, then completes.
    ///
    /// - Note: Renamed ``ObservableType/element(at:)`` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

final private class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    // The upstream is serial by contract, so `remaining` needs no lock.
    private var remaining: Int

    init(index: Int, observer: Observer, cancel: SinkDisposer) {
        remaining = index
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining == 0 {
                forwardOn(event)
                forwardCompleted()
            }
            remaining -= 1
        case .error:
            forwardOn(event)
        case .completed:
            forwardOn(.error(RxError.argumentOutOfRange))
        }
    }
}

final private class ElementAtProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
