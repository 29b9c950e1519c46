extension ObservableType {
    /// Delivers the source's events on `scheduler`, one at a time and in order.
    ///
    ///     source:  -a-b-c-|        (any thread)
    ///     output:  --a-b-c-|       (on scheduler; a TestScheduler delivers one tick later)
    ///
    /// Events are queued as they arrive and delivered one scheduled step at a time, so the observer
    /// is never called concurrently, even on a ``ConcurrentDispatchQueueScheduler``. As in RxSwift,
    /// each event is one step (on a `TestScheduler`, queued events arrive one tick apart). On the
    /// dispatch-queue schedulers (``SerialDispatchQueueScheduler``, ``MainScheduler``,
    /// ``ConcurrentDispatchQueueScheduler``) one work item delivers every event queued when it
    /// starts, so events that pile up cost one work item per batch. Disposing cancels pending work and
    /// drops queued events; nothing is delivered once the subscription is disposed. Subscription
    /// and disposal themselves happen on the caller's thread (see `subscribe(on:)`).
    /// - Parameter scheduler: The scheduler to deliver events on.
    /// - Returns: The source sequence, observed on `scheduler`.
    /// - Note: Delivers on `scheduler`. `MainScheduler.instance` runs the work at once when called
    ///   on the main thread with nothing queued; use `MainScheduler.asyncInstance` to always defer.
    ///   See <doc:Time> and <doc:Schedulers>.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObserveOnProducer(source: asObservable(), scheduler: scheduler)
    }

    /// Delivers the source's events on `scheduler` (renamed ``ObservableType/observe(on:)``).
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// The sink's lock-guarded bookkeeping: no type parameter, so its lock is a concrete,
/// specialized type and no event asks the runtime for generic metadata (see
/// <doc:Performance>). The elements themselves queue in the sink's `queue`.
private struct ObserveOnState {
    /// Whether a work item is scheduled or delivering.
    var scheduled = false
    /// The terminal event, once it arrived (later events break the grammar and are dropped);
    /// delivered after every element queued before it.
    var termination: Termination?
    var isDisposed = false
}

final private class ObserveOnSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Element {
    // Safety: `flags` is guarded by its own lock, and so is `queue`, which is only read or
    // written inside `flags.withLock`. `batch`, `next` and `delivered` are only touched by the
    // delivering work item, and only one work item is scheduled or running at a time
    // (`scheduled`); the lock hand-over between them orders the accesses.
    private let scheduler: ImmediateSchedulerType
    private let flags = LockedState(ObserveOnState())
    @exclusivity(unchecked) private var queue = ElementBuffer<Element>()
    private let work = SequencedSerialDisposable()
    /// Elements taken from `queue`, delivered from `next` on.
    @exclusivity(unchecked) private var batch = ElementBuffer<Element>()
    @exclusivity(unchecked) private var next = 0
    /// Whether one step delivers the whole batch (dispatch queues) or one event (RxSwift's rule).
    private let deliversBatches: Bool

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        deliversBatches = scheduler is SerialDispatchQueueScheduler || scheduler is ConcurrentDispatchQueueScheduler
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes this sink to `source` (see `MapSink.subscribeSelf(to:)`).
    func subscribeSelf(to source: Observable<Element>) -> Disposable {
        source.subscribe(self)
    }

    func onNext(_ element: Element) {
        let start = flags.withLock { state -> Bool in
            guard !state.isDisposed, state.termination == nil else { return false }
            queue.append(element)
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if start { scheduleDelivery() }
    }

    func onCompleted() {
        terminate(.completed)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }

    private func terminate(_ termination: Termination) {
        let start = flags.withLock { state -> Bool in
            guard !state.isDisposed, state.termination == nil else { return false }
            state.termination = termination
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if start { scheduleDelivery() }
    }

    private func scheduleDelivery() {
        work.replace {
            scheduler.schedule(self) { sink in
                sink.deliver()
                return Disposables.create()
            }
        }
    }

    /// One scheduled step: the queued elements (all of them, or one), then the terminal event
    /// once nothing precedes it.
    private func deliver() {
        var termination: Termination?
        if next == batch.count {
            batch.removeAll(keepingCapacityUpTo: 1_024)
            next = 0
            termination = flags.withLock { state -> Termination? in
                swap(&queue, &batch)
                return batch.isEmpty ? state.termination : nil
            }
        }
        let end = deliversBatches ? batch.count : Swift.min(next + 1, batch.count)
        while next < end {
            let element = batch[next]
            next += 1
            if isDisposed { return }
            forwardNext(element)
        }
        if let termination {
            forward(termination)
            return
        }
        // Done, or more to deliver (in another step); on a dispatch queue, a terminal event that
        // follows the batch goes in this step.
        var last: Termination?
        let more = flags.withLock { state -> Bool in
            let drained = next == batch.count && queue.isEmpty
            if drained && deliversBatches && state.termination != nil { last = state.termination }
            if state.isDisposed || (drained && (state.termination == nil || last != nil)) {
                state.scheduled = false
                return false
            }
            return true
        }
        if let last {
            forward(last)
        } else if more {
            scheduleDelivery()
        }
    }

    override func dispose() {
        flags.withLock { state in
            state.isDisposed = true
            queue.removeAll()
        }
        work.dispose()
        super.dispose()
    }
}

final private class ObserveOnProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ObserveOnSink<Element, Observer>(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.subscribeSelf(to: source)
        return (sink, subscription)
    }
}
