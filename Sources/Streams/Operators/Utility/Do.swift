import Synchronization

extension ObservableType {
    /// Runs side effects for the events and lifecycle of each subscription, passing events through unchanged.
    ///
    ///     source: --1--2--|
    ///     output: --1--2--|     (onNext runs before each element is forwarded, afterNext after it)
    ///
    /// Per subscription, in order: `onSubscribe`, subscribe to the source, `onSubscribed`; for each
    /// event the `on…` handler, the event itself, then the `after…` handler; `onDispose` once the
    /// subscription is disposed (after a terminal event's `after…` handler). An error thrown by
    /// `onNext`, `onError` or `onCompleted` is sent as an `error` event instead of that event;
    /// one thrown by `afterNext` terminates the sequence with that error after the element;
    /// one thrown by `afterError` or `afterCompleted` is ignored (the sequence has already ended).
    /// - Parameters:
    ///   - onNext: Runs before each element is forwarded.
    ///   - afterNext: Runs after each element is forwarded.
    ///   - onError: Runs before the error is forwarded.
    ///   - afterError: Runs after the error is forwarded.
    ///   - onCompleted: Runs before completion is forwarded.
    ///   - afterCompleted: Runs after completion is forwarded.
    ///   - onSubscribe: Runs before subscribing to the source.
    ///   - onSubscribed: Runs after subscribing to the source.
    ///   - onDispose: Runs once when the subscription is disposed, for whatever reason.
    /// - Returns: The source sequence with the side effects attached.
    /// - Note: Handlers run on the thread that delivers the event (or subscribes, or disposes).
    ///   See <doc:Utility>.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        DoProducer(
            source: asObservable(),
            handlers: DoHandlers(
                before: { event in
                    switch event {
                    case .next(let element): try onNext?(element)
                    case .error(let error): try onError?(error)
                    case .completed: try onCompleted?()
                    }
                },
                after: { event in
                    switch event {
                    case .next(let element): try afterNext?(element)
                    case .error(let error): try afterError?(error)
                    case .completed: try afterCompleted?()
                    }
                },
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            )
        )
    }
}

private struct DoHandlers<Element> {
    let before: (Event<Element>) throws -> Void
    let after: (Event<Element>) throws -> Void
    let onSubscribe: (() -> Void)?
    let onSubscribed: (() -> Void)?
    let onDispose: (() -> Void)?
}

/// `onDispose` bookkeeping of `DoSink`: a disposal that happens while a terminal event is being
/// forwarded (which disposes the subscription) waits for that event's `after…` handler.
private enum DisposePhase {
    static let idle = 0
    static let holding = 1
    static let requestedWhileHolding = 2
    static let done = 3
}

final private class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let handlers: DoHandlers<Element>
    private let disposePhase = Atomic<Int>(DisposePhase.idle)

    init(handlers: DoHandlers<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handlers = handlers
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        do {
            try handlers.before(event)
        } catch {
            forwardOn(.error(error))
            return
        }
        if case .next = event {
            forwardOn(event)
            do {
                try handlers.after(event)
            } catch {
                forwardOn(.error(error))
            }
            return
        }
        let held = disposePhase.compareExchange(expected: DisposePhase.idle, desired: DisposePhase.holding, ordering: .acquiringAndReleasing).exchanged
        forwardOn(event)
        try? handlers.after(event)
        if held {
            let released = disposePhase.compareExchange(expected: DisposePhase.holding, desired: DisposePhase.idle, ordering: .acquiringAndReleasing).exchanged
            if !released {
                disposePhase.store(DisposePhase.done, ordering: .releasing)
                handlers.onDispose?()
            }
        }
    }

    /// Runs `onDispose` once, now or (during a terminal event) after the `after…` handler.
    func disposed() {
        while true {
            let phase = disposePhase.load(ordering: .acquiring)
            switch phase {
            case DisposePhase.idle:
                if disposePhase.compareExchange(expected: phase, desired: DisposePhase.done, ordering: .acquiringAndReleasing).exchanged {
                    handlers.onDispose?()
                    return
                }
            case DisposePhase.holding:
                if disposePhase.compareExchange(expected: phase, desired: DisposePhase.requestedWhileHolding, ordering: .acquiringAndReleasing).exchanged {
                    return
                }
            default:
                return
            }
        }
    }
}

final private class DoProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handlers: DoHandlers<Element>

    init(source: Observable<Element>, handlers: DoHandlers<Element>) {
        self.source = source
        self.handlers = handlers
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        handlers.onSubscribe?()
        let sink = DoSink(handlers: handlers, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        handlers.onSubscribed?()
        let all = Disposables.create {
            subscription.dispose()
            sink.disposed()
        }
        return (sink, all)
    }
}
