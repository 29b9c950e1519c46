extension ObservableType {
    /// Collects elements into arrays, emitted every `timeSpan` or as soon as `count` elements are collected.
    ///
    ///     source: -1-23---4--------|
    ///     output: ----a----b----c--(d|)     (count: 3, timeSpan: 5 frames)
    ///             a: [1, 2, 3]  b: [4]  c: []  d: []
    ///
    /// A buffer is emitted when it holds `count` elements (and the timer restarts) or when
    /// `timeSpan` has passed since the current buffer was started, even if it is empty. On
    /// completion the current buffer (possibly empty) is emitted, then `completed`. An error
    /// drops the current buffer and is forwarded. `timeSpan` follows the rule for periods: a
    /// non-positive one is the scheduler's smallest step, `.never` emits by count only
    /// (<doc:Schedulers#Time-intervals>).
    /// - Parameters:
    ///   - timeSpan: The longest time a buffer stays open.
    ///   - count: The most elements a buffer holds.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence of buffers.
    /// - Note: Buffers are delivered on the source's thread (when full or on completion) or on
    ///   `scheduler` (when the time span ends); the output is serialized. See <doc:Transforming>.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        BufferProducer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private struct BufferState<Element> {
    var buffer: [Element] = []
    /// Bumped whenever a buffer is emitted, so a timer started for an older buffer does nothing.
    var windowID = 0
    /// The timer of the current buffer; swapped in (and the old one disposed) outside the lock.
    var timerID = -1
    var timer: Disposable?
    var isDisposed = false
}

final private class BufferSink<Element, Observer: ObserverType>: SerializingSink<Observer, BufferState<Element>>, ObserverType
where Observer.Element == [Element] {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(state: BufferState(), observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let restart = synchronized { state, outbox -> Int? in
                state.buffer.append(element)
                guard state.buffer.count >= count else { return nil }
                return emitBuffer(&state, &outbox)
            }
            if let restart { startTimer(restart) }
        case .error(let error):
            synchronized { state, outbox in
                state.buffer = []
                outbox.send(.error(error))
            }
        case .completed:
            synchronized { state, outbox in
                let buffer = state.buffer
                state.buffer = []
                outbox.send(.next(buffer))
                outbox.send(.completed)
            }
        }
    }

    /// Emits the current buffer, starts a new one, and returns the new buffer's id.
    private func emitBuffer(_ state: inout BufferState<Element>, _ outbox: inout Outbox<[Element]>) -> Int {
        let buffer = state.buffer
        state.buffer = []
        state.windowID += 1
        outbox.send(.next(buffer))
        return state.windowID
    }

    /// Schedules the timer of buffer `id`; keeps it only if `id` is still the newest buffer.
    func startTimer(_ id: Int) {
        let timer = scheduler.schedulePeriodStep(id, after: timeSpan) { [self] id in
            let restart = synchronized { state, outbox -> Int? in
                guard state.windowID == id, !state.isDisposed else { return nil }
                return emitBuffer(&state, &outbox)
            }
            if let restart { startTimer(restart) }
            return Disposables.create()
        }
        let stale = withState { state -> Disposable? in
            guard !state.isDisposed, id > state.timerID else { return timer }
            let previous = state.timer
            state.timer = timer
            state.timerID = id
            return previous
        }
        stale?.dispose()
    }

    override func dispose() {
        let timer = withState { state -> Disposable? in
            state.isDisposed = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
        super.dispose()
    }
}

final private class BufferProducer<Element>: Producer<[Element]> {
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
    where Observer.Element == [Element] {
        let sink = BufferSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        sink.startTimer(0)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
