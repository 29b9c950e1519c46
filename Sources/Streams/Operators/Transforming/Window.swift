import Dispatch

extension ObservableType {
    /// Splits the sequence into windows, each closed after `timeSpan` or after `count` elements, whichever comes first.
    ///
    ///     source:  -1-23---4--------|
    ///     output:  a---b----c----d--|     (count: 3, timeSpan: 5 frames)
    ///     a:       -1-2(3|)
    ///     b:           ----4|
    ///     c:                -----|
    ///     d:                     ---|
    ///
    /// The first window opens on subscription, and a new one opens whenever the current one
    /// closes (after `count` elements, and then the timer restarts, or when `timeSpan` has
    /// passed since the window opened, even if it is empty). Windows are hot: elements sent
    /// before a window is subscribed are lost to that subscriber. An error or completion of the
    /// source is sent to the current window, then to the output. Disposing the output keeps the
    /// source subscribed while a window is still subscribed; the source is released when the
    /// last window subscription ends. A `count` of zero or less fails with
    /// `RxError.argumentOutOfRange`. `timeSpan` follows the rule for periods: a non-positive one
    /// is the scheduler's smallest step, `.never` closes windows by count only
    /// (<doc:Schedulers#Time-intervals>).
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The most elements a window holds.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence of windows.
    /// - Note: Windows are opened and closed on the source's thread (when full or on
    ///   termination) or on `scheduler` (when the time span ends); all deliveries, to the
    ///   output and to the windows, are serialized. See <doc:Transforming>.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        if count <= 0 { return Observable.error(RxError.argumentOutOfRange) }
        return WindowProducer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

/// An observable that holds a handle of `refCount` for as long as a subscription to `source` lasts.
///
/// Used by ``ObservableType/window(timeSpan:count:scheduler:)`` and ``ObservableType/groupBy(keySelector:)``: their inner sequences keep the shared upstream
/// subscription alive after the outer subscription is disposed.
final class AddRefProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let refCount: RefCountDisposable

    init(source: Observable<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let handle = refCount.retain()
        let sink = AddRefSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, Disposables.create(handle, subscription))
    }
}

final private class AddRefSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
    }
}

/// What the window sink decided to do, delivered in order outside the lock.
private enum WindowAction<Element> {
    case window(PublishSubject<Element>, Event<Element>)
    case outer(Event<Observable<Element>>)
}

private struct WindowState<Element> {
    var subject = PublishSubject<Element>()
    var count = 0
    /// Bumped whenever a window closes, so a timer started for an older window does nothing.
    var windowID = 0
    /// The timer of the current window; swapped in (and the old one disposed) outside the lock.
    var timerID = -1
    var timer: Disposable?
    /// Set once the source ended or the shared upstream resources were released.
    var isStopped = false
    var isReleased = false
}

/// The sink of ``ObservableType/window(timeSpan:count:scheduler:)``.
///
/// Its actions are queued and delivered by `SerializedState` rather than `SerializingSink`:
/// the queue also holds events for the current window subject, which must keep flowing after
/// the output is disposed (while a window is still subscribed), and `forwardOn`-based draining
/// would drop them.
final private class WindowSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Observable<Element> {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let serialized = SerializedState<WindowState<Element>, WindowAction<Element>>(WindowState())
    private let upstream = CompositeDisposable()
    let refCount: RefCountDisposable

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        refCount = RefCountDisposable(disposable: upstream)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = upstream.insert(Disposables.create { [self] in releaseTimer() })
        let subscription = SingleAssignmentDisposable()
        _ = upstream.insert(subscription)
        synchronized { state, outbox in
            outbox.send(.outer(.next(makeWindow(state.subject))))
        }
        startTimer(0)
        subscription.setDisposable(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let restart = synchronized { state, outbox -> Int? in
                guard !state.isStopped else { return nil }
                outbox.send(.window(state.subject, .next(element)))
                state.count += 1
                guard state.count >= count else { return nil }
                return closeWindow(&state, &outbox)
            }
            if let restart { startTimer(restart) }
        case .error(let error):
            terminate(window: .error(error), outer: .error(error))
        case .completed:
            terminate(window: .completed, outer: .completed)
        }
    }

    /// Sends the source's terminal event to the current window, then to the output.
    private func terminate(window: Event<Element>, outer: Event<Observable<Element>>) {
        synchronized { state, outbox in
            guard !state.isStopped else { return }
            state.isStopped = true
            outbox.send(.window(state.subject, window))
            outbox.send(.outer(outer))
        }
    }

    private func makeWindow(_ subject: PublishSubject<Element>) -> Observable<Element> {
        AddRefProducer(source: subject.asObservable(), refCount: refCount)
    }

    /// Completes the current window, opens a new one, and returns the new window's id.
    private func closeWindow(_ state: inout WindowState<Element>, _ outbox: inout SerializedOutbox<WindowAction<Element>>) -> Int {
        outbox.send(.window(state.subject, .completed))
        let subject = PublishSubject<Element>()
        state.subject = subject
        state.count = 0
        state.windowID += 1
        outbox.send(.outer(.next(makeWindow(subject))))
        return state.windowID
    }

    /// Schedules the timer of window `id`; keeps it only if `id` is still the newest window.
    private func startTimer(_ id: Int) {
        let timer = scheduler.schedulePeriodStep(id, after: timeSpan) { [self] id in
            let restart = synchronized { state, outbox -> Int? in
                guard state.windowID == id, !state.isStopped else { return nil }
                return closeWindow(&state, &outbox)
            }
            if let restart { startTimer(restart) }
            return Disposables.create()
        }
        let stale = serialized.withState { state -> Disposable? in
            guard !state.isReleased, id > state.timerID else { return timer }
            let previous = state.timer
            state.timer = timer
            state.timerID = id
            return previous
        }
        stale?.dispose()
    }

    private func releaseTimer() {
        let timer = serialized.withState { state -> Disposable? in
            state.isReleased = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
    }

    /// Runs `body` under the lock, then delivers the queued actions one at a time, never
    /// concurrently (see `SerializedState`, whose `BacklogGate` keeps a fast timer from growing
    /// the queue without bound or keeping the source's thread delivering for ever).
    private func synchronized<R>(_ body: (inout WindowState<Element>, inout SerializedOutbox<WindowAction<Element>>) -> R) -> R {
        serialized.update(body) { action in
            switch action {
            case .window(let subject, let event): subject.on(event)
            case .outer(let event): forwardOn(event)
            }
        }
    }
}

final private class WindowProducer<Element>: Producer<Observable<Element>> {
    private let source: Observable<Element>
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Observable<Element> {
        let sink = WindowSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
