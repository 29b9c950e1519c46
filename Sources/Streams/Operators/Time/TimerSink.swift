/// The sink shape of ``ObservableType/debounce(_:scheduler:)`` and ``ObservableType/throttle(_:latest:scheduler:)``: each upstream event and each timer callback is
/// handled one at a time on the running thread (`DrainingSink`), so subclasses keep their state in
/// plain fields and call the observer directly; one timer slot, disposed with the sink.
class TimerSink<Observer: ObserverType>: DrainingSink<Observer>, ObserverType {
    typealias Element = Observer.Element
    /// The running timer; assigning a new one disposes the previous one.
    final let timer = SerialDisposable()

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
        timer.dispose()
        super.dispose()
    }
}
