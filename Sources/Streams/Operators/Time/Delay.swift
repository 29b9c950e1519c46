extension ObservableType {
    /// Shifts every element and the completion forward in time by `dueTime`; errors are not delayed.
    ///
    ///     source: -a-b--c-|
    ///     output: ----a-b--c-|     (dueTime: 3 frames)
    ///
    ///     source: -a-b-#
    ///     output: ----a#           (an error is forwarded at once; pending elements are dropped)
    ///
    /// The source subscription is released as soon as the source terminates. As in RxSwift, each
    /// timer step delivers one event and then schedules the next for the rest of its delay (on a
    /// `TestScheduler`, events that fall due at the same time arrive one tick apart). Disposing
    /// cancels the timer.
    /// - Parameters:
    ///   - dueTime: The time shift.
    ///   - scheduler: The scheduler that runs the timer and provides the clock.
    /// - Returns: The delayed sequence.
    /// - Note: Elements and completion are delivered on `scheduler`; an error on the source's
    ///   thread (or after the element being delivered, if one is). See <doc:Time>.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelayProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private struct DelayState<Element> {
    /// Events waiting for their due time, oldest first.
    var queue = FIFOQueue<(due: RxTime, event: Event<Element>)>()
    /// Whether a timer is pending for the oldest queued event.
    var scheduled = false
}

final private class DelaySink<Observer: ObserverType>: SerializingSink<Observer, DelayState<Observer.Element>>, ObserverType {
    typealias Element = Observer.Element
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let sourceSubscription = SingleAssignmentDisposable()
    // Scheduled by the upstream (first event) and by the timer itself (later events).
    private let timer = SequencedSerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(state: DelayState(), observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return sourceSubscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .error:
            sourceSubscription.dispose()
            synchronized { state, outbox in
                state.queue.removeAll()
                outbox.send(event)
            }
        case .next, .completed:
            if event.isStopEvent { sourceSubscription.dispose() }
            let due = scheduler.now.adding(dueTime)
            let startTimer = withState { state -> Bool in
                state.queue.append((due, event))
                if state.scheduled { return false }
                state.scheduled = true
                return true
            }
            if startTimer { schedule(after: dueTime) }
        }
    }

    private func schedule(after delay: RxTimeInterval) {
        timer.replace {
            scheduler.scheduleRelative((), dueTime: delay) { [self] _ in
                drain()
                return Disposables.create()
            }
        }
    }

    /// Delivers the oldest event (its timer fired), then schedules the timer for the rest of the
    /// next one's delay (zero if it is already due).
    private func drain() {
        let now = scheduler.now
        let next = synchronized { state, outbox -> RxTimeInterval? in
            if let first = state.queue.popFirst() {
                outbox.send(first.event)
            }
            guard let following = state.queue.first else {
                state.scheduled = false
                return nil
            }
            return .fromSeconds(Swift.max(0, following.due.timeIntervalSince(now)))
        }
        if let next { schedule(after: next) }
    }

    override func dispose() {
        timer.dispose()
        sourceSubscription.dispose()
        super.dispose()
    }
}

final private class DelayProducer<Element>: Producer<Element> {
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
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
