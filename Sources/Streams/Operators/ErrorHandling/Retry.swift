extension ObservableType {
    /// Resubscribes to the source after every error, until it completes.
    ///
    ///     source (1st): -a-#
    ///     source (2nd):    -a-b|
    ///     output:       -a--a-b|
    ///
    /// Elements of every attempt are forwarded, so a source that fails after emitting repeats
    /// those elements. The failed subscription is disposed before the next one starts.
    /// Resubscribing runs in a loop, not by recursion, so a source that fails synchronously does
    /// not grow the stack (it does keep the thread busy for as long as it keeps failing).
    /// - Returns: The source sequence, repeated until it terminates successfully.
    /// - Note: Resubscribes on the thread of the error. **This can create an infinite sequence.**
    ///   See <doc:ErrorHandling>.
    public func retry() -> Observable<Element> {
        CatchSequenceProducer(
            sources: AnySequence { () -> AnyIterator<Observable<Element>> in
                let source = self.asObservable()
                return AnyIterator { source }
            })
    }

    /// Subscribes to the source up to `maxAttemptCount` times in total, until it completes.
    ///
    ///     source (each attempt): -a-#
    ///     output (retry(2)):     -a--a-#
    ///
    /// `retry(1)` is the source itself; to retry once after an error, use `retry(2)`. After the
    /// last attempt fails, its error is forwarded. As in RxSwift, `retry(0)` completes at once
    /// without subscribing, and a negative count is a programmer error (it stops the program).
    /// - Parameter maxAttemptCount: The total number of subscriptions, the first one included.
    /// - Returns: The source sequence, repeated on error at most `maxAttemptCount` times in all.
    /// - Note: Resubscribes on the thread of the error. See <doc:ErrorHandling>.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "retry(_:) requires a non-negative maxAttemptCount")
        return CatchSequenceProducer(sources: AnySequence(Swift.repeatElement(asObservable(), count: maxAttemptCount)))
    }

    /// Subscribes to each sequence of `sequence` in turn while they fail; ends like the first one
    /// that completes, or with the last error.
    ///
    ///     1st:    -a-#
    ///     2nd:       -b-#
    ///     3rd:          -c|
    ///     output: -a--b--c|
    ///
    /// An empty `sequence` completes at once. The sequence is iterated lazily, one element per
    /// failure, so it may be infinite.
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each sequence tried, ending like the first one that completes.
    /// - Note: Subscribes to the next sequence on the thread of the error. See <doc:ErrorHandling>.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        CatchSequenceProducer(sources: AnySequence(sequence))
    }
}

private struct CatchSequenceState {
    /// Who runs the subscribe loop, and whether an error asked it to subscribe again.
    var loop = ResubscribeLoop()
    var lastError: Swift.Error?
}

final private class CatchSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    // Thread safety: `sources` is only used by the thread running the subscribe loop, and only
    // one thread runs it at a time (`state.loop`, handed over under the lock).
    typealias Element = Observer.Element
    private var sources: AnyIterator<Observable<Element>>
    private let state = LockedState(CatchSequenceState())
    private let subscription = SerialDisposable()

    init(sources: AnySequence<Observable<Element>>, observer: Observer, cancel: SinkDisposer) {
        self.sources = sources.makeIterator()
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        moveNext()
        return subscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            forwardOn(event)
        case .error(let error):
            state.withLock { $0.lastError = error }
            moveNext()
        }
    }

    /// Subscribes to the next source. A call made while the loop runs on this or another thread
    /// (an error during `subscribe`) only flags the loop to go round once more: this is the
    /// trampoline that keeps synchronous failures from recursing.
    private func moveNext() {
        guard state.withLock({ $0.loop.request() }) else { return }
        while true {
            if isDisposed {
                state.withLock { $0.loop.stop() }
                return
            }
            guard let source = sources.next() else {
                let error = state.withLock { state -> Swift.Error? in
                    state.loop.stop()
                    return state.lastError
                }
                forwardOn(error.map { .error($0) } ?? .completed)
                return
            }
            let attempt = SingleAssignmentDisposable()
            subscription.disposable = attempt
            attempt.setDisposable(source.subscribe(self))
            guard state.withLock({ $0.loop.finishPass() }) else { return }
        }
    }

    override func dispose() {
        subscription.dispose()
        super.dispose()
    }
}

final private class CatchSequenceProducer<Element>: Producer<Element> {
    private let sources: AnySequence<Observable<Element>>

    init(sources: AnySequence<Observable<Element>>) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: sources, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}
