extension ObservableType {
    /// Forwards the first `count` elements, then completes.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --1--(2|)           (count: 2: completes with the second element)
    ///
    /// Completes right after the `count`-th element (disposing the source), or when the source
    /// completes first. `count == 0` completes at once without subscribing to the source.
    /// A negative `count` fails at once with `RxError.argumentOutOfRange` (RxSwift stops the
    /// program instead).
    /// - Parameter count: The number of elements to forward.
    /// - Returns: The first `count` elements of the source.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func take(_ count: Int) -> Observable<Element> {
        if count < 0 { return Observable.error(RxError.argumentOutOfRange) }
        if count == 0 { return Observable.empty() }
        return TakeCountProducer(source: asObservable(), count: count)
    }
}

final private class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    // The upstream is serial by contract, so `remaining` needs no lock.
    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard remaining > 0 else { return }
            remaining -= 1
            forwardOn(event)
            if remaining == 0 { forwardCompleted() }
        case .error, .completed:
            forwardOn(event)
        }
    }
}

final private class TakeCountProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
