extension ObservableType {
    /// Drops the elements emitted during the first `duration` after subscription.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --------3--4--|     (duration: 6 frames)
    ///
    /// Errors and completion are forwarded whenever they arrive, also during `duration`.
    /// - Parameters:
    ///   - duration: How long after subscription elements are dropped.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The source without the elements of its first `duration`.
    /// - Note: Delivers on the source's thread. See <doc:Filtering>.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTimeProducer(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

final private class SkipTimeSink<Observer: ObserverType>: SerializingSink<Observer, Bool>, ObserverType {
    typealias Element = Observer.Element
    private let timer = SingleAssignmentDisposable()

    func startTimer(duration: RxTimeInterval, scheduler: SchedulerType) {
        timer.setDisposable(
            scheduler.scheduleRelative((), dueTime: duration) { [self] _ in
                withState { $0 = true }
                return Disposables.create()
            })
    }

    func on(_ event: Event<Element>) {
        synchronized { open, outbox in
            if case .next = event, !open { return }
            outbox.send(event)
        }
    }

    override func dispose() {
        timer.dispose()
        super.dispose()
    }
}

final private class SkipTimeProducer<Element>: Producer<Element> {
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
        let sink = SkipTimeSink(state: false, observer: observer, cancel: cancel)
        sink.startTimer(duration: duration, scheduler: scheduler)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
