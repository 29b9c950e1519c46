extension ObservableType {
    /// Drops elements until `other` emits an element, then forwards the rest.
    ///
    ///     self:   --1--2--3--4--|
    ///     other:  -------x-------
    ///     output: --------3--4--|
    ///
    /// The source is subscribed first, then `other`. An error from either fails the output;
    /// `other` completing without an element only disposes `other` (no element is ever
    /// forwarded then). As in RxSwift, if the source completes before `other` has emitted,
    /// the subscription is disposed **without** forwarding `completed`.
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The source's elements emitted after `other`'s first element.
    /// - Note: Delivers on the source's thread (errors of `other` on `other`'s); the output
    ///   is serialized. See <doc:Filtering>.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntilProducer(source: asObservable(), other: other.asObservable())
    }

    /// Drops elements until `other` emits an element, then forwards the rest.
    ///
    /// - Note: Renamed `skip(until:)` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}

final private class SkipUntilSink<Other, Observer: ObserverType>: SerializingSink<Observer, Bool> {
    typealias Element = Observer.Element

    private let sourceSubscription = SingleAssignmentDisposable()
    private let otherSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        // `other` is subscribed even if the source ended the output meanwhile (and disposed at
        // once, with the sink), as in RxSwift: its subscription side effects run.
        sourceSubscription.setDisposable(source.subscribe(SinkForward<Element> { [self] event in onSource(event) }))
        otherSubscription.setDisposable(other.subscribe(SinkForward<Other> { [self] event in onOther(event) }))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    private func onSource(_ event: Event<Element>) {
        let disposeQuietly = synchronized { open, outbox -> Bool in
            switch event {
            case .next:
                if open { outbox.send(event) }
                return false
            case .error:
                outbox.send(event)
                return false
            case .completed:
                if open { outbox.send(event) }
                return !open
            }
        }
        // RxSwift's behaviour: a source that completes before the gate opens ends the
        // subscription without a terminal event.
        if disposeQuietly { dispose() }
    }

    private func onOther(_ event: Event<Other>) {
        switch event {
        case .next:
            withState { $0 = true }
            otherSubscription.dispose()
        case .error(let error):
            synchronized { _, outbox in outbox.send(.error(error)) }
        case .completed:
            otherSubscription.dispose()
        }
    }
}

final private class SkipUntilProducer<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SkipUntilSink<Other, Observer>(state: false, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink, subscription)
    }
}
