import Synchronization

/// The sink of a one-source stage (`map`, `filter` and their fused pairs) that a subject can
/// register as its own node: `Sink`'s fields and grammar, on `SubjectObserver<Input>`.
///
/// Subscribed to a ``PublishSubject``, the sink is the node in the subject's observer list (as a
/// closure observer is), so the subscription allocates no `SubjectObserverOf` for it and an
/// element reaches the stage without that node's extra call. The fused stages and `filter`
/// try `Observable.register(stage:)` first, which also needs no witness table for the sink's
/// conformance to ``ObserverType`` (a runtime lookup per subscription in unspecialized code);
/// `map` does not (see `MapProducer.run`). See Sources/Streams/Streams.docc/Performance.md,
/// "Stage sinks as subject nodes".
///
/// Otherwise the same as `Sink`: nothing is forwarded after the sink is disposed or after a
/// terminal event, and forwarding a terminal event disposes the whole subscription.
class StageSink<Input, Observer: ObserverType>: SubjectObserver<Input>, Disposable {
    // The fixed-size fields first (their offsets are constants; see `Sink`).
    final let cancel: SinkDisposer
    private final let stopped = Atomic<Bool>(false)
    final let observer: Observer
    #if DEBUG
    private final let delivery = DeliveryCheck()
    #endif

    init(observer: Observer, cancel: SinkDisposer) {
        self.observer = observer
        self.cancel = cancel
        // Counted before `super.init()`: after it, reading `self`'s type cost a retain and a
        // release per subscription.
        Resources.increment(Self.self)
        super.init()
    }

    deinit {
        Resources.decrement(type(of: self))
    }

    /// Whether the sink has been disposed or has forwarded a terminal event.
    @inline(__always) final var isDisposed: Bool { stopped.load(ordering: .relaxed) }

    /// Forwards `element` unless the sink is stopped (the hot path, as `Sink.forwardNext`).
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        #if DEBUG
        let entered = delivery.enter(self)
        defer { if entered { delivery.leave() } }
        #endif
        if stopped.load(ordering: .relaxed) { return }
        observer.onNext(element)
    }

    /// Forwards an error unless the sink is stopped, then disposes the subscription (out of
    /// line, so the element paths never touch ``Event``'s generic metadata).
    @inline(never)
    final func forwardError(_ error: Swift.Error) {
        #if DEBUG
        let entered = delivery.enter(self)
        defer { if entered { delivery.leave() } }
        #endif
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        observer.on(.error(error))
        cancel.dispose()
    }

    /// Forwards completion unless the sink is stopped, then disposes the subscription.
    final func forwardCompleted() {
        #if DEBUG
        let entered = delivery.enter(self)
        defer { if entered { delivery.leave() } }
        #endif
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        observer.onCompleted()
        cancel.dispose()
    }

    /// Receives an event from the subject it is registered in (as its own node): an element as
    /// the subclass's `receiveNext(_:)`, a terminal event forwarded. Subclasses override
    /// `receiveNext(_:)` (the per-element path) and leave this one to the base.
    override final func receive(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            receiveNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }

    /// Stops forwarding and releases the upstream subscription.
    func dispose() {
        stopped.store(true, ordering: .relaxed)
        cancel.dispose()
    }
}
