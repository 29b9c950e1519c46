import Synchronization

/// The per-subscription state of an operator: forwards events to its observer and enforces the grammar.
///
/// `forwardOn(_:)` is where `next* (error | completed)?` is enforced centrally: nothing is
/// forwarded after the sink is disposed or after a terminal event, and forwarding a terminal
/// event disposes the whole subscription (upstream included) right after delivering it.
class Sink<Observer: ObserverType>: Disposable {
    // The fixed-size fields first, so that their offsets are constants: after `observer`, whose
    // size depends on the generic parameter, each access in unspecialized code read its offset
    // from the class metadata (measured: map_filter_pump 282.0 -> 278.3 instructions per event).
    final let cancel: SinkDisposer
    private final let stopped = Atomic<Bool>(false)
    final let observer: Observer
    #if DEBUG
    private final let delivery = DeliveryCheck()
    #endif

    init(observer: Observer, cancel: SinkDisposer) {
        self.observer = observer
        self.cancel = cancel
        Resources.increment(type(of: self))
    }

    deinit {
        Resources.decrement(type(of: self))
    }

    /// Whether the sink has been disposed or has forwarded a terminal event.
    @inline(__always) final var isDisposed: Bool { stopped.load(ordering: .relaxed) }

    /// Forwards `event` unless the sink is stopped; a terminal event stops it and disposes the subscription.
    final func forwardOn(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .completed:
            forwardCompleted()
        case .error:
            #if DEBUG
            let entered = delivery.enter(self)
            defer { if entered { delivery.leave() } }
            #endif
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
            observer.on(event)
            cancel.dispose()
        }
    }

    /// Forwards `element` unless the sink is stopped, without wrapping it in an ``Event``
    /// (the hot path: see <doc:Performance>).
    @inline(__always)  // one call frame less per operator stage (see Sources/Streams/Streams.docc/Performance.md, "Call depth")
    final func forwardNext(_ element: Observer.Element) {
        #if DEBUG
        let entered = delivery.enter(self)
        defer { if entered { delivery.leave() } }
        #endif
        if stopped.load(ordering: .relaxed) { return }
        observer.onNext(element)
    }

    /// Forwards an error (kept out of line so that the element paths that may fail never touch
    /// ``Event``'s generic metadata; see <doc:Performance>).
    @inline(never)
    final func forwardError(_ error: Swift.Error) {
        forwardOn(.error(error))
    }

    /// Forwards completion unless the sink is stopped, then disposes the subscription (as
    /// `forwardOn(.completed)`, without building an ``Event``).
    final func forwardCompleted() {
        #if DEBUG
        let entered = delivery.enter(self)
        defer { if entered { delivery.leave() } }
        #endif
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        observer.onCompleted()
        cancel.dispose()
    }

    /// Forwards a terminal event kept apart from the elements (``ObservableType/observe(on:)``'s and the
    /// serializing sinks' queues), without building an ``Event`` for completion.
    final func forward(_ termination: Termination) {
        switch termination {
        case .completed: forwardCompleted()
        case .error(let error): forwardError(error)
        }
    }

    /// Stops forwarding and releases upstream resources. Subclasses that own inner
    /// subscriptions override it and call `super.dispose()`.
    func dispose() {
        stopped.store(true, ordering: .relaxed)
        cancel.dispose()
    }
}

/// An observer that forwards events to its sink's `on(_:)` (used to subscribe a sink to several sources).
///
/// With a `next` handler, elements reach the sink without an ``Event`` being built.
struct SinkForward<Element>: ObserverType {
    let handler: (Event<Element>) -> Void
    let nextHandler: ((Element) -> Void)?

    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
        nextHandler = nil
    }

    init(next: @escaping (Element) -> Void, events handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
        nextHandler = next
    }

    func on(_ event: Event<Element>) { handler(event) }

    func onNext(_ element: Element) {
        if let nextHandler {
            nextHandler(element)
        } else {
            wrapNext(element)
        }
    }

    @inline(never)
    private func wrapNext(_ element: Element) { handler(.next(element)) }
}
