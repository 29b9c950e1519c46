extension ObservableType {
    /// Emits the elements of this sequence, then, once it completes, those of `second`.
    ///
    ///     self:   --1--2--|
    ///     second:         --3--4--|     (subscribed when self completes)
    ///     output: --1--2----3--4--|
    ///
    /// Completes when `second` completes; an error from either ends the output.
    /// - Parameter second: The sequence to continue with.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the scheduler of whichever source is active. See `Guides/Combining.md`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// Subscribes the sequences of `sequence` one after another, each once the previous completed.
    ///
    ///     sources[0]: --1--|
    ///     sources[1]:      --2--|
    ///     sources[2]:           --3--|
    ///     output:     --1----2----3--|
    ///
    /// Completes when the last sequence completes (at once if there is none); the first error ends
    /// the output. `sequence` is iterated lazily, one source at a time.
    /// - Note: Delivers on the scheduler of whichever source is active. Sources that complete
    ///   during subscription are chained in a loop, not by recursion, so long chains of
    ///   synchronous sources cannot overflow the stack. See `Guides/Combining.md`.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        ConcatProducer(sources: sequence)
    }

    /// Subscribes the sequences of `collection` one after another, each once the previous completed.
    ///
    /// See `concat(_:)` for a `Sequence`.
    /// - Note: Delivers on the scheduler of whichever source is active. See `Guides/Combining.md`.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        ConcatProducer(sources: collection)
    }

    /// Subscribes `sources` one after another, each once the previous completed.
    ///
    /// See `concat(_:)` for a `Sequence`.
    /// - Note: Delivers on the scheduler of whichever source is active. See `Guides/Combining.md`.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        ConcatProducer(sources: sources)
    }
}

/// The locked state of a `concat` subscription.
private struct ConcatState {
    /// A thread is in the subscribe loop (it alone touches the iterator).
    var isSubscribing = false
    /// The current source completed while the loop was running: it must go on.
    var advanceRequested = false
}

final private class ConcatSink<Sources: Sequence, Observer: ObserverType>: SerializingSink<Observer, ConcatState> where Sources.Element == Observable<Observer.Element> {
    typealias Element = Observer.Element

    private let current = SerialDisposable()
    // Safety (not Sendable-checked, but shared by threads): only the thread that set
    // `isSubscribing` under the lock reads or advances the iterator, so access is exclusive,
    // and the lock hand-off orders successive holders.
    private var iterator: Sources.Iterator

    init(sources: Sources, observer: Observer, cancel: Cancelable) {
        iterator = sources.makeIterator()
        super.init(state: ConcatState(), observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        advance()
        return current
    }

    private func on(_ event: Event<Element>) {
        switch event {
        case .next, .error:
            synchronized { _, outbox in outbox.send(event) }
        case .completed:
            advance()
        }
    }

    /// Subscribes the next source. A source that completes while being subscribed (synchronously,
    /// or on another thread before `subscribe` returned) makes the running loop take one more
    /// turn instead of recursing.
    private func advance() {
        let enter = withState { state -> Bool in
            if state.isSubscribing {
                state.advanceRequested = true
                return false
            }
            state.isSubscribing = true
            return true
        }
        guard enter else { return }
        while !isDisposed {
            guard let source = iterator.next() else {
                synchronized { _, outbox in outbox.send(.completed) }
                return
            }
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(source.subscribe(SinkForward<Element> { [self] event in on(event) }))
            let again = withState { state -> Bool in
                if state.advanceRequested {
                    state.advanceRequested = false
                    return true
                }
                state.isSubscribing = false
                return false
            }
            if !again { return }
        }
    }

    override func dispose() {
        current.dispose()
        super.dispose()
    }
}

final private class ConcatProducer<Sources: Sequence, Element>: Producer<Element> where Sources.Element == Observable<Element> {
    private let sources: Sources

    init(sources: Sources) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ConcatSink(sources: sources, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}
