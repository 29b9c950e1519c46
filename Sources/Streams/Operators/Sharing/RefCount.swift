import Synchronization

extension ConnectableObservableType {
    /// Connects when the first observer subscribes and disconnects when the last one leaves.
    ///
    ///     source:    --1--2--3--4--|
    ///     a:         ^-1--2--!           (subscribes: connect)
    ///     b:            ^--2--3--!       (last to leave: disconnect)
    ///
    /// When the source terminates, the count is reset, so the next observer connects again
    /// (what it then sees depends on the connectable: ``ObservableType/publish()`` gives it a fresh subject,
    /// `multicast(_:)` with one subject replays that subject's terminal event).
    /// - Returns: A sequence that stays connected while it has observers.
    /// - Note: Delivers on the source's scheduler. Connecting and disconnecting run on the thread
    ///   whose subscription or disposal caused them, outside any lock. See <doc:Sharing>.
    public func refCount() -> Observable<Element> {
        RefCountProducer(source: self)
    }
}

final private class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Source.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCountProducer<Source>
    /// The connection epoch this sink counts in (0 until it registers).
    private let epoch = Atomic<UInt64>(0)

    init(parent: RefCountProducer<Source>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        guard let epoch = parent.register({ self.isDisposed }, store: { self.epoch.store($0, ordering: .releasing) }) else {
            return subscription
        }
        let parent = self.parent
        return Disposables.create {
            subscription.dispose()
            parent.unregister(epoch: epoch)
        }
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            let epoch = epoch.load(ordering: .acquiring)
            if epoch != 0 { parent.connectionTerminated(epoch: epoch) }
        }
        forwardOn(event)
    }
}

/// `refCount()`: counts observers and connects/disconnects the connectable source.
///
/// Connecting and disconnecting are never done under the lock. Whoever changes the count
/// claims the "reconciling" role (if free) and, outside the lock, brings the connection in line
/// with the count: disconnect a connection that is no longer wanted, connect when one is wanted.
/// A change made while another thread (or an outer call on this thread, e.g. a source emitting
/// synchronously inside `connect()`) reconciles is picked up by that reconciler's next round.
final private class RefCountProducer<Source: ConnectableObservableType>: Producer<Source.Element>, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; `connect()` and `dispose()`
    // are called outside it, by the single thread holding the reconciling role.
    struct State {
        var count = 0
        /// Bumped when the count goes from 0 to 1: a new connection is wanted.
        var epoch: UInt64 = 0
        var connection: (epoch: UInt64, disposable: Disposable)?
        var isReconciling = false

        var needsWork: Bool {
            if let connection { return count == 0 || connection.epoch != epoch }
            return count > 0
        }

        /// Takes the reconciling role if there is work and nobody has it.
        mutating func claimReconcile() -> Bool {
            guard !isReconciling, needsWork else { return false }
            isReconciling = true
            return true
        }
    }

    private enum Step {
        case connect(UInt64)
        case disconnect(Disposable)
        case done
    }

    let source: Source
    private let state = LockedState(State())

    init(source: Source) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }

    /// Counts a new observer unless it already stopped; returns its epoch.
    func register(_ isStopped: () -> Bool, store: (UInt64) -> Void) -> UInt64? {
        let (epoch, reconcile) = state.withLock { state -> (UInt64?, Bool) in
            if isStopped() { return (nil, false) }
            if state.count == 0 { state.epoch &+= 1 }
            state.count += 1
            store(state.epoch)
            return (state.epoch, state.claimReconcile())
        }
        if reconcile { self.reconcile() }
        return epoch
    }

    /// Uncounts an observer of `epoch` (no effect once that connection has ended).
    func unregister(epoch: UInt64) {
        let reconcile = state.withLock { state -> Bool in
            if state.epoch == epoch && state.count > 0 { state.count -= 1 }
            return state.claimReconcile()
        }
        if reconcile { self.reconcile() }
    }

    /// The connection of `epoch` ended with a terminal event: forget its observers.
    func connectionTerminated(epoch: UInt64) {
        let reconcile = state.withLock { state -> Bool in
            if state.epoch == epoch { state.count = 0 }
            return state.claimReconcile()
        }
        if reconcile { self.reconcile() }
    }

    private func reconcile() {
        while true {
            let step = state.withLock { state -> Step in
                if let connection = state.connection, state.count == 0 || connection.epoch != state.epoch {
                    state.connection = nil
                    return .disconnect(connection.disposable)
                }
                if state.connection == nil && state.count > 0 { return .connect(state.epoch) }
                state.isReconciling = false
                return .done
            }
            switch step {
            case .done:
                return
            case .disconnect(let disposable):
                #if DEBUG
                ShareTestHooks.beforeDisconnect?()
                #endif
                disposable.dispose()
            case .connect(let epoch):
                let disposable = source.connect()
                state.withLock { $0.connection = (epoch, disposable) }
            }
        }
    }
}
