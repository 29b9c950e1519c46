/// The sink shape of ``ObservableType/debounce(_:scheduler:)`` and ``ObservableType/throttle(_:latest:scheduler:)``: each upstream event and each timer callback is
/// handled one at a time on the running thread (`DrainingSink`), so subclasses keep their state in
/// plain fields and call the observer directly; one timer slot, disposed with the sink.
class TimerSink<Observer: ObserverType>: DrainingSink<Observer>, ObserverType {
    typealias Element = Observer.Element
    // Safety (`@unchecked Sendable` of the base): `timer` and `timerDisposed` are read and
    // written only inside `timerLock.withLock`; the disposals happen after it.
    /// Guards the timer slot (a lock of its own: the slot is set by handlers and disposed by
    /// `dispose()`, which may run on another thread).
    private final let timerLock = LockedState(())
    /// The running timer (a no-op disposable when none runs).
    @exclusivity(unchecked) private final var timer: Disposable = NopDisposable.shared
    /// Set by `dispose()`: a timer set afterwards is disposed at once.
    @exclusivity(unchecked) private final var timerDisposed = false

    /// Makes `newTimer` the running timer and disposes the previous one (or `newTimer` itself if
    /// the sink was disposed). A plain existential swapped under a lock, not a
    /// ``SerialDisposable`` (whose optional existential is copied through its value witnesses
    /// on every set: ~450 instructions per debounced element).
    final func setTimer(_ newTimer: consuming Disposable) {
        var toDispose = newTimer
        timerLock.withLock { _ in
            if !timerDisposed { swap(&toDispose, &timer) }
        }
        toDispose.dispose()
    }

    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): serialize({ handleError(error) }, later: { { self.handleError(error) } })
        case .completed: serialize({ handleCompleted() }, later: { { self.handleCompleted() } })
        }
    }

    final func onNext(_ element: Element) {
        serialize({ handleNext(element) }, later: { { self.handleNext(element) } })
    }

    /// Runs `handler` as the handler of a timer callback (serialized with the upstream events).
    final func handleTimer(_ handler: @escaping () -> Void) {
        serialize(handler, later: { handler })
    }

    /// Handles an element (serialized).
    func handleNext(_ element: Element) { fatalError("abstract") }
    /// Handles the upstream error (serialized).
    func handleError(_ error: Swift.Error) { fatalError("abstract") }
    /// Handles the upstream completion (serialized).
    func handleCompleted() { fatalError("abstract") }

    override func dispose() {
        var toDispose: Disposable = NopDisposable.shared
        timerLock.withLock { _ in
            if !timerDisposed {
                timerDisposed = true
                swap(&toDispose, &timer)
            }
        }
        toDispose.dispose()
        super.dispose()
    }
}
