import Synchronization

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
    // Safety: `sink` and `subscription` are written once, by `setSinkAndSubscription`, before it
    // publishes the `isSet` bit with a releasing read-modify-write; the one caller that sees both
    // bits (`isSet` and `isDisposed`) second — with an acquiring read-modify-write — is the only
    // one that reads, disposes and clears them. No lock: an atomic state machine, as subscribing
    // and disposing are the hot path of short-lived chains.
    private static let disposedBit = 1
    private static let setBit = 2
    private let state = Atomic<Int>(0)
    private var sink: Disposable?
    private var subscription: Disposable?

    var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.setBit == 0, "SinkDisposer assigned twice")
        if previous & Self.disposedBit != 0 { disposeBoth() }
    }

    func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.setBit != 0 else { return }
        disposeBoth()
    }

    private func disposeBoth() {
        let sink = self.sink, subscription = self.subscription
        self.sink = nil
        self.subscription = nil
        sink?.dispose()
        subscription?.dispose()
    }
}
