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
    ///   - scheduler: Where to emit (each element is one step of the current thread's trampoline
    ///     by default, one scheduled step on another scheduler).
    ///   - iterate: Computes the next state from the current one.
    /// - Returns: The generated sequence.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        GenerateProducer(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

/// Where a ``ObservableType/generate(initialState:condition:scheduler:iterate:)`` loop is: the state, and whether it has already been emitted (to iterate).
private struct GenerateStep<Element> {
    var state: Element
    var isFirst: Bool
}

final private class GenerateSink<Observer: ObserverType>: SteppingSink<Observer> {
    typealias Element = Observer.Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    // Only the step being run touches it (steps never overlap): no dynamic exclusivity check.
    @exclusivity(unchecked) private var current: GenerateStep<Element>

    init(
        initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, observer: Observer,
        cancel: SinkDisposer
    ) {
        self.condition = condition
        self.iterate = iterate
        current = GenerateStep(state: initialState, isFirst: true)
        super.init(observer: observer, cancel: cancel)
    }

    /// Emits the next element; returns whether more follow (false after a terminal event).
    override func step() -> Bool {
        do {
            if !current.isFirst { current.state = try iterate(current.state) }
            current.isFirst = false
            guard try condition(current.state) else {
                forwardCompleted()
                return false
            }
            forwardNext(current.state)
            return true
        } catch {
            forwardError(error)
            return false
        }
    }
}

final private class GenerateProducer<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(
        initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType
    ) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = GenerateSink(initialState: initialState, condition: condition, iterate: iterate, observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}
