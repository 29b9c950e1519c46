/// How long the subject behind ``ObservableType/share(replay:scope:)`` lives.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection to the source has its own subject (`multicast(makeSubject:).refCount()`).
    ///
    /// When the source terminates, or the last observer leaves, the subject and its replay buffer
    /// are dropped; the next observer subscribes to the source again. This is the default, and
    /// what makes `retry` and `concat` work after ``ObservableType/share(replay:scope:)``.
    case whileConnected

    /// One subject for ever (`multicast(subject).refCount()`).
    ///
    /// After the last observer leaves, the replay buffer is kept: a later observer first gets
    /// those stale elements, then a new connection's. After the source terminates, later
    /// observers get the replayed elements and the terminal event, and the source is never
    /// subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all observers, replaying the last `replay`
    /// elements to each new one.
    ///
    ///     source:  --1--2--3--|
    ///     a:       ^-1--2--3--|
    ///     b:            ^2-3--|       (replay: 1, subscribed after 2)
    ///
    /// The source is subscribed when the first observer arrives and disposed when the last one
    /// leaves. `scope` decides what survives a connection: see ``SubjectLifetimeScope``.
    /// A new observer never misses or duplicates an element, even when it subscribes while the
    /// source emits on another thread.
    /// - Parameters:
    ///   - replay: The number of elements replayed to new observers (negative counts as 0).
    ///   - scope: Whether the replay buffer (and terminal event) outlive a connection.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on the source's scheduler; replayed elements are sent on the subscribing
    ///   thread before any live element. See <doc:Sharing>.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        ShareObservable(source: asObservable(), replay: replay, scope: scope)
    }
}

/// One upstream subscription of a ``ObservableType/share(replay:scope:)``, with the id that
/// tells its events apart from a replaced one's.
private struct ShareConnection {
    let id: UInt64
    let subscription: SingleAssignmentDisposable
}

/// The lock-guarded bookkeeping of a ``ObservableType/share(replay:scope:)``, without the element
/// type; the replay buffer is the sharing observable's `buffer` field, under the same lock.
/// Top-level, not nested in the generic `ShareObservable`: a nested type is generic over
/// `Element` too, and naming it on the per-element path (`LockedState<State>.withLock`) cost a
/// runtime metadata lookup per element (~330 instructions; see <doc:Performance>).
private struct ShareState {
    var observers = ObserverList()
    /// The terminal event, kept only with `.forever`.
    var stopEvent: Termination?
    /// The live connection (or the one being connected).
    var connection: ShareConnection?
    var nextConnectionId: UInt64 = 0
    /// Connections that ended (terminated), waiting to be disposed by the role holder.
    var retiring: [Disposable] = []
    /// Whether a thread holds the reconciling role.
    var isReconciling = false

    /// Whether the connection is out of line with what is wanted.
    var needsWork: Bool {
        if !retiring.isEmpty { return true }
        if connection != nil { return observers.isEmpty }
        return !observers.isEmpty && stopEvent == nil
    }

    /// Takes the role if there is work and nobody has it.
    mutating func claimReconcile() -> Bool {
        guard !isReconciling, needsWork else { return false }
        isReconciling = true
        return true
    }
}

/// One step of the reconciling loop, decided under the lock.
private enum ShareStep {
    case dispose([Disposable])
    case connect(ShareConnection)
    case done
}

/// ``ObservableType/share(replay:scope:)``: observers, replay buffer and connection under one lock, so that
/// joining, leaving and the source's events are totally ordered (no lost or duplicated replay,
/// no observer joining a connection that is being torn down).
///
/// **At most one upstream subscription at any instant.** Connecting and disconnecting are done
/// outside the lock by one thread at a time, the holder of the "reconciling" role: whoever
/// changes what is wanted (the first observer joins, the last leaves, the source terminates)
/// claims the role if it is free and, in a loop, brings the connection in line with the state:
/// first it disposes connections that ended, then the one nobody needs, and only then connects
/// if observers wait. A change made while another thread holds the role is picked up by that
/// thread's next round, so a new connection waits for the disconnect in progress to complete.
final private class ShareObservable<Element>: Observable<Element>, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `state` and `buffer`, both guarded by `state`'s lock.
    // Observers are called, the source subscribed and connections disposed only outside the
    // lock, by the role holder.
    private let source: Observable<Element>
    private let scope: SubjectLifetimeScope
    /// Whether subscribing runs on the trampoline: RxSwift's `share` is a `refCount()` producer
    /// except for `replay` 0 or 1 `.whileConnected` (see <doc:Grammar#Which-sources-use-the-trampoline>).
    private let onTrampoline: Bool
    private let state = LockedState(ShareState())
    @exclusivity(unchecked) private var buffer: ReplayBuffer<Element>

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.scope = scope
        onTrampoline = scope == .forever || replay > 1
        buffer = ReplayBuffer(capacity: replay)
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    override var subscribesOnTrampoline: Bool { onTrampoline }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeOn($0) } }
        return subscribeOn(observer)
    }

    /// Subscribes on the trampoline or not (see `onTrampoline`).
    @inline(__always)
    private func subscribeOn<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        onTrampoline ? Trampoline.run { subscribeUninspected(observer) } : subscribeUninspected(observer)
    }

    @inline(__always)

    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let (outcome, reconcile) = state.withLock { state -> (SubscribeOutcome<Element>, Bool) in
            if let stop = state.stopEvent {
                return (.rejected(stop.event(), replay: buffer.elements), false)
            }
            let outcome = SubscribeOutcome.register(observer, in: &state.observers, replay: buffer.elements)
            return (outcome, state.claimReconcile())
        }
        let subscription = outcome.complete(observer, subject: self)
        if reconcile { reconcileLoop() }
        return subscription
    }

    /// Records and delivers one element of connection `connectionId` (the per-element path).
    func onNext(_ element: Element, connectionId: UInt64) {
        var released = element  // what the buffer gives back, released after the lock
        let handlers = state.withLock { state -> ObserverList.Handlers in
            guard let connection = state.connection, connection.id == connectionId else { return [] }
            buffer.push(&released)
            return state.observers.handlers
        }
        deliverNext(element, to: handlers)
        _ = released
    }

    func on(_ event: Event<Element>, connectionId: UInt64) {
        if case .next(let element) = event {
            onNext(element, connectionId: connectionId)
            return
        }
        var dropped: ReplayBuffer<Element>?  // the elements, released after the lock
        let (handlers, reconcile) = state.withLock { state -> (ObserverList.Handlers, Bool) in
            guard let connection = state.connection, connection.id == connectionId else { return ([], false) }
            state.connection = nil
            state.retiring.append(connection.subscription)
            switch scope {
            case .forever: state.stopEvent = Termination(event)
            case .whileConnected:
                dropped = buffer  // shares the storage, so clearing `buffer` frees nothing here
                buffer.removeAll()
            }
            let handlers = state.observers.removeAll()
            return (handlers, state.claimReconcile())
        }
        _ = dropped
        if reconcile { reconcileLoop() }
        deliver(event, to: handlers)
    }

    func unsubscribe(_ key: UInt64) {
        let reconcile = state.withLock { state -> Bool in
            state.observers.remove(key)
            return state.claimReconcile()
        }
        if reconcile { reconcileLoop() }
    }

    /// Brings the connection in line with the state until nothing is left to do (call holding
    /// the reconciling role; gives it up at the end).
    private func reconcileLoop() {
        while true {
            var dropped: ReplayBuffer<Element>?  // the elements, released after the lock
            let step = state.withLock { state -> ShareStep in
                if !state.retiring.isEmpty {
                    defer { state.retiring.removeAll() }
                    return .dispose(state.retiring)
                }
                if let connection = state.connection, state.observers.isEmpty {
                    state.connection = nil
                    if scope == .whileConnected {
                        dropped = buffer
                        buffer.removeAll()
                    }
                    return .dispose([connection.subscription])
                }
                if state.connection == nil && !state.observers.isEmpty && state.stopEvent == nil {
                    let connection = ShareConnection(id: state.nextConnectionId, subscription: SingleAssignmentDisposable())
                    state.nextConnectionId &+= 1
                    state.connection = connection
                    return .connect(connection)
                }
                state.isReconciling = false
                return .done
            }
            _ = dropped
            switch step {
            case .dispose(let subscriptions):
                #if DEBUG
                ShareTestHooks.beforeDisconnect?()
                #endif
                for subscription in subscriptions { subscription.dispose() }
            case .connect(let connection):
                let observer = ShareConnectionObserver(parent: self, connectionId: connection.id)
                connection.subscription.setDisposable(source.subscribe(observer))
            case .done:
                return
            }
        }
    }
}

#if DEBUG
/// Test hooks (DEBUG builds only) that let tests drive sharing races deterministically.
package enum ShareTestHooks {
    // Safety: set by a test before the events it drives start and cleared after they ended;
    // only read while those events flow, so no write races with a read.
    /// Called by the reconciling thread of ``ObservableType/share(replay:scope:)`` and `refCount()` just before
    /// it disposes a connection.
    nonisolated(unsafe) package static var beforeDisconnect: (() -> Void)?
}
#endif

/// Feeds one connection's source events into the shared sequence.
private struct ShareConnectionObserver<Element>: ObserverType {
    let parent: ShareObservable<Element>
    let connectionId: UInt64

    func on(_ event: Event<Element>) {
        parent.on(event, connectionId: connectionId)
    }

    func onNext(_ element: Element) {
        parent.onNext(element, connectionId: connectionId)
    }
}
