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
    /// - Note: Delivers on the scheduler of whichever source is active. See <doc:Combining>.
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
    ///   during subscription are chained in a loop, not by recursion, and a `concat` among the
    ///   sources is expanded in place rather than subscribed, so long chains of synchronous
    ///   sources and deeply nested concatenations (`items.reduce(.empty()) { $0.concat(f($1)) }`)
    ///   cannot overflow the stack. See <doc:Combining>.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        ConcatProducer(sources: sequence)
    }

    /// Subscribes the sequences of `collection` one after another, each once the previous completed.
    ///
    /// See `concat(_:)` for a `Sequence`.
    /// - Note: Delivers on the scheduler of whichever source is active. See <doc:Combining>.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        ConcatProducer(sources: collection)
    }

    /// Subscribes `sources` one after another, each once the previous completed.
    ///
    /// See `concat(_:)` for a `Sequence`.
    /// - Note: Delivers on the scheduler of whichever source is active. See <doc:Combining>.
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

final private class ConcatSink<Sources: Sequence, Observer: ObserverType>: SerializingSink<Observer, ConcatState>
where Sources.Element == Observable<Observer.Element> {
    typealias Element = Observer.Element

    private let current = SerialDisposable()
    // Safety (not Sendable-checked, but shared by threads): only the thread that set
    // `isSubscribing` under the lock reads or advances the iterators, so access is exclusive,
    // and the lock hand-off orders successive holders.
    private var iterator: Sources.Iterator
    /// The sources of nested `concat`s being expanded, innermost last (consulted before
    /// `iterator`).
    private var nested: [AnyIterator<Observable<Element>>] = []

    init(sources: Sources, observer: Observer, cancel: SinkDisposer) {
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
            guard let source = nextSource() else {
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

    /// The next source to subscribe: nested `concat`s are expanded in place (their sources are
    /// taken one by one, as subscribing them would), so nesting costs heap, not stack.
    private func nextSource() -> Observable<Element>? {
        while true {
            let source: Observable<Element>
            if let top = nested.last {
                guard let next = top.next() else {
                    nested.removeLast()
                    continue
                }
                source = next
            } else {
                guard let next = iterator.next() else { return nil }
                source = next
            }
            if let concatenation = source as? ConcatenationProducer<Element> {
                nested.append(concatenation.makeSourceIterator())
                continue
            }
            return source
        }
    }

    override func dispose() {
        current.dispose()
        super.dispose()
    }
}

/// A `concat` producer, seen by an enclosing `concat`, which expands its sources in place.
///
/// Releasing a deeply nested concatenation is a loop too: each level hands its sources to the
/// level releasing it instead of releasing them itself, so the release does not recurse once
/// per level.
class ConcatenationProducer<Element>: Producer<Element> {
    /// A fresh iterator over the sources (one per subscription).
    func makeSourceIterator() -> AnyIterator<Observable<Element>> {
        fatalError("ConcatenationProducer.makeSourceIterator() is abstract")
    }

    /// Moves the sources out, if they are an array (called only while being released).
    func takeSourcesForRelease() -> [Observable<Element>] { [] }

    deinit {
        var pending = takeSourcesForRelease()
        while var source = pending.popLast() {
            // Only a concatenation nobody else holds is released here, so its sources are ours.
            guard isKnownUniquelyReferenced(&source), let nested = source as? ConcatenationProducer<Element> else { continue }
            pending.append(contentsOf: nested.takeSourcesForRelease())
        }
    }
}

final private class ConcatProducer<Sources: Sequence, Element>: ConcatenationProducer<Element> where Sources.Element == Observable<Element> {
    /// Set at init and only read afterwards, but for `takeSourcesForRelease()` during release,
    /// when nothing else can touch the producer (so no exclusivity check is needed).
    @exclusivity(unchecked) private var sources: Sources?

    init(sources: Sources) {
        self.sources = sources
    }

    override func makeSourceIterator() -> AnyIterator<Observable<Element>> {
        AnyIterator(sources.unsafelyUnwrapped.makeIterator())
    }

    override func takeSourcesForRelease() -> [Observable<Element>] {
        guard let taken = sources.take() else { return [] }
        return taken as? [Observable<Element>] ?? []
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ConcatSink(sources: sources.unsafelyUnwrapped, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}
