import Dispatch

extension ObservableType {
    /// Splits the sequence into windows, each closed after `timeSpan` or after `count` elements, whichever comes first.
    ///
    ///     source:  -1-2-3--4--------|
    ///     output:  a----b----c----d-|     (count: 3, timeSpan: 5 frames)
    ///     a:       -1-2-(3|)
    ///     b:            ---4-|
    ///     c:                 -----|
    ///     d:                      --|
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
    /// (Guides/Schedulers.md#time-intervals).
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The most elements a window holds.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence of windows.
    /// - Note: Windows are opened and closed on the source's thread (when full or on
    ///   termination) or on `scheduler` (when the time span ends); all deliveries, to the
    ///   output and to the windows, are serialized. See `Guides/Transforming.md`.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        if count <= 0 { return Observable.error(RxError.argumentOutOfRange) }
        return WindowProducer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

/// An observable that holds a handle of `refCount` for as long as a subscription to `source` lasts.
///
/// Used by `window` and `groupBy`: their inner sequences keep the shared upstream
/// subscription alive after the outer subscription is disposed.
final class AddRefProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let refCount: RefCountDisposable

    init(source: Observable<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
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
    var queue = FIFOQueue<WindowAction<Element>>()
    /// The thread delivering the queue (0 when none), so a reentrant call is told apart.
    var drainer: UInt = 0
    /// Makes other threads wait while the queue is long (a timer outrunning the delivery).
    var gate = BacklogGate()
}

/// The sink of `window`.
///
/// It follows `SerializingSink`'s queue-and-drain pattern, but its queue also holds events for
/// the current window subject: those must keep flowing after the output is disposed (while a
/// window is still subscribed), which `forwardOn`-based draining would drop.
final private class WindowSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Observable<Element> {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let locked = LockedState(WindowState<Element>())
    private let upstream = CompositeDisposable()
    let refCount: RefCountDisposable

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
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
        synchronized { state in
            state.queue.append(.outer(.next(makeWindow(state.subject))))
        }
        startTimer(0)
        subscription.setDisposable(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let restart = synchronized { state -> Int? in
                guard !state.isStopped else { return nil }
                state.queue.append(.window(state.subject, .next(element)))
                state.count += 1
                guard state.count >= count else { return nil }
                return closeWindow(&state)
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
        synchronized { state in
            guard !state.isStopped else { return }
            state.isStopped = true
            state.queue.append(.window(state.subject, window))
            state.queue.append(.outer(outer))
        }
    }

    private func makeWindow(_ subject: PublishSubject<Element>) -> Observable<Element> {
        AddRefProducer(source: subject.asObservable(), refCount: refCount)
    }

    /// Completes the current window, opens a new one, and returns the new window's id.
    private func closeWindow(_ state: inout WindowState<Element>) -> Int {
        state.queue.append(.window(state.subject, .completed))
        let subject = PublishSubject<Element>()
        state.subject = subject
        state.count = 0
        state.windowID += 1
        state.queue.append(.outer(.next(makeWindow(subject))))
        return state.windowID
    }

    /// Schedules the timer of window `id`; keeps it only if `id` is still the newest window.
    private func startTimer(_ id: Int) {
        let timer = scheduler.schedulePeriodStep(id, after: timeSpan) { [self] id in
            let restart = synchronized { state -> Int? in
                guard state.windowID == id, !state.isStopped else { return nil }
                return closeWindow(&state)
            }
            if let restart { startTimer(restart) }
            return Disposables.create()
        }
        let stale = locked.withLock { state -> Disposable? in
            guard !state.isReleased, id > state.timerID else { return timer }
            let previous = state.timer
            state.timer = timer
            state.timerID = id
            return previous
        }
        stale?.dispose()
    }

    private func releaseTimer() {
        let timer = locked.withLock { state -> Disposable? in
            state.isReleased = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
    }

    /// Runs `body` under the lock, then delivers the queued actions one at a time, never
    /// concurrently. A thread that finds another one delivering a long queue waits until it
    /// has shrunk, and one that has delivered long for others hands the role to the waiting
    /// ones (`BacklogGate`), so a fast timer can neither grow the queue without bound nor keep
    /// the source's thread delivering for ever.
    private func synchronized<R>(_ body: (inout WindowState<Element>) -> R) -> R {
        let (result, drain, wait) = locked.withLock { state -> (R, Bool, DispatchSemaphore?) in
            let result = body(&state)
            guard state.drainer == 0 else {
                return (result, false, state.gate.admit(queued: state.queue.count, isReentrant: state.drainer == currentThreadID()))
            }
            return (result, Self.takeDrainer(&state), nil)
        }
        if drain {
            drainQueue()
        } else if let wait {
            wait.wait()
            // Woken by a hand-off, the queue may be this thread's to deliver.
            if locked.withLock({ Self.takeDrainer(&$0) }) { drainQueue() }
        }
        return result
    }

    /// Makes the calling thread the drainer if there is none and something is queued.
    private static func takeDrainer(_ state: inout WindowState<Element>) -> Bool {
        guard state.drainer == 0, !state.queue.isEmpty else { return false }
        state.drainer = currentThreadID()
        return true
    }

    private func drainQueue() {
        while true {
            let (next, wakeup) = locked.withLock { state -> (WindowAction<Element>?, BacklogGate.Wakeup?) in
                if let handOff = state.gate.handOff() {
                    state.drainer = 0
                    return (nil, handOff)
                }
                guard let next = state.queue.popFirst() else {
                    state.drainer = 0
                    state.gate.finish()
                    return (nil, state.gate.release(queued: 0))
                }
                state.gate.serve(1)
                return (next, state.gate.release(queued: state.queue.count))
            }
            wakeup?.run()
            switch next {
            case .window(let subject, let event): subject.on(event)
            case .outer(let event): forwardOn(event)
            case nil: return
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Observable<Element> {
        let sink = WindowSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
