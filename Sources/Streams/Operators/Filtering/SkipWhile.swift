extension ObservableType {
    /// Drops elements while `predicate` returns `true`, then forwards the rest.
    ///
    ///     source: --1--2--3--1--|
    ///     output: --------3--1--|     (predicate: { $0 < 3 })
    ///
    /// Once `predicate` returns `false`, it is not called again. An error thrown by `predicate`
    /// terminates the output with that error.
    /// - Parameter predicate: Decides, per leading element, whether to drop it.
    /// - Returns: The source from the first element failing `predicate` on.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhileProducer(source: asObservable(), predicate: predicate)
    }

    /// Drops elements while `predicate` returns `true`, then forwards the rest.
    ///
    /// - Note: Renamed `skip(while:)` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

final private class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let predicate: (Element) throws -> Bool
    // The upstream is serial by contract, so `skipping` needs no lock.
    private var skipping = true

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        if case .next(let element) = event, skipping {
            do {
                skipping = try predicate(element)
            } catch {
                forwardOn(.error(error))
                return
            }
            if skipping { return }
        }
        forwardOn(event)
    }
}

final private class SkipWhileProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
