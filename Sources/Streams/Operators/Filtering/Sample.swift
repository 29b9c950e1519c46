extension ObservableType {
    /// Emits the source's latest element whenever `sampler` ticks, if a new one arrived since the last tick.
    ///
    ///     self:    --1--2-----3--------|
    ///     sampler: ----x---x----x---x---x
    ///     output:  ----1---2----3---d---(d|)     (d: defaultValue, if not nil)
    ///
    /// On each `sampler` element (and on `sampler`'s completion) the latest source element not
    /// yet emitted is emitted; if there is none, `defaultValue` is emitted when it is not
    /// `nil`, else nothing. After the source completes, the output completes at the next
    /// sampling tick (after emitting as above). An error from either sequence fails the output.
    /// - Parameters:
    ///   - sampler: The sequence whose events trigger sampling.
    ///   - defaultValue: Emitted on a tick without a new source element (`nil`: emit nothing).
    /// - Returns: The sampled sequence.
    /// - Note: Elements are delivered on the thread of `sampler`; the output is serialized.
    ///   See <doc:Filtering>.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        SampleProducer(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private struct SampleState<Element> {
    var element: Element?
    var atEnd = false
}

final private class SampleSink<Sampler, Observer: ObserverType>: SerializingSink<Observer, SampleState<Observer.Element>> {
    typealias Element = Observer.Element

    private let defaultValue: Element?
    private let sourceSubscription = SingleAssignmentDisposable()
    private let samplerSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, observer: Observer, cancel: SinkDisposer) {
        self.defaultValue = defaultValue
        super.init(state: SampleState(), observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>, sampler: Observable<Sampler>) -> Disposable {
        // The sampler is subscribed even if the source ended the output meanwhile (and disposed
        // at once, with the sink), as in RxSwift: its subscription side effects run.
        sourceSubscription.setDisposable(source.subscribe(SinkForward<Element> { [self] event in onSource(event) }))
        samplerSubscription.setDisposable(sampler.subscribe(SinkForward<Sampler> { [self] event in onSampler(event) }))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    private func onSource(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            withState { $0.element = element }
        case .error:
            synchronized { _, outbox in outbox.send(event) }
        case .completed:
            withState { $0.atEnd = true }
            sourceSubscription.dispose()
        }
    }

    private func onSampler(_ event: Event<Sampler>) {
        switch event {
        case .next, .completed:
            synchronized { state, outbox in
                if let element = state.element ?? defaultValue {
                    state.element = nil
                    outbox.send(.next(element))
                }
                if state.atEnd { outbox.send(.completed) }
            }
        case .error(let error):
            synchronized { _, outbox in outbox.send(.error(error)) }
        }
    }
}

final private class SampleProducer<Element, Sampler>: Producer<Element> {
    private let source: Observable<Element>
    private let sampler: Observable<Sampler>
    private let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<Sampler>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SampleSink<Sampler, Observer>(defaultValue: defaultValue, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, sampler: sampler)
        return (sink, subscription)
    }
}
