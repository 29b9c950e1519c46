extension ObservableType {
    /// Emits the wrapped value, if any, then completes.
    ///
    ///     Observable.from(optional: 1)     output: (1|)
    ///     Observable.from(optional: nil)   output: |
    ///
    /// - Parameter optional: The value to emit, or `nil` for an empty sequence.
    /// - Returns: A sequence of zero or one element.
    /// - Note: Delivers synchronously on the subscribing thread. See <doc:Creating>.
    public static func from(optional: Element?) -> Observable<Element> {
        OptionalProducer(optional: optional, scheduler: nil)
    }

    /// Emits the wrapped value, if any, then completes, each as one step on `scheduler`.
    ///
    ///     Observable.from(optional: 1, scheduler: s)     output: -1|
    ///     Observable.from(optional: nil, scheduler: s)   output: -|
    ///
    /// - Parameters:
    ///   - optional: The value to emit, or `nil` for an empty sequence.
    ///   - scheduler: Where to emit.
    /// - Returns: A sequence of zero or one element.
    /// - Note: Delivers on `scheduler`. See <doc:Creating>.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        OptionalProducer(optional: optional, scheduler: scheduler)
    }
}

final private class OptionalSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ optional: Observer.Element?, scheduler: ImmediateSchedulerType?) -> Disposable {
        guard let scheduler else {
            if let element = optional { forwardNext(element) }
            forwardCompleted()
            return Disposables.create()
        }
        return scheduler.scheduleRecursive(optional) { [self] optional, recurse in
            if let element = optional {
                self.forwardNext(element)
                recurse(nil)
            } else {
                self.forwardCompleted()
            }
        }
    }
}

final private class OptionalProducer<Element>: Producer<Element> {
    private let optional: Element?
    private let scheduler: ImmediateSchedulerType?

    init(optional: Element?, scheduler: ImmediateSchedulerType?) {
        self.optional = optional
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = OptionalSink(observer: observer, cancel: cancel)
        let subscription = sink.run(optional, scheduler: scheduler)
        return (sink, subscription)
    }
}
