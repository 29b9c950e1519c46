extension ObservableType where Element: RxAbstractInteger {
    /// Emits `0, 1, 2, …`, one element every `period`, starting one `period` after subscription.
    ///
    ///     output: ---0---1---2---3--…     (period: 3 frames)
    ///
    /// Never terminates; dispose the subscription to stop it. The counter wraps around on overflow.
    /// A non-positive `period` is the scheduler's smallest step; `.never` (or one too large to
    /// represent) emits nothing (<doc:Schedulers#Time-intervals>).
    /// - Parameters:
    ///   - period: The time between elements (and before the first one).
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: An infinite sequence of increasing integers.
    /// - Note: Delivers on `scheduler`. See <doc:Time>.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// Emits `0` after `dueTime`; then, if `period` is given, `1, 2, …` every `period`.
    ///
    ///     timer(3):            ---(0|)
    ///     timer(3, period: 2): ---0-1-2-3--…
    ///
    /// Without a period it completes right after its element; with one it never terminates.
    /// A negative `dueTime` is now and `.never` emits nothing; a non-positive `period` is the
    /// scheduler's smallest step and a `.never` one emits only `0` (<doc:Schedulers#Time-intervals>).
    /// - Parameters:
    ///   - dueTime: The time before the first element.
    ///   - period: The time between later elements; `nil` emits one element and completes.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The timer sequence.
    /// - Note: Delivers on `scheduler`. See <doc:Time>.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

final private class PeriodicTimerSink<Observer: ObserverType>: Sink<Observer> where Observer.Element: RxAbstractInteger {
    func run(dueTime: RxTimeInterval, period: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        // A scheduler runs the periodic action serially (see `SchedulerType.schedulePeriodic`),
        // so the counter needs no lock.
        scheduler.schedulePeriodic(0 as Observer.Element, startAfter: dueTime, period: period) { [self] count in
            forwardNext(count)
            return count &+ 1
        }
    }
}

final private class OneShotTimerSink<Observer: ObserverType>: Sink<Observer> where Observer.Element: RxAbstractInteger {
    func run(dueTime: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        scheduler.scheduleRelative((), dueTime: dueTime) { [self] _ in
            forwardNext(0)
            forwardCompleted()
            return Disposables.create()
        }
    }
}

final private class TimerProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        if let period {
            let sink = PeriodicTimerSink(observer: observer, cancel: cancel)
            let subscription = sink.run(dueTime: dueTime, period: period, scheduler: scheduler)
            return (sink, subscription)
        }
        let sink = OneShotTimerSink(observer: observer, cancel: cancel)
        let subscription = sink.run(dueTime: dueTime, scheduler: scheduler)
        return (sink, subscription)
    }
}
