extension ObservableType {
    /// Pairs each element with `obj`, held weakly; completes at the first element after `obj` is gone.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --a--b--|          (a = (o, 1), b = (o, 2); o deallocated between 2 and 3)
    ///
    /// Use it to reach `self` in `subscribe(onNext:)` without a retain cycle. Errors and completion
    /// pass through.
    /// - Parameters:
    ///   - obj: The object to pass along, not retained by the operator.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: The combined elements.
    /// - Note: Delivers on the source's scheduler. Don't put its output into a replaying
    ///   ``ObservableType/share(replay:scope:)``: the buffer would retain `obj`. See <doc:Utility>.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        WithUnretainedProducer(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj`, held weakly; completes at the first element after `obj` is gone.
    ///
    ///     source: --1--2--3--|
    ///     output: --a--b--c--|       (a = (o, 1), b = (o, 2), c = (o, 3))
    ///
    /// - Parameter obj: The object to pass along, not retained by the operator.
    /// - Returns: `(obj, element)` tuples.
    /// - Note: Delivers on the source's scheduler. See <doc:Utility>.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

final private class WithUnretainedSink<Object: AnyObject, Source, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Source
    private weak var object: Object?
    private let resultSelector: (Object, Source) -> Observer.Element

    init(object: Object?, resultSelector: @escaping (Object, Source) -> Observer.Element, observer: Observer, cancel: SinkDisposer) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard let object else {
                forwardCompleted()
                return
            }
            forwardNext(resultSelector(object, element))
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardCompleted()
        }
    }
}

final private class WithUnretainedProducer<Object: AnyObject, Source, Result>: Producer<Result> {
    private let source: Observable<Source>
    private weak var object: Object?
    private let resultSelector: (Object, Source) -> Result

    init(source: Observable<Source>, object: Object, resultSelector: @escaping (Object, Source) -> Result) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = WithUnretainedSink(object: object, resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
