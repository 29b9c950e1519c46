/// How long the subject behind `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection to the source has its own subject (`multicast(makeSubject:).refCount()`).
    ///
    /// When the source terminates, or the last observer leaves, the subject and its replay buffer
    /// are dropped; the next observer subscribes to the source again. This is the default, and
    /// what makes `retry` and `concat` work after `share`.
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
    /// leaves. `scope` decides what survives a connection: see `SubjectLifetimeScope`.
    /// A new observer never misses or duplicates an element, even when it subscribes while the
    /// source emits on another thread.
    /// - Parameters:
    ///   - replay: The number of elements replayed to new observers (negative counts as 0).
    ///   - scope: Whether the replay buffer (and terminal event) outlive a connection.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on the source's scheduler; replayed elements are sent on the subscribing
    ///   thread before any live element. See `Guides/Sharing.md`.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        ShareObservable(source: asObservable(), replay: replay, scope: scope)
    }
}

/// `share(replay:scope:)`: observers, replay buffer and connection under one lock, so that
/// joining, leaving and the source's events are totally ordered (no lost or duplicated replay,
/// no observer joining a connection that is being torn down).
final private class ShareObservable<Element>: Observable<Element>, Unsubscribing, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock. Observers are called, the
    // source subscribed and connections disposed only outside the lock.
    struct Connection {
        let id: UInt64
        let subscription: SingleAssignmentDisposable
    }

    struct State {
        var observers = ObserverList()
        var buffer: ReplayBuffer<Element>
        /// The terminal event, kept only with `.forever`.
        var stopEvent: Event<Element>?
        var connection: Connection?
        var nextConnectionId: UInt64 = 0
    }

    private let source: Observable<Element>
    private let scope: SubjectLifetimeScope
    private let state: LockedState<State>

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.scope = scope
        state = LockedState(State(buffer: ReplayBuffer(capacity: replay)))
        Resources.increment(Self.self)
        super.init()
    }

    deinit { Resources.decrement(type(of: self)) }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let (outcome, connection) = state.withLock { state -> (SubscribeOutcome<Element>, Connection?) in
            if let stop = state.stopEvent {
                return (.rejected(stop, replay: state.buffer.elements), nil)
            }
            let outcome = SubscribeOutcome.register(observer, in: &state.observers, replay: state.buffer.elements)
            guard state.connection == nil else { return (outcome, nil) }
            let connection = Connection(id: state.nextConnectionId, subscription: SingleAssignmentDisposable())
            state.nextConnectionId &+= 1
            state.connection = connection
            return (outcome, connection)
        }
        let subscription = outcome.complete(observer, subject: self)
        if let connection {
            let observer = ShareConnectionObserver(parent: self, connectionId: connection.id)
            connection.subscription.setDisposable(source.subscribe(observer))
        }
        return subscription
    }

    func on(_ event: Event<Element>, connectionId: UInt64) {
        let (handlers, ended) = state.withLock { state -> (ObserverList.Handlers, Disposable?) in
            guard let connection = state.connection, connection.id == connectionId else { return ([], nil) }
            if case .next(let element) = event {
                state.buffer.append(element)
                return (state.observers.handlers, nil)
            }
            state.connection = nil
            switch scope {
            case .forever: state.stopEvent = event
            case .whileConnected: state.buffer.removeAll()
            }
            return (state.observers.removeAll(), connection.subscription)
        }
        ended?.dispose()
        deliver(event, to: handlers)
    }

    func unsubscribe(_ key: UInt64) {
        let ended = state.withLock { state -> Disposable? in
            let before = state.observers.handlers.count
            state.observers.remove(key)
            guard state.observers.handlers.count < before, state.observers.isEmpty, let connection = state.connection else { return nil }
            state.connection = nil
            if scope == .whileConnected { state.buffer.removeAll() }
            return connection.subscription
        }
        ended?.dispose()
    }
}

/// Feeds one connection's source events into the shared sequence.
private struct ShareConnectionObserver<Element>: ObserverType {
    let parent: ShareObservable<Element>
    let connectionId: UInt64

    func on(_ event: Event<Element>) {
        parent.on(event, connectionId: connectionId)
    }
}
