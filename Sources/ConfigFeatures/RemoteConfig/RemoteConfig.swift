import Foundation

/// A Remote Config client with Firebase's semantics, exposed as Streams observables.
///
/// Values come from the **active** config (fetched, then activated), then the in-app
/// **defaults**, then a **static** empty value. `fetch` downloads the template into the fetched
/// config, `activate` makes it active, `configUpdates` announces realtime changes.
///
///     let remoteConfig = RemoteConfig(backend: backend, scheduler: MainScheduler.instance)
///     remoteConfig.setDefaults(["tabTitles": "make", "maxItems": 20])
///     remoteConfig.fetchAndActivate()
///         .subscribe(onNext: { _ in render(remoteConfig["tabTitles"].stringValue) })
///
/// - Fetches are **cold**: nothing happens until the observable is subscribed. A fetch within
///   the expiration duration (by default `minimumFetchInterval`) of the last successful fetch is
///   served from it without calling the backend; concurrent fetches share one backend call; a
///   fetch that has started runs to completion (bounded by `fetchTimeout`) even if its
///   subscribers leave, so its result still lands in the fetched config.
/// - Server throttling signals (rate limit, unavailable) start an exponential backoff; during
///   it fetches fail fast with `RemoteConfigError.throttled(until:)`.
/// - Everything is persisted in `storage` (see ``RemoteConfigStorage``); a new client over the
///   same storage starts with the last activated config and keeps the throttling state.
///
/// - Note: Thread-safe. Results are delivered on `scheduler` (on `TestScheduler`, one tick after
///   the backend answers, or after subscription for results that need no backend call).
///   Use a serial scheduler. See <doc:RemoteConfigGuide>.
public final class RemoteConfig: @unchecked Sendable {
    // Safety: all mutable state is in `state`, one `LockedState`. The other stored properties
    // are immutable after `init` (`updatesOwner.client` is assigned once, inside `init`, before
    // `self` is published). Observers, the backend, the storage, the scheduler and the random
    // source are only called outside the lock.

    /// What a finished fetch reports to its waiters.
    enum FetchSource: Sendable { case backend, cache }
    typealias FetchOutcome = Result<FetchSource, RemoteConfigError>
    typealias FetchWaiter = (FetchOutcome) -> Void

    struct InFlight {
        let id: UInt64
        var waiters: [FetchWaiter]
        let backendSubscription = SingleAssignmentDisposable()
        let timeout = SingleAssignmentDisposable()
    }

    struct State {
        var settings: RemoteConfigSettings
        var defaults: [String: RemoteConfigValue] = [:]
        var snapshot: RemoteConfigSnapshot
        var customSignals: [String: String] = [:]
        var targeting = RemoteConfigTargeting()
        var inFlight: InFlight?
        var nextFetchID: UInt64 = 0
        var lastStorageError: RemoteConfigError?
        var isSaving = false
        var saveRequested = false
    }

    /// A failed backend call, split by whether it starts the backoff.
    enum BackendFailure: Error {
        case throttling(RemoteConfigBackendError)
        case other(RemoteConfigError)
    }

    let backend: RemoteConfigBackend
    let storage: RemoteConfigStorage
    let scheduler: SchedulerType
    let randomSource: @Sendable () -> Double
    private let state: LockedState<State>
    private let storageErrorSubject = PublishSubject<RemoteConfigError>()
    private let updatesOwner = WeakRemoteConfig()
    private let sharedUpdates: Observable<RemoteConfigUpdate>

    /// Creates a client, loading the persisted snapshot from `storage`.
    ///
    /// - Parameters:
    ///   - backend: The server (``InMemoryRemoteConfigBackend`` in tests and examples).
    ///   - settings: Minimum fetch interval and fetch timeout (12 h, 60 s by default).
    ///   - storage: Where the snapshot is persisted (in memory by default).
    ///   - scheduler: Drives all time (now, timeouts, backoff) and delivers every result.
    ///   - randomSource: Returns a number in `[0, 1)` for the backoff jitter
    ///     (`interval × (0.5 + r)`); inject a constant for deterministic tests.
    public init(
        backend: RemoteConfigBackend,
        settings: RemoteConfigSettings = RemoteConfigSettings(),
        storage: RemoteConfigStorage = InMemoryRemoteConfigStorage(),
        scheduler: SchedulerType,
        randomSource: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.backend = backend
        self.storage = storage
        self.scheduler = scheduler
        self.randomSource = randomSource
        var loaded = RemoteConfigSnapshot()
        var loadError: RemoteConfigError?
        do {
            if let snapshot = try storage.load() { loaded = snapshot }
        } catch {
            loadError = Self.storageError(error)
        }
        var initial = State(settings: settings, snapshot: loaded)
        initial.lastStorageError = loadError
        state = LockedState(initial)
        let owner = updatesOwner
        sharedUpdates = Observable<RemoteConfigUpdate>.create { observer in
            guard let client = owner.client else {
                observer.onCompleted()
                return Disposables.create()
            }
            let session = RemoteConfigRealtimeSession(client: client, observer: observer)
            session.start()
            return session
        }
        .share()
        updatesOwner.client = self
    }

    // MARK: - Settings

    /// The fetch settings. The client reads them at every fetch; assigning replaces them.
    public var configSettings: RemoteConfigSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Custom signals sent with every fetch request (Firebase's `custom_signals`).
    public var customSignals: [String: String] {
        get { state.withLock { $0.customSignals } }
        set { state.withLock { $0.customSignals = newValue } }
    }

    /// What every fetch request says about this app instance for the template's conditions
    /// (app ID, installation ID, app info, user properties, first-open time); empty by default.
    public var targeting: RemoteConfigTargeting {
        get { state.withLock { $0.targeting } }
        set { state.withLock { $0.targeting = newValue } }
    }

    // MARK: - Defaults

    /// Replaces the in-app defaults.
    ///
    /// Each value is stored as text, as Firebase does: a string as itself, a number without a
    /// trailing `.0` when integral (`3`, `2.5`), a bool as `true`/`false`, `null`, arrays and
    /// objects as JSON text.
    public func setDefaults(_ defaults: [String: JSONValue]) {
        setDefaultValues(defaults.mapValues { RemoteConfigValue(string: RemoteConfigText.text(of: $0), source: .default) })
    }

    /// Replaces the in-app defaults with strings.
    @_disfavoredOverload
    public func setDefaults(_ defaults: [String: String]) {
        setDefaultValues(defaults.mapValues { RemoteConfigValue(string: $0, source: .default) })
    }

    /// Replaces the in-app defaults with raw bytes (read back through `dataValue`).
    @_disfavoredOverload
    public func setDefaults(_ defaults: [String: Data]) {
        setDefaultValues(defaults.mapValues { RemoteConfigValue(data: $0, source: .default) })
    }

    /// Replaces the in-app defaults with the properties of an `Encodable` value
    /// (Firebase's `setDefaults(from:)`): each property becomes a key, stored as in `setDefaults(_:)`.
    ///
    /// - Throws: `RemoteConfigError.invalidDefaults` when `value` does not encode to a JSON object.
    public func setDefaults<Value: Encodable>(from value: Value) throws {
        let json: JSONValue
        do {
            json = try JSONValue(encoding: value)
        } catch {
            throw RemoteConfigError.invalidDefaults("\(error)")
        }
        guard case .object(let object) = json else {
            throw RemoteConfigError.invalidDefaults("\(Value.self) does not encode to a JSON object")
        }
        setDefaults(object)
    }

    private func setDefaultValues(_ values: [String: RemoteConfigValue]) {
        state.withLock { $0.defaults = values }
    }

    /// The default value of `key`, if one is set.
    public func defaultValue(forKey key: String) -> RemoteConfigValue? {
        state.withLock { $0.defaults[key] }
    }

    // MARK: - Values

    /// The value of `key`: active (`.remote`), else default (`.default`), else empty (`.static`).
    public func configValue(forKey key: String) -> RemoteConfigValue {
        state.withLock { state in
            if let text = state.snapshot.active[key] { return RemoteConfigValue(string: text, source: .remote) }
            return state.defaults[key] ?? .staticValue
        }
    }

    /// The value of `key` from one source only (`.static` when that source lacks it).
    public func configValue(forKey key: String, source: RemoteConfigSource) -> RemoteConfigValue {
        state.withLock { state in
            switch source {
            case .remote:
                return state.snapshot.active[key].map { RemoteConfigValue(string: $0, source: .remote) } ?? .staticValue
            case .default:
                return state.defaults[key] ?? .staticValue
            case .static:
                return .staticValue
            }
        }
    }

    /// `configValue(forKey:)`.
    public subscript(key: String) -> RemoteConfigValue {
        configValue(forKey: key)
    }

    /// The keys of one source, sorted (`.static` has none).
    public func allKeys(from source: RemoteConfigSource) -> [String] {
        state.withLock { state in
            switch source {
            case .remote: return state.snapshot.active.keys.sorted()
            case .default: return state.defaults.keys.sorted()
            case .static: return []
            }
        }
    }

    /// The active keys that start with `prefix` (all active keys for `nil` or `""`), as Firebase.
    public func keys(withPrefix prefix: String?) -> Set<String> {
        state.withLock { state in
            let keys = state.snapshot.active.keys
            guard let prefix, !prefix.isEmpty else { return Set(keys) }
            return Set(keys.filter { $0.hasPrefix(prefix) })
        }
    }

    /// Decodes the whole config (active values over defaults) into `T`, as Firebase's Codable
    /// support does: each key is a property, read from its text for the property's type
    /// (see `RemoteConfigValue.decoded(asType:)`).
    ///
    ///     struct AppConfig: Decodable { let tabTitles: String; let maxItems: Int }
    ///     let config = try remoteConfig.decoded(asType: AppConfig.self)
    ///
    /// - Throws: `RemoteConfigError.decoding` naming the key and the problem.
    public func decoded<T: Decodable>(asType type: T.Type = T.self) throws -> T {
        let merged = state.withLock { state -> [String: String] in
            var merged = state.defaults.mapValues(\.stringValue)
            merged.merge(state.snapshot.active) { _, remote in remote }
            return merged
        }
        return try RemoteConfigDecoding.decode(type, from: .config(merged))
    }

    // MARK: - Status

    /// The status of the last fetch.
    public var lastFetchStatus: RemoteConfigFetchStatus { state.withLock { $0.snapshot.metadata.lastFetchStatus } }

    /// The time of the last successful fetch (`nil` before the first one).
    public var lastFetchTime: Date? { state.withLock { $0.snapshot.metadata.lastFetchTime } }

    /// Until when fetches are throttled, if a backoff is running (it may already be over).
    public var throttledUntil: Date? { state.withLock { $0.snapshot.metadata.throttleEndTime } }

    /// The template version of the fetched config.
    public var fetchedTemplateVersion: Int? { state.withLock { $0.snapshot.metadata.fetchedTemplateVersion } }

    /// The template version of the active config.
    public var activeTemplateVersion: Int? { state.withLock { $0.snapshot.metadata.activeTemplateVersion } }

    /// A copy of everything the client persists.
    public var snapshot: RemoteConfigSnapshot { state.withLock { $0.snapshot } }

    /// The last storage failure (loading in `init`, or a later save); `nil` if none.
    public var lastStorageError: RemoteConfigError? { state.withLock { $0.lastStorageError } }

    /// Storage failures of later saves, as they happen (wrapped in `RemoteConfigError.storage`).
    /// A failure to load in `init` happens before anyone can subscribe: read `lastStorageError`.
    ///
    /// - Note: Delivered on the client's scheduler.
    public var storageErrors: Observable<RemoteConfigError> { storageErrorSubject.asObservable() }

    // MARK: - Fetch and activate

    /// Fetches the config unless the last successful fetch is younger than `expirationDuration`.
    ///
    ///     fetch:   ^------(s|)        backend answers after its latency (+1 tick delivery)
    ///     cached:  ^-(s|)             last fetch still fresh: no backend call
    ///     failed:  ^------#           RemoteConfigError (.timeout, .backend, .throttled)
    ///
    /// Cold: nothing happens until subscription. Emits `.success` then completes; failures are
    /// ``RemoteConfigError`` errors, and `lastFetchStatus` becomes `.failure` or `.throttled`.
    /// An expiration of 0 always calls the backend (unless throttled); a fetch already in
    /// flight is joined instead of starting another.
    /// - Parameter expirationDuration: Seconds the last successful fetch stays fresh.
    /// - Returns: One `.success` then completion, or an error.
    /// - Note: Delivers on the client's scheduler. See <doc:RemoteConfigGuide>.
    public func fetch(withExpirationDuration expirationDuration: TimeInterval) -> Single<RemoteConfigFetchStatus> {
        makeFetch { expirationDuration }.asSingle()
    }

    /// `fetch(withExpirationDuration: configSettings.minimumFetchInterval)`, reading the
    /// interval at subscription.
    public func fetch() -> Single<RemoteConfigFetchStatus> {
        makeFetch { [self] in configSettings.minimumFetchInterval }.asSingle()
    }

    private func makeFetch(expiration: @escaping () -> TimeInterval) -> Observable<RemoteConfigFetchStatus> {
        Observable.create { [self] observer in
            let delivery = SerialDisposable()
            performFetch(expiration: expiration(), fetchType: .base) { outcome in
                delivery.disposable = self.scheduler.schedule(()) { _ in
                    switch outcome {
                    case .success:
                        observer.onNext(.success)
                        observer.onCompleted()
                    case .failure(let error):
                        observer.onError(error)
                    }
                    return Disposables.create()
                }
            }
            return delivery
        }
    }

    /// Makes the fetched config active. Emits whether the active config changed (`false` when
    /// nothing was fetched, or the fetched config is already active).
    ///
    /// Cold: the activation happens at subscription; the result is delivered on the scheduler.
    /// - Note: Delivers on the client's scheduler. See <doc:RemoteConfigGuide>.
    public func activate() -> Single<Bool> {
        Observable.create { [self] observer in
            let changed = activateNow()
            return scheduler.schedule(()) { _ in
                observer.onNext(changed)
                observer.onCompleted()
                return Disposables.create()
            }
        }.asSingle()
    }

    /// Fetches (with `minimumFetchInterval`), then activates.
    ///
    /// Emits `.successFetchedFromRemote` when the backend was called, `.successUsingPreFetchedData`
    /// when the last fetch was still fresh; either way the fetched config is activated. A failed
    /// fetch is an error (``RemoteConfigError``) and activates nothing.
    /// - Note: Delivers on the client's scheduler. See <doc:RemoteConfigGuide>.
    public func fetchAndActivate() -> Single<RemoteConfigFetchAndActivateStatus> {
        Observable.create { [self] observer in
            let delivery = SerialDisposable()
            performFetch(expiration: configSettings.minimumFetchInterval, fetchType: .base) { outcome in
                let result = outcome.map { source -> RemoteConfigFetchAndActivateStatus in
                    _ = self.activateNow()
                    return source == .backend ? .successFetchedFromRemote : .successUsingPreFetchedData
                }
                delivery.disposable = self.scheduler.schedule(()) { _ in
                    switch result {
                    case .success(let status):
                        observer.onNext(status)
                        observer.onCompleted()
                    case .failure(let error):
                        observer.onError(error)
                    }
                    return Disposables.create()
                }
            }
            return delivery
        }.asSingle()
    }

    /// Realtime updates: emits the keys whose fetched value differs from the active one each time
    /// a realtime invalidation brings a newer template that really changes something. Call
    /// `activate()` to apply them.
    ///
    ///     backend publish:   ----v2--------v3(same values)----v4--
    ///     configUpdates:     ^-------{a,b}--------------------{c}-
    ///
    /// One backend connection is shared by all subscribers; it opens with the first and closes
    /// when the last one disposes. On an invalidation newer than the fetched template, the
    /// client fetches (bypassing the minimum interval, up to 3 attempts, 1 s then 2 s apart,
    /// times the jitter) until the fetched template reaches that version. A connection that
    /// fails with HTTP 408, 429, 502, 503, 504 or a network error reconnects with exponential
    /// backoff (1 s, 2 s, … × jitter, or the server's retry interval), as Firebase's Android SDK
    /// does; a connection that ended normally (the backend completed it) starts the backoff
    /// over. Errors (``RemoteConfigUpdateError``): `.unavailable` when the server disables
    /// realtime, `.notFetched` when the attempts run out, `.streamError` after 7 failed
    /// reconnections in a row, `.realtimeDisabled(message:)` at once on HTTP 403 (the project's
    /// Realtime API is disabled; Google's message says where to enable it), `.httpError` at once
    /// on any other status, `.messageInvalid` for a malformed message.
    /// - Note: Delivers on the client's scheduler. See <doc:RemoteConfigGuide>.
    public var configUpdates: Observable<RemoteConfigUpdate> { sharedUpdates }

    // MARK: - Internals

    /// The keys whose fetched value differs from the active one (empty before any fetch).
    func pendingUpdatedKeys() -> Set<String> {
        state.withLock { state in
            guard let fetched = state.snapshot.fetched else { return [] }
            return RemoteConfigUpdate.diff(fetched, state.snapshot.active)
        }
    }

    /// Copies fetched into active; returns whether the active config changed.
    @discardableResult
    func activateNow() -> Bool {
        let now = scheduler.now
        let (changed, dirty) = state.withLock { state -> (Bool, Bool) in
            guard let fetched = state.snapshot.fetched else { return (false, false) }
            let versionChanged = state.snapshot.metadata.activeTemplateVersion != state.snapshot.metadata.fetchedTemplateVersion
            state.snapshot.metadata.activeTemplateVersion = state.snapshot.metadata.fetchedTemplateVersion
            guard fetched != state.snapshot.active else { return (false, versionChanged) }
            state.snapshot.active = fetched
            state.snapshot.metadata.lastActivationTime = now
            return (true, true)
        }
        if dirty { persist() }
        return changed
    }

    private enum FetchDecision {
        case joined
        case cached
        case throttled(until: Date, statusChanged: Bool)
        case start(id: UInt64, request: RemoteConfigFetchRequest, backendSubscription: SingleAssignmentDisposable, timeout: SingleAssignmentDisposable)
    }

    /// Runs (or joins, or serves from cache, or refuses) a fetch and reports to `completion`,
    /// outside the lock, on whatever thread finished it.
    ///
    /// - Parameter expiration: How fresh the last fetch must be to serve it; `nil` always asks
    ///   the backend (realtime fetches).
    func performFetch(expiration: TimeInterval?, fetchType: RemoteConfigFetchType, completion: @escaping FetchWaiter) {
        let now = scheduler.now
        let timeoutSeconds = configSettings.fetchTimeout
        let decision = state.withLock { state -> FetchDecision in
            if var inFlight = state.inFlight {
                inFlight.waiters.append(completion)
                state.inFlight = inFlight
                return .joined
            }
            let metadata = state.snapshot.metadata
            if let expiration, let last = metadata.lastFetchTime, now >= last, now.timeIntervalSince(last) < max(expiration, 0) {
                return .cached
            }
            if let end = metadata.throttleEndTime, now < end {
                let changed = metadata.lastFetchStatus != .throttled
                state.snapshot.metadata.lastFetchStatus = .throttled
                return .throttled(until: end, statusChanged: changed)
            }
            let id = state.nextFetchID
            state.nextFetchID += 1
            let inFlight = InFlight(id: id, waiters: [completion])
            state.inFlight = inFlight
            let request = RemoteConfigFetchRequest(
                eTag: metadata.eTag,
                lastKnownTemplateVersion: metadata.fetchedTemplateVersion,
                customSignals: state.customSignals,
                fetchType: fetchType,
                targeting: state.targeting
            )
            return .start(id: id, request: request, backendSubscription: inFlight.backendSubscription, timeout: inFlight.timeout)
        }
        switch decision {
        case .joined:
            return
        case .cached:
            completion(.success(.cache))
        case .throttled(let until, let statusChanged):
            if statusChanged { persist() }
            completion(.failure(.throttled(until: until)))
        case .start(let id, let request, let backendSubscription, let timeout):
            // The backend is asked first and the timer armed after, so on a virtual clock an
            // answer at exactly `fetchTimeout` is in time: only a call slower than the timeout
            // fails (the documented boundary). If the backend answered synchronously, the fetch
            // has finished and disposed `timeout`, which then disposes the timer at once.
            backendSubscription.setDisposable(
                backend.fetch(request).subscribe(
                    onNext: { [self] response in finishFetch(id, .success(response)) },
                    onError: { [self] error in finishFetch(id, .failure(Self.classify(error))) },
                    onCompleted: { [self] in
                        finishFetch(id, .failure(.other(.backend(.invalidResponse(message: "the fetch completed without a response")))))
                    }
                ))
            // Weak: a cancelled dispatch timer may keep its closure a little longer.
            timeout.setDisposable(
                scheduler.scheduleRelative((), dueTime: Self.interval(timeoutSeconds)) { [weak self] _ in
                    self?.finishFetch(id, .failure(.other(.timeout)))
                    return Disposables.create()
                })
        }
    }

    /// Applies the result of fetch `id` (ignored if that fetch already finished).
    private func finishFetch(_ id: UInt64, _ result: Result<RemoteConfigFetchResponse, BackendFailure>) {
        let now = scheduler.now
        var jitter = 0.5
        if case .failure(.throttling) = result { jitter = BackoffPolicy.clamp(randomSource()) }
        let finished = state.withLock { state -> (InFlight, FetchOutcome)? in
            guard let inFlight = state.inFlight, inFlight.id == id else { return nil }
            state.inFlight = nil
            switch result {
            case .success(let response):
                state.snapshot.apply(response)
                state.snapshot.metadata.lastFetchStatus = .success
                state.snapshot.metadata.lastFetchTime = now
                state.snapshot.metadata.throttleEndTime = nil
                state.snapshot.metadata.throttleAttempts = 0
                return (inFlight, .success(.backend))
            case .failure(.throttling):
                state.snapshot.metadata.throttleAttempts += 1
                let interval = RemoteConfigBackoff.fetchThrottling.delay(forAttempt: state.snapshot.metadata.throttleAttempts, random: jitter)
                let end = now.addingTimeInterval(interval)
                state.snapshot.metadata.throttleEndTime = end
                state.snapshot.metadata.lastFetchStatus = .throttled
                return (inFlight, .failure(.throttled(until: end)))
            case .failure(.other(let error)):
                state.snapshot.metadata.lastFetchStatus = .failure
                return (inFlight, .failure(error))
            }
        }
        guard let (inFlight, outcome) = finished else { return }
        inFlight.timeout.dispose()
        inFlight.backendSubscription.dispose()
        persist()
        for waiter in inFlight.waiters { waiter(outcome) }
    }

    private static func classify(_ error: Error) -> BackendFailure {
        guard let backendError = error as? RemoteConfigBackendError else {
            if let configError = error as? RemoteConfigError { return .other(configError) }
            return .other(.backend(.network(message: "\(error)")))
        }
        return backendError.isThrottlingSignal ? .throttling(backendError) : .other(.backend(backendError))
    }

    /// Seconds as a scheduler interval (negative: 0; too large or infinite: `.never`).
    static func interval(_ seconds: TimeInterval) -> RxTimeInterval {
        guard seconds.isFinite, seconds < 9.0e9 else { return .never }
        return .nanoseconds(Int((max(seconds, 0) * 1_000_000_000).rounded()))
    }

    // MARK: - Persistence

    /// Saves the current snapshot. Saves run one at a time, outside the lock; a save requested
    /// while another runs is folded into a follow-up save of the then-current state, so the
    /// last write always holds the latest state.
    private func persist() {
        let shouldRun = state.withLock { state -> Bool in
            state.saveRequested = true
            if state.isSaving { return false }
            state.isSaving = true
            return true
        }
        guard shouldRun else { return }
        while true {
            let snapshot = state.withLock { state -> RemoteConfigSnapshot? in
                guard state.saveRequested else {
                    state.isSaving = false
                    return nil
                }
                state.saveRequested = false
                return state.snapshot
            }
            guard let snapshot else { return }
            do {
                try storage.save(snapshot)
            } catch {
                let wrapped = Self.storageError(error)
                state.withLock { $0.lastStorageError = wrapped }
                let subject = storageErrorSubject
                _ = scheduler.schedule(()) { _ in
                    subject.onNext(wrapped)
                    return Disposables.create()
                }
            }
        }
    }

    private static func storageError(_ error: Error) -> RemoteConfigError {
        if let error = error as? RemoteConfigStorageError { return .storage(error) }
        if let error = error as? RemoteConfigError { return error }
        return .storage(.io("\(error)"))
    }
}

extension RemoteConfigSnapshot {
    /// Applies a successful fetch response to the fetched config (Firebase's
    /// `updateConfigContentWithResponse`).
    mutating func apply(_ response: RemoteConfigFetchResponse) {
        switch response {
        case .updated(let entries, let templateVersion, let eTag):
            fetched = entries
            metadata.fetchedTemplateVersion = templateVersion
            metadata.eTag = eTag
        case .noChange(let templateVersion, let eTag):
            if let templateVersion { metadata.fetchedTemplateVersion = templateVersion }
            if let eTag { metadata.eTag = eTag }
        case .noTemplate(let eTag):
            fetched = [:]
            metadata.fetchedTemplateVersion = nil
            metadata.eTag = eTag
        case .emptyConfig(let templateVersion, let eTag):
            fetched = [:]
            metadata.fetchedTemplateVersion = templateVersion
            metadata.eTag = eTag
        }
    }
}

/// Lets the shared `configUpdates` sequence reach its client without keeping it alive.
final class WeakRemoteConfig: @unchecked Sendable {
    // Safety: `client` is assigned once, in `RemoteConfig.init`, before the client is
    // published to other threads; afterwards it is only read (weak loads are atomic).
    weak var client: RemoteConfig?
}
