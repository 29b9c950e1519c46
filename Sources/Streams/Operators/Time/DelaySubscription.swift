extension ObservableType {
    /// Subscribes to the source only after `dueTime` has passed; its events are then forwarded unchanged.
    ///
    ///     source (cold):  -a-b|
    ///     output:         ----a-b|     (dueTime: 3 frames)
    ///
    /// Disposing before `dueTime` cancels the pending subscription, so the source is never
    /// subscribed.
    /// - Parameters:
    ///   - dueTime: How long to wait before subscribing.
    ///   - scheduler: The scheduler that runs the timer and the subscription.
    /// - Returns: The source, subscribed after `dueTime`.
    /// - Note: Subscribes on `scheduler`; the source's events arrive on whatever thread it emits
    ///   them. See <doc:Time>.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscriptionProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final private class DelaySubscriptionSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let subscription = SingleAssignmentDisposable()

    func run(_ source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: dueTime) { [self] _ in
            // A subscription set after disposal is disposed at once by `SingleAssignmentDisposable`.
            subscription.setDisposable(source.subscribe(self))
            return Disposables.create()
        }
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }

    override func dispose() {
        subscription.dispose()
        super.dispose()
    }
}

final private class DelaySubscriptionProducer<Element>: Producer<Element> {
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
        let sink = DelaySubscriptionSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source, dueTime: dueTime, scheduler: scheduler)
        return (sink, subscription)
    }
}
