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
    /// The sink has been disposed: an inner subscription arriving late is disposed at once.
    var isDisposed = false
}

/// The states of `SwitchSink`'s inner-subscription slot: a tag in the low two bits, the inner
/// sequence's id above them.
private enum InnerSlot {
    /// No subscription is stored or expected.
    static var idle: UInt64 { 0 }
    /// Inner sequence `id` is being subscribed; its subscription is not stored yet.
    static func subscribing(_ id: UInt64) -> UInt64 { id << 2 | 1 }
    /// The subscribing thread is writing inner sequence `id`'s subscription into the slot.
    static func writing(_ id: UInt64) -> UInt64 { id << 2 | 2 }
    /// Inner sequence `id`'s subscription is stored.
    static func stored(_ id: UInt64) -> UInt64 { id << 2 | 3 }
    /// Whether `value` is a `stored` state.
    static func isStored(_ value: UInt64) -> Bool { value & 3 == 3 }
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
    /// The hand-off of the latest inner subscription (an `InnerSlot` state): the subscribing
    /// thread stores it without the lock (`store(_:id:)`); everyone else takes it under the lock
    /// (`takeInner(leaving:)`), so an element costs one lock round trip for the switch, not two.
    private let slot = Atomic<UInt64>(InnerSlot.idle)
    // Safety: `inner` is written only by the thread that moved `slot` from `subscribing(id)` to
    // `writing(id)` (one at a time: inner sequences are subscribed synchronously inside the
    // serialized source's `onNext`, and no call-out happens between the two moves), which then
    // publishes it with a releasing move to `stored(id)` or takes it back itself. It is taken
    // (read and reset) only under the lock by the thread whose exchange on `slot` (acquiring)
    // moved it out of `stored`. Not an optional: destroying an `Optional<any Disposable>` goes
    // through the runtime's generic value witnesses.
    @exclusivity(unchecked) private var inner: Disposable = EmptyDisposable()

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
            return (id, takeInner(leaving: state.isDisposed ? InnerSlot.idle : InnerSlot.subscribing(id)))
        }
        previous.dispose()
        // On the trampoline if the inner sequence subscribes there, so that a synchronous inner
        // sequence's subscription is stored (and can be disposed by a switch from inside its own
        // elements) before they flow; a source that emits at once (`just`, a subject) emits
        // without starting it, as in RxSwift (see `Trampoline.run(subscribing:_:)`).
        Trampoline.run(subscribing: inner) {
            store(innerObserver.subscribe(inner, sink: self, key: id), id: id)
        }
    }

    /// Keeps inner sequence `id`'s subscription while it is the latest and running; otherwise
    /// (replaced meanwhile, completed synchronously, or the sink disposed: each of those moved
    /// `slot` away from `subscribing(id)` under the lock) disposes it. No lock: two atomic moves.
    @inline(__always)
    private func store(_ subscription: consuming Disposable, id: UInt64) {
        guard slot.compareExchange(expected: InnerSlot.subscribing(id), desired: InnerSlot.writing(id), ordering: .acquiringAndReleasing).exchanged else {
            subscription.dispose()
            return
        }
        inner = consume subscription  // moved, not copied
        #if DEBUG
        SwitchSinkTestHooks.whileWriting?()
        #endif
        if slot.compareExchange(expected: InnerSlot.writing(id), desired: InnerSlot.stored(id), ordering: .acquiringAndReleasing).exchanged {
            return
        }
        // Taken meanwhile by a thread that found it being written (and left it to us).
        var taken: Disposable = EmptyDisposable()
        swap(&taken, &inner)
        taken.dispose()
    }

    /// Moves `slot` to `next` and returns the stored subscription it held (the no-op disposable
    /// if none was stored). Call under the lock; dispose the result after it.
    @inline(__always)
    private func takeInner(leaving next: UInt64) -> Disposable {
        guard InnerSlot.isStored(slot.exchange(next, ordering: .acquiringAndReleasing)) else { return EmptyDisposable() }
        // Moved out and the no-op one moved in (`swap` costs three moves of the existential).
        return withUnsafeMutablePointer(to: &inner) { field in
            let taken = field.move()
            field.initialize(to: EmptyDisposable())
            return taken
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
                guard isLatest(id) else { return EmptyDisposable() }
                state.hasLatest = false
                if state.outerStopped { outbox.send(.completed) }
                return takeInner(leaving: InnerSlot.idle)
            }
            finished.dispose()
        }
    }

    override func dispose() {
        outerSubscription.dispose()
        let inner = withState { state -> Disposable in
            state.isDisposed = true
            return takeInner(leaving: InnerSlot.idle)
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

#if DEBUG
/// Test hooks (DEBUG builds only) that let tests drive the inner-subscription hand-off's races
/// deterministically.
package enum SwitchSinkTestHooks {
    // Safety: set by a test before the events it drives start and cleared after they ended;
    // only read while those events flow, so no write races with a read.
    /// Called by the subscribing thread between writing the subscription and publishing it.
    nonisolated(unsafe) package static var whileWriting: (() -> Void)?
}
#endif
