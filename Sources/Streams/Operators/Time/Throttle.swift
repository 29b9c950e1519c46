extension ObservableType {
    /// Emits the first element at once, then at most one element per `dueTime` window.
    ///
    ///     source: -a-b-c------d-e---|
    ///     output: -a---c------d---e-|     (dueTime: 4 frames, latest: true)
    ///     output: -a---c------d-----|     (dueTime: 4 frames, latest: false)
    ///
    /// An element that arrives at least `dueTime` after the last emitted one is emitted at once
    /// and starts a new window. Within a window, with `latest` the last element received is
    /// emitted when the window ends (and starts the next window); without it, such elements are
    /// dropped. No two elements are emitted less than `dueTime` apart. On completion a pending
    /// element is still emitted at the end of its window, followed by `completed`; an error is
    /// forwarded at once and drops the pending element. Disposing cancels the timer.
    /// - Parameters:
    ///   - dueTime: The minimum time between two emitted elements.
    ///   - latest: Whether to emit the last element received during a window when it ends.
    ///   - scheduler: The scheduler that runs the timer and provides the clock.
    /// - Returns: The throttled sequence.
    /// - Note: Elements emitted at the end of a window are delivered on `scheduler`; others on
    ///   the source's thread. See <doc:Time>.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        ThrottleProducer(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

final private class ThrottleSink<Observer: ObserverType>: TimerSink<Observer> {
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    // Touched only by `serialize` handlers, which never overlap (see `DrainingSink`).
    /// The last element received in the current window (a box, so "none" is a nil reference);
    /// non-nil exactly while the window's timer runs.
    @exclusivity(unchecked) private var lastUnsent: LatestElement<Element>?
    /// `LatestElement<Element>`, looked up once per subscription rather than per box (naming it
    /// in this unspecialized code is a runtime metadata lookup; see <doc:Performance>).
    private let boxType: LatestElement<Element>.Type = LatestElement<Element>.self
    @exclusivity(unchecked) private var lastSentTime: RxTime?
    @exclusivity(unchecked) private var completed = false

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func handleNext(_ element: Element) {
        let now = scheduler.now
        let remaining = lastSentTime.map { dueTime.nanosecondsRemaining(from: $0, to: now) } ?? 0
        if remaining <= 0 {
            lastUnsent = nil
            lastSentTime = now
            forwardNext(element)
            return
        }
        guard latest else { return }
        if let lastUnsent {
            lastUnsent.value = element  // the window's timer is already running
            return
        }
        lastUnsent = boxType.init(element)
        let delay: RxTimeInterval = remaining == Int64.max ? .never : .nanoseconds(Int(clamping: remaining))
        setTimer(
            scheduler.scheduleRelative((), dueTime: delay) { [self] _ in
                handleTimer { self.propagate() }
                return Disposables.create()
            })
    }

    private func propagate() {
        if let box = lastUnsent {
            lastUnsent = nil
            lastSentTime = scheduler.now
            forwardNext(box.value)
        }
        if completed { forwardCompleted() }
    }

    override func handleError(_ error: Swift.Error) {
        lastUnsent = nil
        forwardError(error)
    }

    override func handleCompleted() {
        if lastUnsent != nil {
            completed = true
        } else {
            forwardCompleted()
        }
    }
}

final private class ThrottleProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ThrottleSink(dueTime: dueTime, latest: latest, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
