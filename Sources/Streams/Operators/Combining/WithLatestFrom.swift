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
    ///   See <doc:Combining>.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source,
        resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
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
    ///   the output is serialized. See <doc:Combining>.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), resultSelector: { $1 })
    }
}

/// The locked state of a `withLatestFrom` subscription.
/// Generic over `Result` too (see `CombineLatestSink`).
final private class WithLatestFromSink<First, Second, Result, Observer: ObserverType>: DrainingSink<Observer> where Observer.Element == Result {

    private let resultSelector: (First, Second) throws -> Result
    private let firstSubscription = SingleAssignmentDisposable()
    private let secondSubscription = SingleAssignmentDisposable()
    /// The latest element of `second` (touched only inside `serialize`).
    @exclusivity(unchecked) private var latest: LatestElement<Second>?

    init(resultSelector: @escaping (First, Second) throws -> Result, observer: Observer, cancel: SinkDisposer) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(first: Observable<First>, second: Observable<Second>) -> Disposable {
        // The first source is subscribed even if the second ended the output meanwhile (and
        // disposed at once, with the sink), as in RxSwift: its subscription side effects run.
        secondSubscription.setDisposable(second.subscribe(WithLatestFromSecondObserver(sink: self)))
        firstSubscription.setDisposable(first.subscribe(WithLatestFromFirstObserver(sink: self)))
        return Disposables.create(firstSubscription, secondSubscription)
    }

    /// The first source's element, in turn with the other events.
    fileprivate func serializedFirstNext(_ element: First) {
        serialize({ firstNext(element) }, later: { { self.firstNext(element) } })
    }

    /// The first source's terminal event, in turn with the other events.
    fileprivate func serializedFirstOn(_ event: Event<First>) {
        serialize({ onFirst(event) }, later: { { self.onFirst(event) } })
    }

    /// The second source's element, in turn with the other events.
    fileprivate func serializedSecondNext(_ element: Second) {
        serialize({ secondNext(element) }, later: { { self.secondNext(element) } })
    }

    /// The second source's terminal event, in turn with the other events.
    fileprivate func serializedSecondOn(_ event: Event<Second>) {
        serialize({ onSecond(event) }, later: { { self.onSecond(event) } })
    }

    private func firstNext(_ element: First) {
        guard let latest, !isDisposed else { return }
        let result: Result
        do {
            result = try resultSelector(element, latest.value)
        } catch {
            forwardError(error)
            return
        }
        forwardNext(result)
    }

    private func secondNext(_ element: Second) {
        if let latest {
            latest.value = element
        } else {
            latest = LatestElement(element)
        }
    }

    private func onFirst(_ event: Event<First>) {
        switch event {
        case .next(let element): firstNext(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    private func onSecond(_ event: Event<Second>) {
        switch event {
        case .next(let element): secondNext(element)
        case .error(let error): forwardError(error)
        case .completed: secondSubscription.dispose()
        }
    }
}

final private class WithLatestFromProducer<First, Second, Result>: Producer<Result> {
    private let first: Observable<First>
    private let second: Observable<Second>
    private let resultSelector: (First, Second) throws -> Result

    init(first: Observable<First>, second: Observable<Second>, resultSelector: @escaping (First, Second) throws -> Result) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = WithLatestFromSink<First, Second, Result, Observer>(resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first, second: second)
        return (sink, subscription)
    }
}

/// Forwards the first source's events to its `WithLatestFromSink` (a struct holding the sink:
/// no closure-context retain and release per element).
private struct WithLatestFromFirstObserver<First, Second, Result, Observer: ObserverType>: ObserverType where Observer.Element == Result {
    let sink: WithLatestFromSink<First, Second, Result, Observer>

    func onNext(_ element: First) { sink.serializedFirstNext(element) }
    func on(_ event: Event<First>) { sink.serializedFirstOn(event) }
}

/// Forwards the second source's events to its `WithLatestFromSink`.
private struct WithLatestFromSecondObserver<First, Second, Result, Observer: ObserverType>: ObserverType where Observer.Element == Result {
    let sink: WithLatestFromSink<First, Second, Result, Observer>

    func onNext(_ element: Second) { sink.serializedSecondNext(element) }
    func on(_ event: Event<Second>) { sink.serializedSecondOn(event) }
}
