extension ObservableType {
    /// Forwards the elements emitted during the first `duration` after subscription, then completes.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --1--2-|            (duration: 7 frames)
    ///
    /// When `duration` elapses the output completes and the source is disposed. A source
    /// error or completion before then is forwarded and cancels the timer.
    /// - Parameters:
    ///   - duration: How long after subscription elements are forwarded.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The source's elements of its first `duration`.
    /// - Note: Elements are delivered on the source's thread, the timed `completed` on
    ///   `scheduler`; the output is serialized. See <doc:Filtering>.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeTimeProducer(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// Forwards the elements of the first `duration`, then completes (renamed `take(for:scheduler:)`).
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}

final private class TakeTimeSink<Observer: ObserverType>: SerializingSink<Observer, Void>, ObserverType {
    typealias Element = Observer.Element
    private let timer = SingleAssignmentDisposable()

    func startTimer(duration: RxTimeInterval, scheduler: SchedulerType) {
        timer.setDisposable(
            scheduler.scheduleRelative((), dueTime: duration) { [self] _ in
                synchronized { _, outbox in outbox.send(.completed) }
                return Disposables.create()
            })
    }

    func on(_ event: Event<Element>) {
        synchronized { _, outbox in outbox.send(event) }
    }

    override func dispose() {
        timer.dispose()
        super.dispose()
    }
}

final private class TakeTimeProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeTimeSink(state: (), observer: observer, cancel: cancel)
        sink.startTimer(duration: duration, scheduler: scheduler)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
