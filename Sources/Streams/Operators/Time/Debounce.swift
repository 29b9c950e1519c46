extension ObservableType {
    /// Emits an element only after `dueTime` passes without another element.
    ///
    ///     source: -a-b----c--|
    ///     output: ------b----(c|)     (dueTime: 3 frames)
    ///
    /// Each element restarts the timer; only the last element of a burst is emitted, `dueTime`
    /// after it arrived. On completion a pending element is emitted at once, then `completed`.
    /// An error is forwarded at once and drops the pending element. Disposing cancels the timer.
    /// - Parameters:
    ///   - dueTime: How long the source must stay quiet before the last element is emitted.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The debounced sequence.
    /// - Note: Elements are delivered on `scheduler`; `completed` and `error` on the source's
    ///   thread. See `Guides/Time.md`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DebounceProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private struct DebounceState<Element> {
    /// Bumped by every element, so a timer started for an older element does nothing.
    var id: UInt64 = 0
    var value: Element?
}

final private class DebounceSink<Observer: ObserverType>: SerializingSink<Observer, DebounceState<Observer.Element>>, ObserverType {
    typealias Element = Observer.Element
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(state: DebounceState(), observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let id = withState { state -> UInt64 in
                state.id &+= 1
                state.value = element
                return state.id
            }
            // Only the (serial) upstream assigns the timer, so assignments arrive in order.
            timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
                propagate(id)
                return Disposables.create()
            }
        case .error:
            synchronized { state, outbox in
                state.value = nil
                outbox.send(event)
            }
        case .completed:
            synchronized { state, outbox in
                if let value = state.value {
                    state.value = nil
                    outbox.send(.next(value))
                }
                outbox.send(.completed)
            }
        }
    }

    private func propagate(_ id: UInt64) {
        synchronized { state, outbox in
            guard state.id == id, let value = state.value else { return }
            state.value = nil
            outbox.send(.next(value))
        }
    }

    override func dispose() {
        timer.dispose()
        super.dispose()
    }
}

final private class DebounceProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
