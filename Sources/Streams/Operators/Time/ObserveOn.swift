extension ObservableType {
    /// Delivers the source's events on `scheduler`, one at a time and in order.
    ///
    ///     source:  -a-b-c-|        (any thread)
    ///     output:  -a-b-c-|        (on scheduler)
    ///
    /// Events are queued as they arrive and delivered one scheduled step at a time, so the observer
    /// is never called concurrently, even on a `ConcurrentDispatchQueueScheduler`. As in RxSwift,
    /// each event is one step (on a `TestScheduler`, queued events arrive one tick apart). On the
    /// dispatch-queue schedulers (`SerialDispatchQueueScheduler`, `MainScheduler`,
    /// `ConcurrentDispatchQueueScheduler`) one work item delivers every event queued when it
    /// starts, so events that pile up cost one work item per batch. Disposing cancels pending work and
    /// drops queued events; nothing is delivered once the subscription is disposed. Subscription
    /// and disposal themselves happen on the caller's thread (see `subscribe(on:)`).
    /// - Parameter scheduler: The scheduler to deliver events on.
    /// - Returns: The source sequence, observed on `scheduler`.
    /// - Note: Delivers on `scheduler`. `MainScheduler.instance` runs the work at once when called
    ///   on the main thread with nothing queued; use `MainScheduler.asyncInstance` to always defer.
    ///   See `Guides/Time.md` and `Guides/Schedulers.md`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObserveOnProducer(source: asObservable(), scheduler: scheduler)
    }

    /// Delivers the source's events on `scheduler` (renamed `observe(on:)`).
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

private struct ObserveOnState<Element> {
    var queue: [Event<Element>] = []
    /// Whether a work item is scheduled or delivering.
    var scheduled = false
    /// Whether a terminal event was queued (later events break the grammar and are dropped).
    var terminated = false
    var isDisposed = false
}

final private class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    // Thread safety: `state` is guarded by its lock. `batch` is only touched by the delivering work
    // item, and only one work item is scheduled or running at a time (`state.scheduled`); the
    // lock hand-over between them orders the accesses.
    typealias Element = Observer.Element
    private let scheduler: ImmediateSchedulerType
    private let state = LockedState(ObserveOnState<Observer.Element>())
    private let work = SequencedSerialDisposable()
    /// Events taken from `state.queue`, delivered from `next` on.
    private var batch: [Event<Element>] = []
    private var next = 0
    /// Whether one step delivers the whole batch (dispatch queues) or one event (RxSwift's rule).
    private let deliversBatches: Bool

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        deliversBatches = scheduler is SerialDispatchQueueScheduler || scheduler is ConcurrentDispatchQueueScheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let start = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.terminated else { return false }
            if event.isStopEvent { state.terminated = true }
            state.queue.append(event)
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

    private func deliver() {
        if next == batch.count {
            batch.removeAll(keepingCapacity: batch.count <= 64)
            next = 0
            state.withLock { state in swap(&state.queue, &batch) }
        }
        let end = deliversBatches ? batch.count : Swift.min(next + 1, batch.count)
        while next < end {
            let event = batch[next]
            next += 1
            if isDisposed { break }
            forwardOn(event)
        }
        let more = state.withLock { state -> Bool in
            if state.isDisposed || (next == batch.count && state.queue.isEmpty) {
                state.scheduled = false
                return false
            }
            return true
        }
        if more { scheduleDelivery() }
    }

    override func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.queue.removeAll()
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
