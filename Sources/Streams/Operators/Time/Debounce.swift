extension ObservableType {
    /// Emits an element only after `dueTime` passes without another element.
    ///
    ///     source: -a-b----c--|
    ///     output: ------b----(c|)     (dueTime: 3 frames)
    ///
    /// Each element restarts the timer; only the last element of a burst is emitted, `dueTime`
    /// after it arrived. On completion a pending element is emitted at once, then `completed`.
    /// An error is forwarded at once and drops the pending element. Disposing cancels the timer.
    /// - Parameters:
    ///   - dueTime: How long the source must stay quiet before the last element is emitted.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The debounced sequence.
    /// - Note: Elements are delivered on `scheduler`; `completed` and `error` on the source's
    ///   thread. See <doc:Time>.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DebounceProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final private class DebounceSink<Observer: ObserverType>: TimerSink<Observer> {
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    /// `scheduler` as a `TimerMovingScheduler` (a virtual time scheduler), if it is one: then
    /// each element moves the running timer instead of replacing it (looked up once).
    private let mover: TimerMovingScheduler?
    // Touched only by `serialize` handlers, which never overlap (see `DrainingSink`).
    /// Bumped by every timer started (not by one moved), so a timer that was already due when
    /// a later element came does nothing.
    @exclusivity(unchecked) private var id: UInt64 = 0
    /// The last timer started on `mover` (its work item), which later elements move.
    @exclusivity(unchecked) private var movableTimer: VirtualWorkItem?
    /// The element waiting for quiet (a box, so "none" is a nil reference).
    @exclusivity(unchecked) private var pending: LatestElement<Element>?
    /// `LatestElement<Element>`, looked up once per subscription rather than per box (naming it
    /// in this unspecialized code is a runtime metadata lookup; see <doc:Performance>).
    private let boxType: LatestElement<Element>.Type = LatestElement<Element>.self

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        mover = scheduler as? TimerMovingScheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func handleNext(_ element: Element) {
        if let pending { pending.value = element } else { pending = boxType.init(element) }
        if let mover {
            // The running timer, still waiting, now waits for this element.
            if let movableTimer, mover.move(movableTimer, dueTime: dueTime) { return }
            id &+= 1
            let timer = mover.scheduleMovable(id, dueTime: dueTime) { [self] id in timerFired(id) }
            movableTimer = timer
            // Replacing the timer disposes the previous one.
            if let timer { setTimer(timer) } else { setTimer(Disposables.create()) }
            return
        }
        id &+= 1
        setTimer(scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in timerFired(id) })
    }

    /// The timer's action (on the scheduler): handles `fire` serialized with the elements.
    private func timerFired(_ timerId: UInt64) -> Disposable {
        handleTimer { self.fire(timerId) }
        return Disposables.create()
    }

    private func fire(_ timerId: UInt64) {
        guard timerId == id, let box = pending else { return }
        pending = nil
        forwardNext(box.value)
    }

    override func handleError(_ error: Swift.Error) {
        pending = nil
        forwardError(error)
    }

    override func handleCompleted() {
        if let box = pending {
            pending = nil
            forwardNext(box.value)
        }
        forwardCompleted()
    }
}

final private class DebounceProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
