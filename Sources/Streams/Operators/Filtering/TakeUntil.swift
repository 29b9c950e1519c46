extension ObservableType {
    /// Forwards elements until `other` emits an element, then completes.
    ///
    ///     self:   --1--2--3--4--|
    ///     other:  -------x-------
    ///     output: --1--2-|
    ///
    /// An error from `other` fails the output; `other` completing without an element changes
    /// nothing (the output then runs until `self` terminates). `other` is subscribed first, so
    /// an element it emits during subscription completes the output before `self` is subscribed.
    /// - Parameter other: The sequence whose first element ends the output.
    /// - Returns: The elements of `self` emitted before `other`'s first element.
    /// - Note: Delivers on the thread of whichever sequence emits; the output is serialized.
    ///   See <doc:Filtering>.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntilProducer(source: asObservable(), other: other.asObservable())
    }

    /// Forwards elements until `other` emits an element, then completes.
    ///
    /// - Note: Renamed `take(until:)` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }
}

final private class TakeUntilSink<Other, Observer: ObserverType>: SerializingSink<Observer, Void> {
    typealias Element = Observer.Element

    private let sourceSubscription = SingleAssignmentDisposable()
    private let otherSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        // The source is subscribed even if `other` ended the output meanwhile (and disposed
        // at once, with the sink), as in RxSwift: its subscription side effects run.
        otherSubscription.setDisposable(other.subscribe(SinkForward<Other> { [self] event in onOther(event) }))
        sourceSubscription.setDisposable(
            source.subscribe(
                SinkForward<Element> { [self] event in
                    synchronized { _, outbox in outbox.send(event) }
                }))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    private func onOther(_ event: Event<Other>) {
        switch event {
        case .next:
            synchronized { _, outbox in outbox.send(.completed) }
        case .error(let error):
            synchronized { _, outbox in outbox.send(.error(error)) }
        case .completed:
            otherSubscription.dispose()
        }
    }
}

final private class TakeUntilProducer<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(state: (), observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink, subscription)
    }
}
