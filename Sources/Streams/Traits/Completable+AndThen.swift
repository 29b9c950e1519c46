// `Completable.andThen`: run a second sequence once a `Completable` has completed.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` after this ``Completable`` completes; an error skips it.
    ///
    ///     self:   --|
    ///     second:   --a|
    ///     output: ----a|
    ///
    /// Once this ``Completable`` has completed, the subscription no longer references it (nor
    /// what its closures capture) while `second` runs.
    /// - Parameter second: The ``Single`` subscribed after completion.
    /// - Returns: A ``Single`` with `second`'s result, or this ``Completable``'s error.
    /// - Note: Delivers on `second`'s scheduler after completion. See <doc:Traits>.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: AndThenProducer(first: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` after this ``Completable`` completes; an error skips it.
    /// - Parameter second: The ``Maybe`` subscribed after completion.
    /// - Returns: A ``Maybe`` with `second`'s result, or this ``Completable``'s error.
    /// - Note: Delivers on `second`'s scheduler after completion. See <doc:Traits>.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: AndThenProducer(first: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` after this ``Completable`` completes; an error skips it.
    /// - Parameter second: The ``Completable`` subscribed after completion.
    /// - Returns: A ``Completable`` that completes when `second` does.
    /// - Note: Delivers on `second`'s scheduler after completion. See <doc:Traits>.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: AndThenProducer(first: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` after this ``Completable`` completes; an error skips it.
    /// - Parameter second: The sequence subscribed after completion.
    /// - Returns: `second`'s events, or this ``Completable``'s error.
    /// - Note: Delivers on `second`'s scheduler after completion. See <doc:Traits>.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        AndThenProducer(first: primitiveSequence.source, second: second)
    }
}

/// The subscription of `andThen`: holds `second` and the current subscription only, so the
/// first sequence (and its subscription) is released as soon as it completes.
final private class AndThenSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    private let second: Observable<Element>
    /// The first sequence's subscription, then the second's.
    private let current = SerialDisposable()

    init(second: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.second = second
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ first: Observable<Never>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(first.subscribe(SinkForward<Never> { [self] event in firstOn(event) }))
        return current
    }

    private func firstOn(_ event: Event<Never>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardError(error)
        case .completed:
            guard !isDisposed else { return }
            // Replacing the first subscription disposes (and releases) it.
            current.disposable = second.subscribe(
                SinkForward<Element>(
                    next: { [self] element in forwardNext(element) },
                    events: { [self] event in forwardOn(event) }
                ))
        }
    }

    override func dispose() {
        current.dispose()
        super.dispose()
    }
}

final private class AndThenProducer<Element>: Producer<Element> {
    private let first: Observable<Never>
    private let second: Observable<Element>

    init(first: Observable<Never>, second: Observable<Element>) {
        self.first = first
        self.second = second
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = AndThenSink(second: second, observer: observer, cancel: cancel)
        let subscription = sink.run(first)
        return (sink, subscription)
    }
}
