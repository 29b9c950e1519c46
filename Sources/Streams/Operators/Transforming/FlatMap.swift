import Synchronization

extension ObservableType {
    /// Maps each element to an inner sequence and merges the elements of all inner sequences.
    ///
    ///     source:  --a---b--------|
    ///     inner a:   --1--2--|
    ///     inner b:       --3--4--|
    ///     output:  ----1--23--4---|     (arrival order)
    ///
    /// Inner sequences are subscribed as soon as their element arrives and run concurrently.
    /// Completes once the source and every inner sequence have completed. The first error, from
    /// the source, an inner sequence or a throwing `selector`, is forwarded and disposes everything.
    /// - Parameter selector: Maps an element to its inner sequence (called outside Streams' locks).
    /// - Returns: The merged elements of the inner sequences.
    /// - Note: Inner sequences may emit on different threads; the output is serialized (one event
    ///   at a time) and delivered on the emitting threads. See <doc:Transforming>.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapProducer(source: asObservable(), mode: .all, selector: selector)
    }

    /// Maps an element to an inner sequence only while no inner sequence is running; elements
    /// arriving meanwhile are dropped (`selector` is not called for them).
    ///
    ///     source:  --a--b-------c---|
    ///     inner a:   --1--2--|
    ///     inner c:              --3--|
    ///     output:  ----1--2-------3--|     (b is dropped)
    ///
    /// Completes once the source and the running inner sequence have completed; the first error
    /// terminates the output and disposes everything.
    /// - Parameter selector: Maps an element to its inner sequence (called outside Streams' locks).
    /// - Returns: The elements of the inner sequences that were started.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapProducer(source: asObservable(), mode: .first, selector: selector)
    }

    /// Maps each element to an inner sequence and emits the inner sequences one after another.
    ///
    ///     source:  --a--b------------|
    ///     inner a:   --1--2--|
    ///     inner b:           --3--4--|     (subscribed when a completes)
    ///     output:  ----1--2----3--4--|
    ///
    /// `selector` runs when the element arrives; its sequence waits in a queue until the previous
    /// inner sequence completes. Completes once the source has completed and the queue is done;
    /// the first error terminates the output and disposes everything.
    /// - Parameter selector: Maps an element to its inner sequence (called outside Streams' locks).
    /// - Returns: The concatenated elements of the inner sequences.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapProducer(source: asObservable(), mode: .limited(1), selector: selector)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of the inner sequences this sequence emits.
    ///
    ///     source:  --A---B--------|
    ///     A:         --1--2--|
    ///     B:             --3--4--|
    ///     output:  ----1--23--4---|
    ///
    /// Completes once the source and every inner sequence have completed; the first error
    /// terminates the output and disposes everything.
    /// - Returns: The merged elements of the inner sequences.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func merge() -> Observable<Element.Element> {
        FlatMapProducer(source: asObservable(), mode: .all) { $0 }
    }

    /// Merges the elements of the inner sequences, subscribed to at most `maxConcurrent` at a time.
    ///
    ///     source:  --A--B--C-------------|     (maxConcurrent: 2)
    ///     A:         --1------|
    ///     B:            --2--|
    ///     C:                 --3--|          (waits for B)
    ///     output:  ----1--2----3---------|
    ///
    /// Extra inner sequences wait in a queue. A `maxConcurrent` below 1 fails the output with
    /// `RxError.argumentOutOfRange` on subscribe.
    /// - Parameter maxConcurrent: The most inner sequences subscribed at once.
    /// - Returns: The merged elements of the inner sequences.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        FlatMapProducer(source: asObservable(), mode: .limited(maxConcurrent)) { $0 }
    }

    /// Emits the elements of the inner sequences one sequence after another (`merge(maxConcurrent: 1)`).
    ///
    ///     source:  --A--B------------|
    ///     A:         --1--2--|
    ///     B:                 --3--4--|     (subscribed when A completes)
    ///     output:  ----1--2----3--4--|
    ///
    /// - Returns: The concatenated elements of the inner sequences.
    /// - Note: The output is serialized. See <doc:Transforming>.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// How many inner sequences a `FlatMapSink` runs at once, and what happens to the rest.
private enum FlatMapMode {
    /// Every inner sequence at once (``ObservableType/flatMap(_:)``, `merge()`).
    case all
    /// At most `n`; the others queue (``ObservableType/concatMap(_:)``, `concat()`, `merge(maxConcurrent:)`).
    case limited(Int)
    /// One; elements arriving while it runs are dropped (``ObservableType/flatMapFirst(_:)``).
    case first

    var maxConcurrent: Int {
        switch self {
        case .all: return .max
        case .limited(let n): return n
        case .first: return 1
        }
    }
}

/// A FIFO of inner sequences waiting for a free slot (stored as `AnyObject`, so the sink's
/// state is not generic: see <doc:Performance>).
private struct InnerQueue {
    private var items: ContiguousArray<AnyObject> = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ item: AnyObject) { items.append(item) }

    /// The next item, left in the queue.
    var first: AnyObject? { head < items.count ? items[head] : nil }

    mutating func popFirst() -> AnyObject? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return item
    }
}

private struct FlatMapState {
    /// Inner subscriptions started and not yet completed.
    var active = 0
    /// Whether the source has completed.
    var outerStopped = false
    /// Whether a thread is subscribing queued inner sequences (see `FlatMapSink.pump`).
    var pumping = false
    var queue = InnerQueue()
    /// The subscriptions of the running inner sequences, by key. Kept here rather than in a
    /// ``CompositeDisposable``, so registering and removing one shares the lock that counts it.
    /// Under ``ObservableType/flatMapFirst(_:)``, an inner sequence being subscribed holds
    /// `InnerSubscription.pending` until its subscription is registered (`register`). The
    /// pumped modes (one inner sequence subscribed at a time) reserve its key instead and note
    /// it in `unregistered` (`startPumpedInner`, `registerPumped`): one that completes while it
    /// is being subscribed (`just`, ``ObservableType/of(_:scheduler:)``, …) touches no slot.
    var inners = KeyedList<InnerSubscription>()
    /// The key (plus 1) of the inner sequence the pumping thread has started and not registered
    /// yet, 0 if none (pumped modes).
    var unregistered: UInt64 = 0
    /// Whether that inner sequence completed before it was registered (its subscription is then
    /// disposed instead of stored).
    var unregisteredCompleted = false
    /// Whether the sink has been disposed: no inner sequence is subscribed any more.
    var disposed = false

    /// Nothing is left to run: the output completes.
    var isDone: Bool { outerStopped && active == 0 && !pumping && queue.isEmpty }

    /// Counts a new inner subscription and returns its key; `nil` once disposed.
    mutating func startInner() -> UInt64? {
        active += 1
        guard !disposed else { return nil }
        return inners.insert(.pending)
    }

    /// Counts a new inner subscription of a pumped mode and returns its reserved key, noted as
    /// `unregistered` until `registerPumped` (the pumping role guarantees one at a time); `nil`
    /// once disposed.
    mutating func startPumpedInner() -> UInt64? {
        active += 1
        guard !disposed else { return nil }
        let key = inners.reserveKey()
        unregistered = key &+ 1
        return key
    }

    /// Stores the subscription of the inner sequence `startPumpedInner` started under `key`
    /// unless it completed meanwhile or the sink was disposed; returns whether it did (if not,
    /// the caller disposes the subscription after the lock).
    mutating func registerPumped(_ subscription: Disposable, key: UInt64) -> Bool {
        let completed = unregisteredCompleted
        unregistered = 0
        unregisteredCompleted = false
        guard !completed, !disposed else { return false }
        inners.insert(InnerSubscription(subscription), reservedKey: key)
        return true
    }

    /// Forgets the pumped inner sequence `key` that completed while it was being subscribed
    /// (`innerCompleted` left it to the pumping thread).
    mutating func forgetUnregistered() {
        unregistered = 0
        unregisteredCompleted = false
    }

    /// Removes inner sequence `key` at its completion and returns its holder, if registered; one
    /// still unregistered is marked completed instead, for `registerPumped`.
    mutating func removeCompleted(_ key: UInt64) -> InnerSubscription? {
        if unregistered == key &+ 1 {
            unregisteredCompleted = true
            return nil
        }
        return inners.remove(key)
    }

    /// Stores the subscription of the inner sequence started under `key` if it still runs, and
    /// returns whether it did; if not (it completed while being subscribed, or the sink was
    /// disposed), the caller disposes the subscription after the lock. (A `Bool` rather than
    /// the leftover disposable: copying an `any Disposable` goes through the runtime's value
    /// witnesses.)
    mutating func register(_ subscription: Disposable, key: UInt64) -> Bool {
        // Replaces `.pending`; the holder is only allocated if the key is still there.
        !disposed && inners.replace(key, with: InnerSubscription(subscription)) != nil
    }
}

/// The subscription of one running inner sequence (a class, so the sink's `KeyedList` holds it
/// as a plain reference; see `KeyedList`).
private final class InnerSubscription: @unchecked Sendable {
    // Safety: immutable; the one operation on `subscription`, `dispose()`, may be called from any
    // thread (the `Disposable` contract). `pending` holds the shared no-op disposable.

    /// Held while the inner sequence is being subscribed (disposing it does nothing).
    static let pending = InnerSubscription(NopDisposable.shared)
    let subscription: Disposable

    init(_ subscription: Disposable) {
        self.subscription = subscription
    }
}

/// What an inner completion leads to.
private enum InnerCompletion {
    case nothing, pump, complete
}

/// The sink of the ``ObservableType/flatMap(_:)``/`merge`/`concat` family.
///
/// Inner subscriptions start in a loop (`pump`) rather than recursively, so a long queue of
/// inner sequences that complete synchronously does not grow the stack; and the selector always
/// runs outside the lock.
final private class FlatMapSink<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: SerializingSink<Observer, FlatMapState>, ObserverType
where Source.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Inner = Observer.Element

    private let selector: (SourceElement) throws -> Source
    private let mode: FlatMapMode
    private let maxConcurrent: Int
    private let outerSubscription = SingleAssignmentDisposable()
    private let innerObserver: any InnerObserver.Type
    /// The key (plus 1) of the inner sequence the pumping thread is subscribing, 0 otherwise. An
    /// inner sequence that completes before its subscription returns (`just`, `of`, …) claims it
    /// back to 0 instead of taking the lock: the pumping thread then accounts for the completion
    /// under the lock it takes anyway to register the subscription (see `subscribeCounting`).
    private let subscribing = Atomic<UInt64>(0)

    init(mode: FlatMapMode, selector: @escaping (SourceElement) throws -> Source, observer: Observer, cancel: SinkDisposer) {
        self.mode = mode
        self.maxConcurrent = mode.maxConcurrent
        self.selector = selector
        innerObserver = FlatMapInnerObserver<SourceElement, Source, Observer>.self
        super.init(state: FlatMapState(), observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        if maxConcurrent < 1 {
            forwardOn(.error(RxError.argumentOutOfRange))
            return outerSubscription
        }
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
                Self.completeIfDone(state, &outbox)
            }
        }
    }

    private func outerNext(_ element: SourceElement) {
        if isDisposed { return }
        if case .first = mode {
            // Claims the slot before the selector runs, so a concurrent element is dropped.
            let claimed = withState { state -> UInt64? in
                state.active == 0 ? state.startInner() : nil
            }
            guard let claimed, let inner = select(element) else { return }
            Trampoline.run(subscribing: inner) {
                let subscription = subscribeInner(inner, key: claimed)
                if !withState({ $0.register(subscription, key: claimed) }) { subscription.dispose() }
            }
            return
        }
        guard let inner = select(element) else { return }
        // Starts it now (with its registration), or queues it for a free slot (`nil`, also
        // once disposed: then nothing starts).
        let started = withState { state -> UInt64? in
            if !state.pumping && state.active < maxConcurrent {
                guard let key = state.startPumpedInner() else { return nil }
                state.pumping = true
                return key
            }
            state.queue.append(inner)
            return nil
        }
        guard let started else { return }
        Trampoline.run(subscribing: inner) {
            let (subscription, completed) = subscribeCounting(inner, key: started)
            pumpQueued(registering: subscription, key: started, completed: completed)
        }
    }

    /// Runs the selector outside the lock; a thrown error terminates the output.
    private func select(_ element: SourceElement) -> Observable<Inner>? {
        do {
            return try selector(element).asObservable()
        } catch {
            synchronized { _, outbox in outbox.send(.error(error)) }
            return nil
        }
    }

    // MARK: Inner subscriptions

    /// Subscribes queued inner sequences while slots are free; the caller holds the pumping role.
    ///
    /// Inner subscriptions are made on the current thread's trampoline (see `subscribeInner`),
    /// which runs the synchronous inners' elements only after the role was given up, so an
    /// element that an observer sends back into the source meanwhile starts its inner sequence
    /// in RxSwift's order instead of waiting in the queue.
    ///
    /// The trampoline is started only if the first queued inner sequence subscribes on it (see
    /// `Trampoline.run(subscribing:_:)`); `onTrampoline` says whether it does.
    private func pump(onTrampoline: Bool) {
        if onTrampoline { Trampoline.run { pumpQueued() } } else { pumpQueued() }
    }

    /// `pump`'s loop, for callers already running it on the trampoline. It first registers
    /// the subscription of the inner sequence the caller just started, if any (under the lock
    /// it takes anyway).
    private func pumpQueued(registering subscription: Disposable = NopDisposable.shared, key: UInt64? = nil, completed: Bool = false) {
        var isRegistering = key != nil, registering = subscription, key = key ?? 0, completed = completed
        while true {
            var done = false, disposeRegistering = false
            let next = withState { state -> (inner: AnyObject, key: UInt64?)? in
                if isRegistering {
                    if completed {
                        // It completed while being subscribed (`innerCompleted` left it to us).
                        state.forgetUnregistered()
                        state.active -= 1
                        disposeRegistering = true
                    } else {
                        disposeRegistering = !state.registerPumped(registering, key: key)
                    }
                }
                if state.active < maxConcurrent, let inner = state.queue.popFirst() {
                    return (inner, state.startPumpedInner())
                }
                state.pumping = false
                done = state.isDone
                return nil
            }
            isRegistering = false
            if disposeRegistering { registering.dispose() }
            guard let next else {
                if done { completeOutput() }
                return
            }
            guard let started = next.key else { continue }  // disposed meanwhile
            (registering, completed) = subscribeCounting(next.inner, key: started)
            key = started
            isRegistering = true
        }
    }

    /// Subscribes inner sequence `key` (see `subscribeInner`) and returns its subscription and
    /// whether it completed meanwhile, its completion left for the caller to account for under
    /// the lock (see `subscribing`). Only the pumping thread calls it, one inner at a time.
    private func subscribeCounting(_ inner: AnyObject, key: UInt64) -> (Disposable, completed: Bool) {
        subscribing.store(key &+ 1, ordering: .releasing)
        let subscription = subscribeInner(inner, key: key)
        let completed = subscribing.exchange(0, ordering: .acquiringAndReleasing) == 0
        #if DEBUG
        FlatMapSinkTestHooks.beforeRegistering?()
        #endif
        return (subscription, completed)
    }

    /// Subscribes an observer of inner sequence `key` to `inner` and returns the subscription,
    /// for the caller to register. Called on the trampoline (see `pump`): the inner sequence's
    /// key is registered before its synchronous elements flow, so disposing the sink meanwhile
    /// (e.g. `take` downstream) reaches the subscription once `register` runs.
    private func subscribeInner(_ inner: AnyObject, key: UInt64) -> Disposable {
        innerObserver.subscribe(inner, sink: self, key: key)
    }

    fileprivate func innerOn(_ event: Event<Inner>, key: UInt64) {
        switch event {
        case .next, .error:
            synchronized { _, outbox in outbox.send(event) }
        case .completed:
            innerCompleted(key: key)
        }
    }

    fileprivate func innerCompleted(key: UInt64) {
        // Completed while the pumping thread is still subscribing it: that thread accounts for
        // it when it registers the subscription, under the lock it takes anyway.
        if subscribing.compareExchange(expected: key &+ 1, desired: 0, ordering: .acquiringAndReleasing).exchanged { return }
        // Decided with `withState` (no outbox) because an inner completion usually sends nothing.
        var finished: InnerSubscription?
        var onTrampoline = false
        let next = withState { state -> InnerCompletion in
            finished = state.removeCompleted(key)
            state.active -= 1
            if state.pumping { return .nothing }
            if let first = state.queue.first {
                state.pumping = true
                onTrampoline = unsafeDowncast(first, to: Observable<Inner>.self).subscribesOnTrampoline
                return .pump
            }
            return state.isDone ? .complete : .nothing
        }
        finished?.subscription.dispose()  // outside the lock, as `CompositeDisposable.remove(for:)` would
        switch next {
        case .nothing: return
        case .pump: pump(onTrampoline: onTrampoline)
        case .complete: completeOutput()
        }
    }

    /// Sends completion once (the check runs again under the lock, with the outbox).
    @inline(never)
    private func completeOutput() {
        synchronized { state, outbox in Self.completeIfDone(state, &outbox) }
    }

    private static func completeIfDone(_ state: FlatMapState, _ outbox: inout Outbox<Inner>) {
        if state.isDone { outbox.send(.completed) }
    }

    override func dispose() {
        let running = withState { state -> KeyedList<InnerSubscription>.Slots in
            state.disposed = true
            return state.inners.removeAll()
        }
        outerSubscription.dispose()
        running.forEachValue { $0.subscription.dispose() }
        super.dispose()
    }
}

/// Forwards one inner sequence's events to its `FlatMapSink`.
private struct FlatMapInnerObserver<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: ObserverType
where Source.Element == Observer.Element {
    let sink: FlatMapSink<SourceElement, Source, Observer>
    let key: UInt64

    func on(_ event: Event<Observer.Element>) {
        sink.innerOn(event, key: key)
    }

    func onNext(_ element: Observer.Element) {
        sink.serializedNext(element)
    }

    func onCompleted() {
        sink.innerCompleted(key: key)
    }
}

extension FlatMapInnerObserver: InnerObserver {
    init(sink: AnyObject, key: UInt64) {
        // Unchecked: only the sink that stored this metatype calls it, with itself.
        self.init(sink: unsafeDowncast(sink, to: FlatMapSink<SourceElement, Source, Observer>.self), key: key)
    }
}

#if DEBUG
/// Test hooks (DEBUG builds only) that let tests drive the inner-registration window
/// deterministically.
package enum FlatMapSinkTestHooks {
    // Safety: set by a test before the events it drives start and cleared after they ended;
    // only read while those events flow, so no write races with a read.
    /// Called by the pumping thread after an inner sequence's `subscribe` returned, before its
    /// subscription is registered (a completion or a disposal arriving now takes the lock path).
    nonisolated(unsafe) package static var beforeRegistering: (() -> Void)?
}
#endif

final private class FlatMapProducer<SourceElement, Source: ObservableConvertibleType>: Producer<Source.Element> {
    private let source: Observable<SourceElement>
    private let mode: FlatMapMode
    private let selector: (SourceElement) throws -> Source

    init(source: Observable<SourceElement>, mode: FlatMapMode, selector: @escaping (SourceElement) throws -> Source) {
        self.source = source
        self.mode = mode
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        let sink = FlatMapSink(mode: mode, selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
