extension ObservableType {
    /// Fails with `RxError.timeout` if no event arrives within `dueTime` of subscribing or of the previous element.
    ///
    ///     source: -a--b-------c
    ///     output: -a--b----#       (dueTime: 5 frames; # is RxError.timeout)
    ///
    /// The timer starts at subscription and restarts after every element. When it fires, the
    /// source subscription is disposed and the error is sent. Completion and errors of the source
    /// are forwarded if they arrive in time. Disposing cancels the timer.
    /// - Parameters:
    ///   - dueTime: The longest allowed silence.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The source sequence, or an `RxError.timeout` error after a silence of `dueTime`.
    /// - Note: The timeout error is delivered on `scheduler`; other events on the source's thread.
    ///   See <doc:Time>.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimeoutProducer(source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if no event arrives within `dueTime` of subscribing or of the previous element.
    ///
    ///     source: -a--b-------c
    ///     other:           -x-y|
    ///     output: -a--b-----x-y|   (dueTime: 5 frames)
    ///
    /// - Parameters:
    ///   - dueTime: The longest allowed silence.
    ///   - other: The sequence that continues the output after a timeout.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The source sequence, continued by `other` after a silence of `dueTime`.
    /// - Note: `other` is subscribed on `scheduler`. See <doc:Time>.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element>
    where Source.Element == Element {
        TimeoutProducer(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private struct TimeoutState {
    /// Bumped by every source event, so a timer started before it does nothing.
    var id: UInt64 = 0
    /// Whether the timer fired and `other` took over.
    var switched = false
}

final private class TimeoutSink<Observer: ObserverType>: SerializingSink<Observer, TimeoutState>, ObserverType {
    typealias Element = Observer.Element
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType
    private let subscription = SerialDisposable()
    // Keyed by element id: an element sent reentrantly from the observer starts its (newer)
    // timer before the outer element's call stores its own, older, one.
    private let timer = SequencedSerialDisposable()

    init(dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(state: TimeoutState(), observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        startTimer(id: 0)
        original.setDisposable(source.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Element>) {
        let restart = synchronized { state, outbox -> UInt64? in
            guard !state.switched else { return nil }
            state.id &+= 1
            outbox.send(event)
            return event.isStopEvent ? nil : state.id
        }
        if let restart { startTimer(id: restart) }
    }

    private func startTimer(id: UInt64) {
        let work = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
            fire(id)
            return Disposables.create()
        }
        timer.replace(order: id, with: work)
    }

    private func fire(_ id: UInt64) {
        let won = withState { state -> Bool in
            guard !state.switched, state.id == id else { return false }
            state.switched = true
            return true
        }
        guard won else { return }
        subscription.disposable = other.subscribe(
            SinkForward<Element> { [self] event in
                synchronized { _, outbox in outbox.send(event) }
            })
    }

    override func dispose() {
        timer.dispose()
        subscription.dispose()
        super.dispose()
    }
}

final private class TimeoutProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TimeoutSink(dueTime: dueTime, other: other, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
