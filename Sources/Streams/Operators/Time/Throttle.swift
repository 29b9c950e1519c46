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
    ///   the source's thread. See `Guides/Time.md`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        ThrottleProducer(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private struct ThrottleState<Element> {
    var lastUnsentElement: Element?
    var lastSentTime: RxTime?
    var completed = false
}

final private class ThrottleSink<Observer: ObserverType>: SerializingSink<Observer, ThrottleState<Observer.Element>>, ObserverType {
    typealias Element = Observer.Element
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(state: ThrottleState(), observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            let wait = synchronized { state, outbox -> Int64? in
                let remaining = state.lastSentTime.map { dueTime.nanosecondsRemaining(from: $0, to: now) } ?? 0
                if remaining <= 0 {
                    state.lastUnsentElement = nil
                    state.lastSentTime = now
                    outbox.send(.next(element))
                    return nil
                }
                guard latest else { return nil }
                let timerRunning = state.lastUnsentElement != nil
                state.lastUnsentElement = element
                return timerRunning ? nil : remaining
            }
            // Only the (serial) upstream starts the timer, so assignments arrive in order.
            if let wait {
                let delay: RxTimeInterval = wait == Int64.max ? .never : .nanoseconds(Int(clamping: wait))
                timer.disposable = scheduler.scheduleRelative((), dueTime: delay) { [self] _ in
                    propagate()
                    return Disposables.create()
                }
            }
        case .error:
            synchronized { state, outbox in
                state.lastUnsentElement = nil
                outbox.send(event)
            }
        case .completed:
            synchronized { state, outbox in
                if state.lastUnsentElement != nil {
                    state.completed = true
                } else {
                    outbox.send(.completed)
                }
            }
        }
    }

    private func propagate() {
        let now = scheduler.now
        synchronized { state, outbox in
            if let element = state.lastUnsentElement {
                state.lastUnsentElement = nil
                state.lastSentTime = now
                outbox.send(.next(element))
            }
            if state.completed {
                outbox.send(.completed)
            }
        }
    }

    override func dispose() {
        timer.dispose()
        super.dispose()
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ThrottleSink(dueTime: dueTime, latest: latest, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
