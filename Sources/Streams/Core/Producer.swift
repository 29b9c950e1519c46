/// The base of Streams' operators: a cold sequence that builds a new sink for every subscription.
///
/// Subclasses implement `run(_:cancel:)`, returning the sink and the upstream subscription;
/// `subscribe(_:)` wraps both in a `SinkDisposer` so that disposing the subscription,
/// or a terminal event reaching the sink, releases everything exactly once.
class Producer<Element>: Observable<Element> {
    override init() { super.init() }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let disposer = SinkDisposer()
        let pair = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: pair.sink, subscription: pair.subscription)
        return disposer
    }

    /// Creates the sink for `observer` and subscribes it upstream.
    func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        fatalError("Producer.run(_:cancel:) is abstract; override it in \(type(of: self))")
    }
}

/// Owns a sink and its upstream subscription and disposes both exactly once.
final class SinkDisposer: Cancelable, @unchecked Sendable {
    // Safety: `state` is guarded by its lock; disposal happens outside it.
    private struct State {
        var sink: Disposable?
        var subscription: Disposable?
        var isSet = false
        var isDisposed = false
    }

    private let state = LockedState(State())

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            precondition(!state.isSet, "SinkDisposer assigned twice")
            state.isSet = true
            if state.isDisposed { return true }
            state.sink = sink
            state.subscription = subscription
            return false
        }
        if disposeNow {
            sink.dispose()
            subscription.dispose()
        }
    }

    func dispose() {
        let taken = state.withLock { state -> (Disposable?, Disposable?)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.sink = nil; state.subscription = nil }
            return (state.sink, state.subscription)
        }
        guard let taken else { return }
        taken.0?.dispose()
        taken.1?.dispose()
    }
}
