extension ObservableType {
    /// Emits `initialState`, then each next state produced by `iterate`, while `condition` holds.
    ///
    ///     Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
    ///     output: (1 3 9|)
    ///
    /// Like a `for` loop: `condition` is checked before every element (the first included), and
    /// the sequence completes on the first state that fails it. If `condition` or `iterate`
    /// throws, the error is sent and the sequence ends.
    /// - Parameters:
    ///   - initialState: The first state (and element).
    ///   - condition: Whether to emit the state, or complete.
    ///   - scheduler: Where to emit (synchronously on subscribe by default; each element is one
    ///     scheduled step on another scheduler).
    ///   - iterate: Computes the next state from the current one.
    /// - Returns: The generated sequence.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See `Guides/Creating.md`.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        GenerateProducer(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

/// Where a `generate` loop is: the state, and whether it has already been emitted (to iterate).
private struct GenerateStep<Element> {
    var state: Element
    var isFirst: Bool
}

final private class GenerateSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    /// The observers downstream, checked before each element (see `StopReporting`).
    private var downstream: StopChain?

    init(condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, observer: Observer, cancel: Cancelable) {
        self.condition = condition
        self.iterate = iterate
        super.init(observer: observer, cancel: cancel)
    }

    private var isStopped: Bool {
        isDisposed || downstream?.isStopped == true
    }

    func run(initialState: Element, scheduler: ImmediateSchedulerType) -> Disposable {
        downstream = StopChain(startingAt: observer)
        if scheduler is CurrentThreadScheduler {
            var step = GenerateStep(state: initialState, isFirst: true)
            while !isStopped, advance(&step) {}
            return Disposables.create()
        }
        return scheduler.scheduleRecursive(GenerateStep(state: initialState, isFirst: true)) { [self] step, recurse in
            guard !self.isStopped else { return }
            var step = step
            if self.advance(&step) { recurse(step) }
        }
    }

    /// Emits the next element; returns whether the loop goes on (false after a terminal event).
    private func advance(_ step: inout GenerateStep<Element>) -> Bool {
        do {
            if !step.isFirst { step.state = try iterate(step.state) }
            step.isFirst = false
            guard try condition(step.state) else {
                forwardCompleted()
                return false
            }
            forwardNext(step.state)
            return true
        } catch {
            forwardOn(.error(error))
            return false
        }
    }
}

final private class GenerateProducer<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = GenerateSink(condition: condition, iterate: iterate, observer: observer, cancel: cancel)
        let subscription = sink.run(initialState: initialState, scheduler: scheduler)
        return (sink, subscription)
    }
}
