import Foundation

/// One realtime connection of `RemoteConfig.configUpdates` (shared by all its subscribers):
/// listens to the backend's invalidations, fetches newer templates, emits the changed keys,
/// and reconnects when the connection drops.
///
/// Every decision is taken under `state`'s lock; the backend, the client, the scheduler and the
/// observer are called after it. Events go to the observer from scheduler actions only, in the
/// order they were decided.
final class RemoteConfigRealtimeSession: Disposable, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; the disposables are
    // thread-safe; `client` is assigned once in `init` and only read afterwards.
    private struct State {
        var isDisposed = false
        var isTerminated = false
        var connectionID: UInt64 = 0
        var reconnection = ReconnectBackoff(policy: RemoteConfigBackoff.realtimeReconnection)
        var retryIntervalHint: TimeInterval?
        /// The newest template version announced and not yet reached.
        var target: Int?
        var isFetching = false
        var fetchAttempts = 0
    }

    private weak var client: RemoteConfig?
    private let observer: AnyObserver<RemoteConfigUpdate>
    private let backend: RemoteConfigBackend
    private let scheduler: SchedulerType
    private let randomSource: @Sendable () -> Double
    private let state = LockedState(State())
    private let connection = SerialDisposable()
    private let reconnectTimer = SerialDisposable()
    private let fetchTimer = SerialDisposable()
    private let deliveries = CompositeDisposable()

    init(client: RemoteConfig, observer: AnyObserver<RemoteConfigUpdate>) {
        self.client = client
        self.observer = observer
        backend = client.backend
        scheduler = client.scheduler
        randomSource = client.randomSource
    }

    func start() { connect() }

    func dispose() {
        let first = state.withLock { state -> Bool in
            defer { state.isDisposed = true }
            return !state.isDisposed
        }
        guard first else { return }
        connection.dispose()
        reconnectTimer.dispose()
        fetchTimer.dispose()
        deliveries.dispose()
    }

    // MARK: Connection

    private func connect() {
        guard let client else { return }
        let lastKnown = client.fetchedTemplateVersion
        let id = state.withLock { state -> UInt64? in
            guard !state.isDisposed, !state.isTerminated else { return nil }
            state.connectionID += 1
            return state.connectionID
        }
        guard let id else { return }
        // Installed before subscribing, so that a connection that drops at once and reconnects
        // on another thread is never replaced by this (older) one.
        let subscription = SingleAssignmentDisposable()
        connection.disposable = subscription
        subscription.setDisposable(
            backend.realtimeInvalidations(lastKnownTemplateVersion: lastKnown).subscribe(
                onNext: { [self] invalidation in received(invalidation, connection: id) },
                onError: { [self] error in dropped(connection: id, error: error) },
                onCompleted: { [self] in dropped(connection: id, error: nil) }
            ))
    }

    private func received(_ invalidation: RemoteConfigInvalidation, connection id: UInt64) {
        if invalidation.featureDisabled {
            terminate(with: .unavailable, ifConnection: id)
            return
        }
        if invalidation.latestTemplateVersion < 0 {
            terminate(with: .messageInvalid("negative template version \(invalidation.latestTemplateVersion)"), ifConnection: id)
            return
        }
        let fetchedVersion = client?.fetchedTemplateVersion
        let shouldFetch = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.isTerminated, state.connectionID == id else { return false }
            state.reconnection.reset()
            if let retry = invalidation.retryInterval { state.retryIntervalHint = retry }
            let known = max(fetchedVersion ?? Int.min, state.target ?? Int.min)
            guard invalidation.latestTemplateVersion > known else { return false }
            state.target = invalidation.latestTemplateVersion
            state.fetchAttempts = 0
            if state.isFetching { return false }
            state.isFetching = true
            return true
        }
        if shouldFetch { attemptFetch() }
    }

    private enum DropDecision {
        case ignore
        case reconnect(after: TimeInterval)
        case fail(RemoteConfigUpdateError)
    }

    private func dropped(connection id: UInt64, error: Error?) {
        if let error, let failure = Self.terminalError(for: error) {
            terminate(with: failure, ifConnection: id)
            return
        }
        let random = randomSource()
        let decision = state.withLock { state -> DropDecision in
            guard !state.isDisposed, !state.isTerminated, state.connectionID == id else { return .ignore }
            defer { state.retryIntervalHint = nil }
            // A completion ends a connection that was established (Firebase resets its retry
            // budget on HTTP 200): only (retryable) errors count as consecutive failures.
            if error == nil { state.reconnection.reset() }
            guard let delay = state.reconnection.nextDelay(random: random, minimum: state.retryIntervalHint) else {
                state.isTerminated = true
                return .fail(.streamError(error.map { "\($0)" } ?? "the realtime connection closed"))
            }
            return .reconnect(after: delay)
        }
        switch decision {
        case .ignore:
            return
        case .reconnect(let delay):
            // Weak: a cancelled dispatch timer may keep its closure a little longer.
            reconnectTimer.disposable = scheduler.scheduleRelative((), dueTime: RemoteConfig.interval(delay)) { [weak self] _ in
                self?.connect()
                return Disposables.create()
            }
        case .fail(let error):
            tearDown()
            deliver(.error(error))
        }
    }

    /// The error that ends `configUpdates` at once for a failed connection, or `nil` when the
    /// failure is retried with the reconnection backoff.
    ///
    /// As Firebase's Android SDK (`ConfigRealtimeHttpClient`): HTTP 408, 429, 502, 503, 504 and
    /// network failures are retried; 403 (the Realtime API is disabled for the project, Google's
    /// message says where to enable it) and every other status fail at once. Errors that are
    /// not ``RemoteConfigBackendError``s count as network failures. A misconfigured backend
    /// (endpoints that mix this machine with remote hosts) fails at once, as a stream error.
    private static func terminalError(for error: Error) -> RemoteConfigUpdateError? {
        guard let error = error as? RemoteConfigBackendError else { return nil }
        switch error {
        case .rateLimited, .network, .http(statusCode: 408, _):
            return nil
        case .unavailable(let status):
            return [502, 503, 504].contains(status) ? nil : .httpError(statusCode: status, message: "service unavailable")
        case .http(statusCode: 403, let message):
            return .realtimeDisabled(message: message)
        case .http(let status, let message):
            return .httpError(statusCode: status, message: message)
        case .invalidResponse(let message):
            return .messageInvalid(message)
        case .jsonTooDeep(let limit):
            return .messageInvalid("JSON nested deeper than \(limit) levels")
        case .messageTooLarge(let limit):
            return .messageInvalid("message larger than \(limit) bytes")
        case .misconfigured:
            return .streamError(error.description)
        }
    }

    // MARK: Fetching

    private func attemptFetch() {
        guard let client else { return }
        let attempt = state.withLock { state -> Int? in
            guard !state.isDisposed, !state.isTerminated else { return nil }
            state.fetchAttempts += 1
            return state.fetchAttempts
        }
        guard let attempt else { return }
        client.performFetch(expiration: nil, fetchType: .realtime(attempt: attempt)) { [self] outcome in
            fetchFinished(outcome)
        }
    }

    private enum FetchDecision {
        case ignore
        case emit
        case retry(after: TimeInterval)
        case fail
    }

    private func fetchFinished(_ outcome: RemoteConfig.FetchOutcome) {
        guard let client else { return }
        let fetchedVersion = client.fetchedTemplateVersion
        let random = randomSource()
        let decision = state.withLock { state -> FetchDecision in
            guard !state.isDisposed, !state.isTerminated else { return .ignore }
            let succeeded: Bool
            if case .success = outcome { succeeded = true } else { succeeded = false }
            let reached = succeeded && (fetchedVersion == nil || state.target == nil || fetchedVersion! >= state.target!)
            if reached {
                state.isFetching = false
                state.target = nil
                return .emit
            }
            let retry = RemoteConfigBackoff.realtimeFetchRetry
            if retry.allowsAttempt(state.fetchAttempts + 1) {
                return .retry(after: retry.delay(forAttempt: state.fetchAttempts, random: random))
            }
            state.isFetching = false
            state.isTerminated = true
            return .fail
        }
        switch decision {
        case .ignore:
            return
        case .emit:
            let keys = client.pendingUpdatedKeys()
            if !keys.isEmpty { deliver(.next(RemoteConfigUpdate(updatedKeys: keys))) }
        case .retry(let delay):
            fetchTimer.disposable = scheduler.scheduleRelative((), dueTime: RemoteConfig.interval(delay)) { [weak self] _ in
                self?.attemptFetch()
                return Disposables.create()
            }
        case .fail:
            tearDown()
            deliver(.error(RemoteConfigUpdateError.notFetched))
        }
    }

    // MARK: Termination and delivery

    private func terminate(with error: RemoteConfigUpdateError, ifConnection id: UInt64) {
        let first = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.isTerminated, state.connectionID == id else { return false }
            state.isTerminated = true
            return true
        }
        guard first else { return }
        tearDown()
        deliver(.error(error))
    }

    /// Stops the connection and timers after a terminal decision (deliveries still run).
    private func tearDown() {
        connection.dispose()
        reconnectTimer.dispose()
        fetchTimer.dispose()
    }

    /// Sends `event` to the observer from a scheduler action, in decision order.
    private func deliver(_ event: Event<RemoteConfigUpdate>) {
        let work = SingleAssignmentDisposable()
        guard let key = deliveries.insert(work) else { return }
        let observer = self.observer
        let deliveries = self.deliveries
        work.setDisposable(
            scheduler.schedule(()) { _ in
                deliveries.remove(for: key)
                observer.on(event)
                return Disposables.create()
            })
    }
}
