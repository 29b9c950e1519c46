extension ObservableType {
    /// Subscribes to (and later disposes) the source on `scheduler`.
    ///
    ///     subscribe:  caller ──schedule──▶ scheduler: source.subscribe(…)
    ///     dispose:    caller ──schedule──▶ scheduler: subscription.dispose()
    ///
    /// Use it when subscribing has side effects that must run on a given thread or queue (for
    /// example, a ``ObservableType/create(_:)`` closure that does blocking work). It does not move event delivery
    /// itself: the source emits where it emits; use ``ObservableType/observe(on:)`` for that. Disposing before the
    /// scheduled subscription ran cancels it.
    /// - Parameter scheduler: The scheduler to subscribe and dispose on.
    /// - Returns: The source sequence, subscribed on `scheduler`.
    /// - Note: Events are delivered on whatever thread the source emits on (for a source that
    ///   emits synchronously on subscription, that is `scheduler`). See <doc:Time>.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        // The source itself, not `asObservable()` (as RxSwift): a wrapper would release the
        // source's subscription at its terminal event instead of on `scheduler`.
        SubscribeOnProducer(source: self, scheduler: scheduler)
    }

    /// Subscribes to the source on `scheduler` (renamed `subscribe(on:)`).
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

final private class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }

    func run<Source: ObservableType>(source: Source, scheduler: ImmediateSchedulerType) -> Disposable where Source.Element == Element {
        let everything = SerialDisposable()
        let pendingSubscription = SingleAssignmentDisposable()
        everything.disposable = pendingSubscription
        pendingSubscription.setDisposable(
            scheduler.schedule(()) { [self] _ in
                let subscription = source.subscribe(self)
                everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
                return Disposables.create()
            })
        return everything
    }
}

final private class SubscribeOnProducer<Source: ObservableType>: Producer<Source.Element> {
    typealias Element = Source.Element
    private let source: Source
    private let scheduler: ImmediateSchedulerType

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SubscribeOnSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, scheduler: scheduler)
        return (sink, subscription)
    }
}
