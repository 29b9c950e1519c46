extension ObservableType {
    /// Forwards the only element of the source; fails if there is none or more than one.
    ///
    ///     source: --a-----|
    ///     output: --a-----|
    ///     source: --a--b--|
    ///     output: --a--#              (#: RxError.moreThanOneElement)
    ///
    /// The element is forwarded as soon as it arrives (as RxSwift); a second element fails the
    /// output with `RxError.moreThanOneElement`, and completing without an element fails it
    /// with `RxError.noElements`.
    /// - Returns: The sequence holding the single element.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func single() -> Observable<Element> {
        SingleProducer(source: asObservable(), predicate: { _ in true })
    }

    /// Forwards the only element that satisfies `predicate`; fails if there is none or more than one.
    ///
    ///     source: --1--2--3--|
    ///     output: -----2-----|        (predicate: isEven)
    ///
    /// An error thrown by `predicate` terminates the output with that error.
    /// - Parameter predicate: Selects the elements that count.
    /// - Returns: The sequence holding the single matching element.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleProducer(source: asObservable(), predicate: predicate)
    }
}

final private class SingleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let predicate: (Element) throws -> Bool
    // The upstream is serial by contract, so `seen` needs no lock.
    private var seen = false

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                guard try predicate(element) else { return }
            } catch {
                forwardOn(.error(error))
                return
            }
            if seen {
                forwardOn(.error(RxError.moreThanOneElement))
                return
            }
            seen = true
            forwardOn(event)
        case .error:
            forwardOn(event)
        case .completed:
            forwardOn(seen ? .completed : .error(RxError.noElements))
        }
    }
}

final private class SingleProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SingleSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
