import Synchronization

extension ObservableType {
    /// Maps each element to an inner sequence and emits only the elements of the latest one.
    ///
    ///     source:  --a-----b--------|
    ///     inner a:   --1--2--3--|
    ///     inner b:         --4--5--|
    ///     output:  ----1--2--4--5---|    (a is disposed when b arrives: 3 is dropped)
    ///
    /// A new element disposes the previous inner subscription before the new inner sequence is
    /// subscribed. Completes once the source has completed and the current inner sequence (if
    /// any) has completed. The first error, from the source, the current inner sequence or a
    /// throwing `selector`, is forwarded and disposes everything.
    /// - Parameter selector: Maps an element to its inner sequence (called outside Streams' locks).
    /// - Returns: The elements of the latest inner sequence.
    /// - Note: The output is serialized (one event at a time). See <doc:Transforming>.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        SwitchProducer(source: asObservable(), selector: selector)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of the latest inner sequence, disposing the previous one when a new one arrives.
    ///
    ///     source:  --A-----B--------|
    ///     A:         --1--2--3--|
    ///     B:               --4--5--|
    ///     output:  ----1--2--4--5---|
    ///
    /// Completes once the source and the current inner sequence have completed; the first error
    /// terminates the output and disposes everything.
    /// - Returns: The elements of the latest inner sequence.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func switchLatest() -> Observable<Element.Element> {
        SwitchProducer(source: asObservable()) { $0 }
    }
}

private struct SwitchState {
    /// Whether the latest inner sequence is still running.
    var hasLatest = false
    /// Whether the source has completed.
    var outerStopped = false
    /// The latest inner subscription (disposed when replaced, completed, or on disposal); the
    /// no-op disposable when there is none. Not an optional: destroying an
    /// `Optional<any Disposable>` goes through the runtime's generic value witnesses.
    var inner: Disposable = NopDisposable.shared

    /// Takes the latest inner subscription out, leaving the no-op one.
    mutating func takeInner() -> Disposable {
        var taken: Disposable = NopDisposable.shared
        swap(&taken, &inner)
        return taken
    }
    /// The sink has been disposed: an inner subscription arriving late is disposed at once.
    var isDisposed = false
}

final private class SwitchSink<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: SerializingSink<Observer, SwitchState>, ObserverType
where Source.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Inner = Observer.Element

    private let selector: (SourceElement) throws -> Source
    private let outerSubscription = SingleAssignmentDisposable()
    /// The id of the latest inner subscription; events of older ones are dropped. Changed only
    /// under the lock (so it is consistent with `SwitchState`), read with or without it.
    private let latestID = Atomic<UInt64>(0)
    private let innerObserver: any InnerObserver.Type

    init(selector: @escaping (SourceElement) throws -> Source, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        innerObserver = SwitchInnerObserver<SourceElement, Source, Observer>.self
        super.init(state: SwitchState(), observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        outerSubscription.setDisposable(source.subscribe(self))
        return outerSubscription
    }

    // MARK: Source events

    func onNext(_ element: SourceElement) {
        outerNext(element)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            outerNext(element)
        case .error(let error):
            synchronized { _, outbox in outbox.send(.error(error)) }
        case .completed:
            outerSubscription.dispose()
            synchronized { state, outbox in
                state.outerStopped = true
                if !state.hasLatest { outbox.send(.completed) }
            }
        }
    }

    private func outerNext(_ element: SourceElement) {
        if isDisposed { return }
        let inner: Observable<Inner>
        do {
            inner = try selector(element).asObservable()
        } catch {
            synchronized { _, outbox in outbox.send(.error(error)) }
            return
        }
        // The previous inner subscription is disposed before the new one starts (as RxSwift);
        // its late events are dropped by id anyway.
        let (id, previous) = withState { state -> (UInt64, Disposable) in
            let id = latestID.load(ordering: .relaxed) &+ 1
            latestID.store(id, ordering: .releasing)
            state.hasLatest = true
            return (id, state.takeInner())
        }
        previous.dispose()
        // On the trampoline, so that a synchronous inner sequence's subscription is stored (and
        // can be disposed by a switch from inside its own elements) before they flow.
        Trampoline.run {
            let subscription = innerObserver.subscribe(inner, sink: self, key: id)
            // Kept while it is the latest and running; otherwise (replaced meanwhile, completed
            // synchronously, or the sink disposed) disposed now. (A `Bool` out of the lock, not
            // the leftover disposable: copying an `any Disposable` goes through value witnesses.)
            let kept = withState { state -> Bool in
                guard isLatest(id), state.hasLatest, !state.isDisposed else { return false }
                state.inner = subscription
                return true
            }
            if !kept { subscription.dispose() }
        }
    }

    /// Whether `id` is the latest inner subscription.
    fileprivate func isLatest(_ id: UInt64) -> Bool {
        latestID.load(ordering: .acquiring) == id
    }

    // MARK: Inner events

    fileprivate func innerOn(_ event: Event<Inner>, id: UInt64) {
        switch event {
        case .next, .error:
            synchronized { state, outbox in
                if isLatest(id) { outbox.send(event) }
            }
        case .completed:
            let finished = synchronized { state, outbox -> Disposable in
                guard isLatest(id) else { return NopDisposable.shared }
                state.hasLatest = false
                if state.outerStopped { outbox.send(.completed) }
                return state.takeInner()
            }
            finished.dispose()
        }
    }

    override func dispose() {
        outerSubscription.dispose()
        let inner = withState { state -> Disposable in
            state.isDisposed = true
            return state.takeInner()
        }
        inner.dispose()
        super.dispose()
    }
}

/// Forwards one inner sequence's events, tagged with its id, to its `SwitchSink`.
private struct SwitchInnerObserver<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: InnerObserver
where Source.Element == Observer.Element {
    let sink: SwitchSink<SourceElement, Source, Observer>
    let id: UInt64

    init(sink: AnyObject, key: UInt64) {
        // Unchecked: only the sink that stored this metatype calls it, with itself.
        self.sink = unsafeDowncast(sink, to: SwitchSink<SourceElement, Source, Observer>.self)
        id = key
    }

    func on(_ event: Event<Observer.Element>) {
        sink.innerOn(event, id: id)
    }

    func onNext(_ element: Observer.Element) {
        // The id is checked when it is this element's turn to be delivered (holding the
        // draining role, or under the lock when queued): a switch either comes first, and the
        // element of the replaced inner sequence is dropped, or waits behind its delivery, so
        // it can never arrive after the first element of the inner sequence that replaced it.
        sink.serializedNext(element) { sink.isLatest(id) }
    }
}

final private class SwitchProducer<SourceElement, Source: ObservableConvertibleType>: Producer<Source.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Source

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Source) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        let sink = SwitchSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
