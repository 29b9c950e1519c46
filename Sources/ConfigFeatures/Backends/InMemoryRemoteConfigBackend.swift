import Foundation

/// A scriptable in-memory Remote Config server, for tests and examples.
///
/// It holds one template (values, version, ETag). `publish(_:)` makes a new version and
/// announces it to every open realtime stream; `publish(templateJSON:)` publishes Firebase's
/// template JSON with its conditions, which are evaluated for each fetch from the request's
/// custom signals and ``RemoteConfigTargeting`` (see <doc:RemoteConfigConditions>). Fetches answer after `latency` on `scheduler`;
/// failures can be injected (`failNextFetches(_:with:)`, `respondToNextFetches(_:with:)`,
/// `dropRealtimeStreams(with:)`, `failNextRealtimeConnections(_:with:)`, `disableRealtime()`),
/// and counters (`fetchCount`, `openFetchCount`, `activeRealtimeStreamCount`) let tests prove
/// what the client did.
///
/// Fetch responses follow Firebase's protocol: a request whose ETag matches the template's gets
/// `.noChange`, an empty template `.emptyConfig`, otherwise `.updated` with every entry.
/// With conditional values, the ETag also depends on the values the request gets, so an
/// instance whose targeting changed is not told "no change".
/// A realtime stream opened with an older `lastKnownTemplateVersion` (or `nil`) immediately
/// announces the current version, as Firebase's server does.
///
/// - Note: Responses and messages are delivered on `scheduler`, `latency` after the request or
///   publication (on `TestScheduler`, a zero latency still takes one tick). See <doc:RemoteConfigGuide>.
public final class InMemoryRemoteConfigBackend: RemoteConfigBackend, @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; observers are called only
    // from scheduler actions, outside the lock. `scheduler` and `latency` are immutable.
    // Scheduled actions find their observer by id instead of capturing it, so a cancelled
    // timer that keeps its closure a little longer (dispatch sources do) holds no subscription.
    private struct Stream {
        let observer: AnyObserver<RemoteConfigInvalidation>
        let pending: CompositeDisposable
    }

    private struct State {
        var template: RemoteConfigConditionalTemplate
        var country: String?
        var templateVersion = 1
        var fetchCount = 0
        var requests: [RemoteConfigFetchRequest] = []
        var failures: [RemoteConfigBackendError] = []
        var scripted: [RemoteConfigFetchResponse] = []
        var openFetches: [UInt64: AnyObserver<RemoteConfigFetchResponse>] = [:]
        var nextID: UInt64 = 0
        var streams: [UInt64: Stream] = [:]
        /// Streams dropped by the server whose error is not delivered yet.
        var closing: [UInt64: Stream] = [:]
        /// The open streams in the order they opened, so that every listener hears of a
        /// publication in the same order on every run (a dictionary's order changes per process).
        var openStreams: [(UInt64, Stream)] { streams.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        var realtimeConnectionTimes: [Date] = []
        var realtimeFailures: [RemoteConfigBackendError] = []
        var realtimeDisabled = false
    }

    private let state: LockedState<State>
    private let scheduler: SchedulerType
    /// The delay of every response and realtime message.
    public let latency: RxTimeInterval

    /// Creates a server whose template (version 1) holds `values`.
    ///
    /// - Parameters:
    ///   - values: The first template's entries.
    ///   - latency: How long each response and realtime message takes.
    ///   - scheduler: Where responses and messages are delivered.
    public init(values: [String: String] = [:], latency: RxTimeInterval = .seconds(0), scheduler: SchedulerType) {
        state = LockedState(State(template: RemoteConfigConditionalTemplate(values: values)))
        self.latency = latency
        self.scheduler = scheduler
    }

    // MARK: Template

    /// The current template's entries (default values, before conditions).
    public var values: [String: String] { state.withLock { $0.template.defaultEntries } }

    /// The country `device.country` conditions see (ISO 3166-1 alpha-2, any case); `nil` (the
    /// default) makes them false, as Firebase locates the request's IP address instead.
    public var country: String? {
        get { state.withLock { $0.country } }
        set { state.withLock { $0.country = newValue } }
    }

    /// The current template version (1 for the initial template).
    public var templateVersion: Int { state.withLock { $0.templateVersion } }

    /// The current template's ETag (`"etag-<version>"`; with conditional values, each fetch's
    /// ETag adds a digest of the values that request gets).
    public var eTag: String { "etag-\(templateVersion)" }

    /// Publishes `values` as a new template version and announces it to every open realtime
    /// stream (after `latency`).
    public func publish(_ values: [String: String]) {
        publish(template: RemoteConfigConditionalTemplate(values: values))
    }

    /// Publishes Firebase's template JSON (conditions, parameters with default and conditional
    /// values, parameter groups) as a new template version and announces it to every open
    /// realtime stream (after `latency`), whichever values each instance will get.
    ///
    /// Each fetch then gets, for every parameter, the value of the first condition in template
    /// order that is true for the request and has one, else the default; `useInAppDefault`
    /// leaves the parameter out.
    ///
    /// - Throws: `RemoteConfigTemplateError`: `.invalidJSON`, `.invalidTemplate` (with the
    ///   path), or `.invalidCondition` naming the condition that does not parse and the
    ///   position; nothing is published then.
    public func publish(templateJSON: Data) throws(RemoteConfigTemplateError) {
        publish(template: try RemoteConfigConditionalTemplate(json: templateJSON))
    }

    private func publish(template: RemoteConfigConditionalTemplate) {
        let (version, streams) = state.withLock { state -> (Int, [(UInt64, Stream)]) in
            state.template = template
            state.templateVersion += 1
            return (state.templateVersion, state.openStreams)
        }
        for (id, stream) in streams { send(.next(RemoteConfigInvalidation(latestTemplateVersion: version)), to: stream, id: id) }
    }

    // MARK: Fetch

    /// How many fetch requests arrived.
    public var fetchCount: Int { state.withLock { $0.fetchCount } }

    /// Every fetch request, oldest first.
    public var fetchRequests: [RemoteConfigFetchRequest] { state.withLock { $0.requests } }

    /// Fetch requests that have neither answered nor been cancelled by the client.
    public var openFetchCount: Int { state.withLock { $0.openFetches.count } }

    /// Makes the next `count` fetches fail with `error` (after `latency`). Use `.rateLimited` or
    /// `.unavailable(statusCode: 503)` to make the client throttle.
    public func failNextFetches(_ count: Int, with error: RemoteConfigBackendError) {
        state.withLock { $0.failures.append(contentsOf: repeatElement(error, count: max(count, 0))) }
    }

    /// Makes the next `count` fetches answer `response` instead of the template (after any
    /// injected failures).
    public func respondToNextFetches(_ count: Int, with response: RemoteConfigFetchResponse) {
        state.withLock { $0.scripted.append(contentsOf: repeatElement(response, count: max(count, 0))) }
    }

    /// Answers `request` after `latency`: the next injected failure or scripted response, else
    /// the template.
    public func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse> {
        Observable.create { [self] observer in
            let now = scheduler.now
            let (id, outcome) = state.withLock { state -> (UInt64, Result<RemoteConfigFetchResponse, RemoteConfigBackendError>) in
                state.fetchCount += 1
                state.requests.append(request)
                let id = state.nextID
                state.nextID += 1
                state.openFetches[id] = observer
                if !state.failures.isEmpty { return (id, .failure(state.failures.removeFirst())) }
                if !state.scripted.isEmpty { return (id, .success(state.scripted.removeFirst())) }
                return (id, .success(Self.response(to: request, state: state, now: now)))
            }
            let work = scheduler.scheduleRelative((), dueTime: latency) { [weak self] _ in
                guard let observer = self?.state.withLock({ $0.openFetches.removeValue(forKey: id) }) else { return Disposables.create() }
                switch outcome {
                case .success(let response):
                    observer.onNext(response)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
                return Disposables.create()
            }
            return Disposables.create { [self] in
                state.withLock { _ = $0.openFetches.removeValue(forKey: id) }
                work.dispose()
            }
        }
    }

    private static func response(to request: RemoteConfigFetchRequest, state: State, now: Date) -> RemoteConfigFetchResponse {
        let version = state.templateVersion
        let values = state.template.entries(for: context(of: request, country: state.country, now: now))
        let eTag = state.template.eTag("etag-\(version)", entries: values)
        if request.eTag == eTag { return .noChange(templateVersion: version, eTag: eTag) }
        if values.isEmpty { return .emptyConfig(templateVersion: version, eTag: eTag) }
        return .updated(entries: values, templateVersion: version, eTag: eTag)
    }

    /// What `request` says about the app instance, for the template's conditions.
    private static func context(of request: RemoteConfigFetchRequest, country: String?, now: Date) -> RemoteConfigConditionContext {
        let targeting = request.targeting
        let info = targeting.appInfo
        return RemoteConfigConditionContext(
            appID: targeting.appID,
            appVersion: info?.appVersion,
            appBuild: info?.appBuild,
            operatingSystem: RemoteConfigConditionContext.operatingSystem(appID: targeting.appID, platform: info?.platform),
            languageCode: info?.languageCode,
            countryCode: country,
            installationID: targeting.appInstanceID,
            customSignals: request.customSignals,
            userProperties: targeting.userProperties,
            firstOpenTime: targeting.firstOpenTime,
            timeZone: info?.timeZone,
            now: now
        )
    }

    // MARK: Realtime

    /// How many realtime streams are open now.
    public var activeRealtimeStreamCount: Int { state.withLock { $0.streams.count } }

    /// How many realtime streams were ever opened (including failed connection attempts).
    public var realtimeConnectionCount: Int { state.withLock { $0.realtimeConnectionTimes.count } }

    /// When each realtime stream was opened (the scheduler's `now`), oldest first.
    public var realtimeConnectionTimes: [Date] { state.withLock { $0.realtimeConnectionTimes } }

    /// Drops every open realtime stream with `error` (after `latency`), as a lost connection.
    /// `configUpdates` reconnects only after a retryable error (see
    /// `failNextRealtimeConnections(_:with:)`).
    public func dropRealtimeStreams(with error: RemoteConfigBackendError = .network(message: "connection reset")) {
        let streams = state.withLock { state -> [(UInt64, Stream)] in
            defer {
                state.closing.merge(state.streams) { _, new in new }
                state.streams = [:]
            }
            return state.openStreams
        }
        for (id, stream) in streams { send(.error(error), to: stream, id: id) }
    }

    /// Makes the next `count` realtime connections fail with `error` (after `latency`).
    /// `RemoteConfig.configUpdates` retries `.rateLimited`, `.network`, `.unavailable` with
    /// 502/503/504 and `.http` with 408; any other error ends it at once (`.http` with 403 as
    /// `.realtimeDisabled`).
    public func failNextRealtimeConnections(_ count: Int, with error: RemoteConfigBackendError) {
        state.withLock { $0.realtimeFailures.append(contentsOf: repeatElement(error, count: max(count, 0))) }
    }

    /// Sends `invalidation` to every open realtime stream (after `latency`), e.g. with a
    /// `retryInterval`.
    public func sendInvalidation(_ invalidation: RemoteConfigInvalidation) {
        let streams = state.withLock { $0.openStreams }
        for (id, stream) in streams { send(.next(invalidation), to: stream, id: id) }
    }

    /// Disables realtime for this app: open streams and every later connection receive a
    /// `featureDisabled` message.
    public func disableRealtime() {
        let (streams, version) = state.withLock { state -> ([(UInt64, Stream)], Int) in
            state.realtimeDisabled = true
            return (state.openStreams, state.templateVersion)
        }
        for (id, stream) in streams { send(.next(RemoteConfigInvalidation(latestTemplateVersion: version, featureDisabled: true)), to: stream, id: id) }
    }

    /// Opens a realtime stream; it announces the current version right away when it is newer
    /// than `lastKnownTemplateVersion`, then every `publish(_:)`.
    public func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation> {
        Observable.create { [self] observer in
            let pending = CompositeDisposable()
            let stream = Stream(observer: observer, pending: pending)
            let now = scheduler.now
            let (id, first) = state.withLock { state -> (UInt64, Event<RemoteConfigInvalidation>?) in
                state.realtimeConnectionTimes.append(now)
                let id = state.nextID
                state.nextID += 1
                if !state.realtimeFailures.isEmpty {
                    state.closing[id] = stream
                    return (id, .error(state.realtimeFailures.removeFirst()))
                }
                state.streams[id] = stream
                if state.realtimeDisabled {
                    return (id, .next(RemoteConfigInvalidation(latestTemplateVersion: state.templateVersion, featureDisabled: true)))
                }
                if lastKnownTemplateVersion.map({ $0 < state.templateVersion }) ?? true {
                    return (id, .next(RemoteConfigInvalidation(latestTemplateVersion: state.templateVersion)))
                }
                return (id, nil)
            }
            if let first { send(first, to: stream, id: id) }
            return Disposables.create { [self] in
                state.withLock { state in
                    state.streams.removeValue(forKey: id)
                    state.closing.removeValue(forKey: id)
                }
                pending.dispose()
            }
        }
    }

    /// Delivers `event` to stream `id` after `latency`, if it is still open (or, for the error
    /// of a dropped stream, still waiting for it); a terminal event closes it.
    private func send(_ event: Event<RemoteConfigInvalidation>, to stream: Stream, id: UInt64) {
        let work = SingleAssignmentDisposable()
        guard let key = stream.pending.insert(work) else { return }
        let pending = stream.pending
        work.setDisposable(
            scheduler.scheduleRelative((), dueTime: latency) { [weak self] _ in
                pending.remove(for: key)
                let observer = self?.state.withLock { state -> AnyObserver<RemoteConfigInvalidation>? in
                    if event.isStopEvent {
                        let closed = state.closing.removeValue(forKey: id) ?? state.streams.removeValue(forKey: id)
                        return closed?.observer
                    }
                    return state.streams[id]?.observer
                }
                observer?.on(event)
                return Disposables.create()
            })
    }
}
