extension ObservableType {
    /// Combines each element of this sequence with the latest element of `second`, once `second`
    /// has emitted.
    ///
    ///     self:   --1-----2-----3--|
    ///     second: -----a-----b------
    ///     output: --------A-----B--|     (A = selector(2, a), B = selector(3, b))
    ///
    /// Elements of `self` that arrive before `second`'s first element are dropped. Completes when
    /// `self` completes; `second` completing does not end the output (its last element stays in
    /// use). Fails when either sequence fails or `resultSelector` throws.
    /// - Parameters:
    ///   - second: The sequence whose latest element is used.
    ///   - resultSelector: Combines an element of `self` with the latest of `second`. Runs outside
    ///     Streams' locks.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread on which `self` (or, for an error, `second`) emits, or of a
    ///   thread already delivering; the output is serialized. `second` is subscribed first.
    ///   See `Guides/Combining.md`.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source,
        resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), selection: .user { pair in
            try resultSelector(pair.0, pair.1)
        })
    }

    /// Emits the latest element of `second` for each element of this sequence, once `second`
    /// has emitted.
    ///
    ///     self:   --1-----2-----3--|
    ///     second: -----a-----b------
    ///     output: --------a-----b--|
    ///
    /// Termination as for `withLatestFrom(_:resultSelector:)`.
    /// - Note: Delivers on the thread on which `self` emits (or of a thread already delivering);
    ///   the output is serialized. See `Guides/Combining.md`.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), selection: .library { $0.1 })
    }
}

/// The locked state of a `withLatestFrom` subscription.
private struct WithLatestFromState<Second, Result>: SequencedResultsState {
    var latest: Second?
    /// A terminal event has been decided; later inputs are ignored.
    var isStopped = false
    var results = ResultSequencer<Result>()
}

final private class WithLatestFromSink<First, Second, Observer: ObserverType>: SerializingSink<Observer, WithLatestFromState<Second, Observer.Element>> {
    typealias Result = Observer.Element

    private let selection: ResultSelection<(First, Second), Result>
    private let firstSubscription = SingleAssignmentDisposable()
    private let secondSubscription = SingleAssignmentDisposable()

    init(selection: ResultSelection<(First, Second), Result>, observer: Observer, cancel: Cancelable) {
        self.selection = selection
        super.init(state: WithLatestFromState(), observer: observer, cancel: cancel)
    }

    func run(first: Observable<First>, second: Observable<Second>) -> Disposable {
        secondSubscription.setDisposable(second.subscribe(SinkForward<Second> { [self] event in onSecond(event) }))
        if !isDisposed {
            firstSubscription.setDisposable(first.subscribe(SinkForward<First> { [self] event in onFirst(event) }))
        }
        return Disposables.create(firstSubscription, secondSubscription)
    }

    private func onFirst(_ event: Event<First>) {
        switch event {
        case .next(let element):
            let pending = synchronized { state, outbox -> (UInt64, Second)? in
                guard !state.isStopped, let latest = state.latest else { return nil }
                guard let ticket = selection.begin((element, latest), results: &state.results, outbox: &outbox) else { return nil }
                return (ticket, latest)
            }
            if let (ticket, latest) = pending { finishSelection(ticket, (element, latest), selection) }
        case .error(let error):
            stopOutput(with: .error(error))
        case .completed:
            stopOutput(with: .completed)
        }
    }

    private func onSecond(_ event: Event<Second>) {
        switch event {
        case .next(let element):
            withState { state in
                if !state.isStopped { state.latest = element }
            }
        case .error(let error):
            stopOutput(with: .error(error))
        case .completed:
            secondSubscription.dispose()
        }
    }
}

final private class WithLatestFromProducer<First, Second, Result>: Producer<Result> {
    private let first: Observable<First>
    private let second: Observable<Second>
    private let selection: ResultSelection<(First, Second), Result>

    init(first: Observable<First>, second: Observable<Second>, selection: ResultSelection<(First, Second), Result>) {
        self.first = first
        self.second = second
        self.selection = selection
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = WithLatestFromSink<First, Second, Observer>(selection: selection, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first, second: second)
        return (sink, subscription)
    }
}
