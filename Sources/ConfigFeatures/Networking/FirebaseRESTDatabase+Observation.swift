import Foundation

/// One `FirebaseRESTDatabase.observeValue(at:)` subscription: opens the stream, keeps the
/// location's tree, emits changes, reconnects after drops and refreshes revoked credentials.
///
/// With `FirebaseRESTAuth.user`, every connection (the first and each reconnection) first asks
/// the ``FirebaseAuth`` for the current ID token; `auth_revoked` and an HTTP 401 answer to a
/// token believed fresh reconnect with a forced refresh (not a 401 "Permission denied", the
/// Security Rules' refusal, which fails the observation at once); and while the observation is open it
/// follows `authState`: another user (or none) reconnects at once with the new credential (a
/// pinned observation, `RESTUserPin`, does not follow: it is made as its user only).
///
/// Every decision is taken under `state`'s lock (events of a superseded connection are
/// recognised by their connection number and ignored); the transport, the refresher, the
/// scheduler and the observer are called after it. Values and the terminal error go through
/// an outbox that one scheduled drain action at a time empties, so the observer receives them
/// one at a time, in the order they were decided.
final class RESTObservation: Disposable, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; the disposables are
    // thread-safe; the other properties are immutable.
    private enum Phase {
        /// Connecting: getting the credential, or waiting for the response.
        case connecting
        /// HTTP 200: reading events.
        case streaming
        /// An error status: collecting its body for the message.
        case failing(WireResponse)
        /// Between connections (waiting to reconnect or for a fresh credential).
        case idle
    }

    private struct State {
        var isDisposed = false
        var isTerminated = false
        var connection: UInt64 = 0
        var phase = Phase.idle
        var parser: ServerSentEventParser
        var tree: RealtimeDatabaseStreamTree
        var backoff: ReconnectBackoff
        var outbox = FIFOQueue<Event<JSONValue>>()
        var isDrainScheduled = false
        /// The signed-in user when the current connection asked for its credential.
        var uid: String?
        /// Whether the current connection sends a ``FirebaseAuth`` user's ID token.
        var sendsUserToken = false
        /// Whether an HTTP 401 already earned a forced refresh since the last snapshot.
        var retriedUnauthorized = false
        /// Whether connections force a token refresh until one succeeds (after `auth_revoked`
        /// or a 401, a refresh that failed for the network is forced again on the next try).
        var forcesRefresh = false
        /// Whether the current connection is waiting for its credential: a user change then
        /// waits for its outcome (another user's token is refused as `RESTUserChanged`, and a
        /// refresh that failed, e.g. `.sessionExpired` signing the user out, ends the
        /// observation with its error).
        var awaitsCredential = false
    }

    /// What to do after an event was taken into account.
    private enum Action {
        case none
        case reconnect(after: TimeInterval)
        /// Reconnect now, with a refreshed ID token when `forcingRefresh`.
        case reconnectNow(forcingRefresh: Bool)
        case refreshCredential(reason: String?)
        case fail
    }

    /// The most of an error body kept for the message.
    private static let errorBodyLimit = 64 * 1024

    private let core: FirebaseRESTDatabase.Core
    private let path: RealtimeDatabasePath
    /// The query sent with the stream request (its selection is re-applied on the client).
    private let query: ResolvedRealtimeDatabaseQuery?
    /// The user every connection must be made as, if pinned.
    private let pin: RESTUserPin?
    private let observer: AnyObserver<JSONValue>
    private let state: LockedState<State>
    private let stream = SerialDisposable()
    private let reconnectTimer = SerialDisposable()
    private let refresh = SerialDisposable()
    private let deliveries = CompositeDisposable()
    /// The `authState` subscription (with an unpinned `.user` credential).
    private let userChanges = SingleAssignmentDisposable()

    init(
        core: FirebaseRESTDatabase.Core, path: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery? = nil, pin: RESTUserPin? = nil,
        observer: AnyObserver<JSONValue>
    ) {
        self.core = core
        self.path = path
        self.query = query
        self.pin = pin
        self.observer = observer
        state = LockedState(
            State(
                parser: ServerSentEventParser(maximumEventSize: core.maximumEventSize),
                tree: RealtimeDatabaseStreamTree(location: path, limits: core.limits),
                backoff: ReconnectBackoff(policy: core.reconnectBackoff)
            ))
        core.observationStarted()
    }

    func start() {
        connect()
        if pin == nil, let auth = core.userAuth {
            // After connecting: `authState`'s first element (the current user) is the user the
            // connection asked a token for, and changes nothing. Weak: the client keeps the
            // subscription until it is disposed.
            userChanges.setDisposable(auth.authState.subscribe(onNext: { [weak self] user in self?.userChanged(to: user?.uid) }))
        }
    }

    func dispose() {
        let first = state.withLock { state -> Bool in
            defer {
                state.isDisposed = true
                state.outbox.removeAll()
            }
            return !state.isDisposed
        }
        guard first else { return }
        tearDown()
        deliveries.dispose()
        core.observationEnded()
    }

    // MARK: - Connection

    /// Opens a connection: gets the credential (a refreshed ID token when `forcingRefresh`),
    /// then the stream.
    private func connect(forcingRefresh: Bool = false) {
        let core = self.core
        let uid = core.userAuth?.currentUser?.uid
        let maximumEventSize = core.maximumEventSize
        let connection = state.withLock { state -> (id: UInt64, forcingRefresh: Bool)? in
            guard !state.isDisposed, !state.isTerminated else { return nil }
            state.connection += 1
            state.phase = .connecting
            state.parser = ServerSentEventParser(maximumEventSize: maximumEventSize)
            state.uid = uid
            state.sendsUserToken = false
            state.forcesRefresh = state.forcesRefresh || forcingRefresh
            state.awaitsCredential = true
            return (state.connection, state.forcesRefresh)
        }
        guard let (id, forcingRefresh) = connection else { return }
        // Installed before subscribing: whichever of this connection and a later one installs
        // last, the later one is kept (an early drop may reconnect on another thread).
        let subscription = SingleAssignmentDisposable()
        stream.disposable = subscription
        let (path, query) = (self.path, self.query)
        subscription.setDisposable(
            core.credential(pin: pin ?? core.userAuth.map { _ in RESTUserPin(uid: uid) }, forcingRefresh: forcingRefresh)
                .catch { error in .error(RESTCredentialFailure(underlying: error)) }
                .flatMap { [self] credential -> Observable<HTTPStreamPart> in
                    state.withLock { state in
                        guard state.connection == id else { return }
                        state.awaitsCredential = false
                        state.sendsUserToken = credential.isUserToken
                        state.forcesRefresh = false
                    }
                    return core.transport.stream(core.wire(credential).streamRequest(at: path, query: query))
                }
                .subscribe { [self] event in
                    handle(event, connection: id)
                })
    }

    /// `authState` emitted: another user than the current connection's (or none) reconnects
    /// at once, with the new credential; the new connection's snapshot replaces the tree.
    private func userChanged(to uid: String?) {
        let reconnect = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.isTerminated, !state.awaitsCredential, state.uid != uid else { return false }
            state.connection += 1  // ignore the rest of the current connection
            state.phase = .idle
            state.backoff.reset()
            state.retriedUnauthorized = false
            return true
        }
        guard reconnect else { return }
        perform(.reconnectNow(forcingRefresh: false))
    }

    private func handle(_ event: Event<HTTPStreamPart>, connection id: UInt64) {
        let random = core.randomSource()
        let action = state.withLock { state -> Action in
            guard !state.isDisposed, !state.isTerminated, state.connection == id else { return .none }
            return Self.decide(event, random: random, path: path, limits: core.limits, isPinned: pin != nil, state: &state)
        }
        perform(action)
    }

    /// Applies `event` of the current connection to `state`; what to do next.
    private static func decide(
        _ event: Event<HTTPStreamPart>, random: Double, path: RealtimeDatabasePath, limits: RealtimeDatabaseLimits, isPinned: Bool, state: inout State
    ) -> Action {
        switch (state.phase, event) {
        case (.connecting, .next(.response(let status, let headers))):
            state.phase = status == 200 ? .streaming : .failing(WireResponse(statusCode: status, headers: headers))
            return .none
        case (.streaming, .next(.data(let data))):
            let action = read(state.parser.feed(data), path: path, limits: limits, state: &state)
            if case .none = action, let failure = state.parser.failure {
                // An event past the parser's cap: the same data would come again after a
                // reconnection, so the observation ends with the typed error.
                return fail(failure, state: &state)
            }
            return action
        case (.failing(var response), .next(.data(let data))):
            if response.body.count < errorBodyLimit { response.body.append(data.prefix(errorBodyLimit - response.body.count)) }
            state.phase = .failing(response)
            return .none
        case (.failing(let response), .completed), (.failing(let response), .error):
            if RealtimeDatabaseRESTWire.isStaleTokenRefusal(response), state.sendsUserToken, !state.retriedUnauthorized {
                // The token was believed fresh and the rules did not deny: refresh it once and
                // try again. ("Permission denied" ends the observation at once below.)
                state.retriedUnauthorized = true
                state.phase = .idle
                state.connection += 1
                return .reconnectNow(forcingRefresh: true)
            }
            let error =
                RealtimeDatabaseRESTWire.error(for: response)
                ?? .invalidResponse(message: "the stream answered HTTP \(response.statusCode)")
            return dropped(error, random: random, state: &state)
        case (.streaming, .completed):
            return dropped(.network(message: "the server closed the stream"), random: random, state: &state)
        case (.connecting, .completed):
            return dropped(.network(message: "the connection closed without a response"), random: random, state: &state)
        case (_, .error(let failure as RESTCredentialFailure)):
            state.awaitsCredential = false
            if failure.underlying is RESTUserChanged, !isPinned {
                // The user changed while the token was on its way: connect as the new one.
                state.phase = .idle
                state.connection += 1
                return .reconnectNow(forcingRefresh: false)
            }
            // No credential: a transient failure (the refresh's network, a pinned user signed
            // out) retries like a drop; any other ends the observation with the client's error.
            return dropped(failure.underlying, isRetryable: failure.isTransient, random: random, state: &state)
        case (_, .error(let error)):
            let wireError = FirebaseRESTDatabase.Core.wireError(error)
            return dropped(wireError as? FirebaseRESTDatabaseError ?? .network(message: "\(error)"), random: random, state: &state)
        case (.connecting, .next(.data)):
            return fail(FirebaseRESTDatabaseError.invalidResponse(message: "stream data before the response"), state: &state)
        case (_, .next(.response)):
            return fail(FirebaseRESTDatabaseError.invalidResponse(message: "a second response on one stream"), state: &state)
        case (.idle, _):
            return .none
        }
    }

    /// Applies the stream events of one chunk.
    ///
    /// Data past the limits fails the observation with the ``RealtimeDatabaseError``
    /// (`.pathTooDeep`, `.keyTooLong`) a local write would get.
    private static func read(_ events: [ServerSentEvent], path: RealtimeDatabasePath, limits: RealtimeDatabaseLimits, state: inout State) -> Action {
        for event in events {
            let decoded: RealtimeDatabaseStreamEvent?
            do {
                decoded = try RealtimeDatabaseStreamEvent.decode(event, limits: limits, depthAbove: path.depth)
            } catch {
                return fail(error, state: &state)
            }
            switch decoded {
            case nil, .keepAlive?:
                continue
            case .put(let at, _)?, .patch(let at, _)?:
                let changed: Bool
                do {
                    changed = try state.tree.apply(decoded!)
                } catch {
                    return fail(error, state: &state)
                }
                if at.isRoot, case .put = decoded! {
                    // A full snapshot: the connection works, the backoff starts over.
                    state.backoff.reset()
                    state.retriedUnauthorized = false
                }
                if changed { state.outbox.append(.next(state.tree.value)) }
            case .cancel(let reason)?:
                return fail(FirebaseRESTDatabaseError.permissionDenied(message: reason ?? "the security rules no longer allow reading \(path)"), state: &state)
            case .authRevoked(let reason)?:
                state.phase = .idle
                state.connection += 1  // ignore the rest of this connection
                return .refreshCredential(reason: reason)
            }
        }
        return .none
    }

    /// A dropped connection: reconnect after the backoff when the error allows it.
    private static func dropped(_ error: FirebaseRESTDatabaseError, random: Double, state: inout State) -> Action {
        dropped(error, isRetryable: error.isRetryable, random: random, state: &state)
    }

    /// A connection that failed with `error`: reconnect after the backoff if `isRetryable`.
    private static func dropped(_ error: Error, isRetryable: Bool, random: Double, state: inout State) -> Action {
        guard isRetryable, let delay = state.backoff.nextDelay(random: random) else {
            return fail(error, state: &state)
        }
        state.phase = .idle
        state.connection += 1
        return .reconnect(after: delay)
    }

    /// Ends the observation with `error` (delivered after the values already decided).
    private static func fail(_ error: Error, state: inout State) -> Action {
        state.isTerminated = true
        state.phase = .idle
        state.outbox.append(.error(error))
        return .fail
    }

    // MARK: - Acting

    private func perform(_ action: Action) {
        switch action {
        case .none:
            break
        case .reconnect(let delay):
            stream.disposable = Disposables.create()
            let timer = SingleAssignmentDisposable()
            reconnectTimer.disposable = timer
            // Weak: a cancelled dispatch timer may keep its closure a little longer.
            timer.setDisposable(
                core.scheduler.scheduleRelative((), dueTime: RemoteConfig.interval(delay)) { [weak self] _ in
                    self?.connect()
                    return Disposables.create()
                })
        case .reconnectNow(let forcingRefresh):
            stream.disposable = Disposables.create()
            reconnectTimer.disposable = Disposables.create()
            connect(forcingRefresh: forcingRefresh)
        case .refreshCredential(let reason):
            stream.disposable = Disposables.create()
            if core.userAuth != nil {
                // The client refreshes the ID token; the new connection asks for it.
                connect(forcingRefresh: true)
            } else {
                refreshCredential(reason: reason)
            }
        case .fail:
            tearDown()
        }
        scheduleDrain()
    }

    /// Asks the refresher for a new credential, then reconnects with it; without a refresher
    /// (or when it fails) the observation fails.
    private func refreshCredential(reason: String?) {
        guard let refresher = core.tokenRefresher else {
            failLater(FirebaseRESTDatabaseError.authRevoked(message: reason ?? "the credential is no longer valid"))
            return
        }
        let received = LockedState(false)
        refresh.disposable = refresher().take(1).subscribe(
            onNext: { [self] auth in
                received.withLock { $0 = true }
                core.auth = auth
                connect()
            },
            onError: { [self] error in failLater(error) },
            onCompleted: { [self] in
                if !received.withLock({ $0 }) {
                    failLater(FirebaseRESTDatabaseError.authRevoked(message: "the token refresher returned no credential"))
                }
            }
        )
    }

    /// Fails the observation from outside a decision (refresh outcomes).
    private func failLater(_ error: Error) {
        let failed = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.isTerminated else { return false }
            _ = Self.fail(error, state: &state)
            return true
        }
        if failed { perform(.fail) }
    }

    private func tearDown() {
        userChanges.dispose()
        stream.dispose()
        reconnectTimer.dispose()
        refresh.dispose()
    }

    // MARK: - Delivery

    /// Schedules the drain action unless one is pending or the outbox is empty.
    private func scheduleDrain() {
        let needed = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.outbox.isEmpty, !state.isDrainScheduled else { return false }
            state.isDrainScheduled = true
            return true
        }
        guard needed else { return }
        let work = SingleAssignmentDisposable()
        guard let key = deliveries.insert(work) else { return }
        let deliveries = self.deliveries
        work.setDisposable(
            core.scheduler.schedule(()) { [weak self] _ in
                deliveries.remove(for: key)
                self?.deliverOutbox()
                return Disposables.create()
            })
    }

    /// On the scheduler: delivers the outbox in order, including what is added meanwhile.
    private func deliverOutbox() {
        while true {
            let next = state.withLock { state -> Event<JSONValue>? in
                guard !state.isDisposed, let next = state.outbox.popFirst() else {
                    state.isDrainScheduled = false
                    return nil
                }
                return next
            }
            guard let next else { return }
            observer.on(next)
        }
    }
}
