import Synchronization

/// The base of Streams' operators: a cold sequence that builds a new sink for every subscription.
///
/// Subclasses implement `run(_:cancel:)`, returning the sink and the upstream subscription;
/// `subscribe(_:)` wraps both in a `SinkDisposer` so that disposing the subscription,
/// or a terminal event reaching the sink, releases everything exactly once.
///
/// As in RxSwift, a subscription runs on the current thread's trampoline
/// (``CurrentThreadScheduler``): one made while no trampoline runs starts it, and the steps that
/// synchronous sources queued while the chain was being subscribed run before `subscribe`
/// returns. So the whole chain is subscribed before the first synchronous element flows.
@usableFromInline
class Producer<Element>: Observable<Element> {
    @usableFromInline
    override init() { super.init() }

    /// Always: a producer's subscription runs on the trampoline (as RxSwift's `Producer`).
    override var subscribesOnTrampoline: Bool { true }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { inspected in Trampoline.run { subscribeNow(inspected) } } }
        return Trampoline.run { subscribeNow(observer) }
    }

    @inline(__always)
    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let disposer = SinkDisposer()
        let (sink, subscription) = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sink, subscription: subscription)
        return disposer
    }

    /// Creates the sink for `observer` and subscribes it upstream.
    func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        fatalError("Producer.run(_:cancel:) is abstract; override it in \(type(of: self))")
    }
}

/// Owns a sink and its upstream subscription and disposes both exactly once.
final class SinkDisposer: Cancelable, @unchecked Sendable {
    // Safety: `sink` and `subscription` are written once before `state.assign` publishes them,
    // and read and cleared only by the one caller `AssignOnceState` designates. No lock:
    // subscribing and disposing are the hot path of short-lived chains. Those accesses never
    // overlap (by the same protocol), hence unchecked exclusivity (the dynamic check was ~600
    // instructions per chain).
    private let state = AssignOnceState()
    // The sink is a class (every `run` returns one), held as an optional class existential:
    // copying and destroying it is a retain and a release, and `nil` needs no placeholder
    // object. The subscription is not an optional: destroying an `Optional<any Disposable>`
    // goes through the runtime's generic value witnesses (~500 instructions); its placeholder
    // is `EmptyDisposable`, a value (no `swift_initStaticObject` per read, as the shared
    // `NopDisposable` costs).
    @exclusivity(unchecked) private var sink: (AnyObject & Disposable)?
    @exclusivity(unchecked) private var subscription: Disposable = EmptyDisposable()

    var isDisposed: Bool { state.isDisposed }

    /// Stores the sink and the subscription (moved in; the subscription swapped with the no-op
    /// placeholder rather than assigned: no value-witness calls), or disposes both if disposed
    /// already.
    func setSinkAndSubscription(sink: consuming AnyObject & Disposable, subscription: consuming Disposable) {
        self.sink = consume sink
        swap(&subscription, &self.subscription)
        if state.assign("SinkDisposer assigned twice") { disposeBoth() }
    }

    func dispose() {
        if state.dispose() { disposeBoth() }
    }

    private func disposeBoth() {
        // Moves each out (leaving `nil` and the no-op placeholder), breaking the cycle
        // sink -> disposer -> sink.
        let sink = self.sink.take()
        let subscription = swapOut(&self.subscription)
        sink?.dispose()
        subscription.dispose()
    }
}

/// Returns `slot`'s disposable and leaves the no-op placeholder in its place.
@inline(__always)
private func swapOut(_ slot: inout Disposable) -> Disposable {
    var taken: Disposable = EmptyDisposable()
    swap(&taken, &slot)
    return taken
}
