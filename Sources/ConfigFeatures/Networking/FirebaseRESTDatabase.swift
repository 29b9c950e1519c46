import Foundation

/// A ``RealtimeDatabase`` backed by the Firebase Realtime Database REST API: one-shot reads and
/// writes are HTTP requests, `observeValue(at:)` is a streaming `GET` (Server-Sent Events).
///
///     let database = FirebaseRESTDatabase(
///         databaseURL: URL(string: "https://my-app-default-rtdb.firebaseio.com")!,
///         auth: .idToken(token),
///         tokenRefresher: { auth.freshIDToken().map { .idToken($0) } },
///         scheduler: MainScheduler.instance
///     )
///     database.observeValue(at: "Groups/group0")   // the value, then every change
///
/// - `getValue(at:)`: `GET`; `perform(_:)`: `PUT` (set), `PATCH` (update), `DELETE` (remove),
///   validated exactly as ``InMemoryRealtimeDatabase`` validates them before anything is sent;
///   `push(_:at:)`: `POST`, emitting the key the server generated. Each request is sent when
///   subscribed and cancelled when disposed.
/// - `observeValue(at:)`: opens a stream of the location (each subscription its own), keeps a
///   copy of the location's tree from the stream's `put`/`patch` events, and emits the value
///   when the first snapshot arrives and then whenever it changes. A dropped connection (the
///   server closed it, a network failure, HTTP 5xx, 408 or 429) reconnects after
///   `reconnectBackoff` (the backoff starts over after each snapshot); the new connection's
///   snapshot replaces the tree and is emitted only if it differs, so observers see no
///   duplicate. `auth_revoked` refreshes the credential with `tokenRefresher` and reconnects
///   (every later request uses the new credential); without a refresher the observation fails
///   with `.authRevoked`. `cancel` fails it with `.permissionDenied`.
/// - `auth: .user(firebaseAuth)`: every request and stream connection asks the client for the
///   signed-in user's ID token (`idToken()`: cached while fresh, refreshed near expiry) and
///   sends it as `auth=`, or nothing when no one is signed in; `auth_revoked`, and an HTTP 401
///   answer to a token believed fresh (once), refresh it by force and reconnect or retry, except
///   a 401 whose body says "Permission denied" (the Security Rules refused: a new token would
///   not help), which fails with `.permissionDenied` at once, with no refresh and no retry; a
///   user change (`authState`) reconnects every open stream with the new credential. A failed
///   refresh fails the request or observation with the client's ``FirebaseAuthError``
///   (`.network` ones are retried like a dropped stream).
/// - Limits: paths, values and everything the server sends are checked against `limits`
///   (Firebase's depth 32 and 768-byte keys by default); server data past them fails the read
///   or observation with the ``RealtimeDatabaseError`` a write would get, and server JSON is
///   parsed only as deep as they allow. One stream event may take `maximumEventSize` bytes.
/// - Errors: ``RealtimeDatabaseError`` for an invalid path, value or update (nothing is sent);
///   ``FirebaseRESTDatabaseError`` for what happens on the wire (HTTP 400 → `.invalidData`,
///   401/403 → `.permissionDenied`, 5xx → `.unavailable`, a network failure or timeout →
///   `.network`, malformed data → `.invalidResponse`); the refresher's own error if a refresh
///   fails; with `.user`, the ``FirebaseAuthError`` of a failed token refresh.
///
/// - Note: Every element, error and completion is delivered on `scheduler` (on a
///   `TestScheduler`, one tick after the response or stream event that caused it), one at a
///   time per subscription. Reconnection delays also run on `scheduler`. See
///   <doc:Networking>.
public final class FirebaseRESTDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: every stored property is immutable; the mutable parts (the credential and the
    // observation count) live in `core`, behind its locks.
    let core: Core
    private let pushIDs: PushIDGenerator
    /// The user every request of this instance is made as (see `pinned(to:)`); `nil`: whoever
    /// is signed in.
    let pin: RESTUserPin?

    /// Creates a client for the database at `databaseURL`.
    ///
    /// - Parameters:
    ///   - databaseURL: The database root, e.g. `https://<db>.firebaseio.com` (a query such as
    ///     the emulator's `?ns=` is kept).
    ///   - auth: The credential sent with every request; `.user(firebaseAuth)` to sign in as the
    ///     client's signed-in user, whose ID token is looked up per request and connection.
    ///   - tokenRefresher: Called when a stream reports `auth_revoked` (not used with `.user`,
    ///     whose client refreshes the token itself): its first element becomes
    ///     the credential of every later request, and the stream reconnects. Without one the
    ///     observation fails with `.authRevoked`.
    ///   - scheduler: Where results are delivered and reconnection delays run.
    ///   - reconnectBackoff: The delays between reconnection attempts of a stream.
    ///   - requestTimeout: How long a one-shot request may take, in seconds.
    ///   - pushIDGenerator: The source of `childByAutoId()` keys; its clock is `scheduler.now`.
    ///   - randomSource: A number in `[0, 1)` for the backoff jitter (inject a constant in tests).
    ///   - limits: The depth and key length limits for paths, written values and the data the
    ///     server sends (Firebase's by default); server data past them fails the operation or
    ///     observation with `RealtimeDatabaseError.pathTooDeep` or `.keyTooLong`.
    ///   - maximumEventSize: The most bytes one stream event may take (16 MiB by default; a
    ///     snapshot is one event); past it the observation fails with
    ///     `ServerSentEventError.eventTooLarge(limit:)`.
    public convenience init(
        databaseURL: URL,
        auth: FirebaseRESTAuth = .none,
        tokenRefresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil,
        scheduler: SchedulerType,
        reconnectBackoff: BackoffPolicy = .default,
        requestTimeout: TimeInterval = 60,
        pushIDGenerator: PushIDGenerator = PushIDGenerator(),
        randomSource: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        limits: RealtimeDatabaseLimits = .firebase,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) {
        self.init(
            databaseURL: databaseURL,
            auth: auth,
            tokenRefresher: tokenRefresher,
            scheduler: scheduler,
            reconnectBackoff: reconnectBackoff,
            requestTimeout: requestTimeout,
            pushIDGenerator: pushIDGenerator,
            randomSource: randomSource,
            limits: limits,
            maximumEventSize: maximumEventSize,
            transport: URLSessionTransport()
        )
    }

    /// Creates a client for the database `endpoints` name: an emulator's
    /// (`FirebaseEndpoints.emulator(port:databaseNamespace:)`) or a `FirebaseTestServer`'s
    /// (`server.endpoints`). The other parameters are those of
    /// `init(databaseURL:auth:tokenRefresher:scheduler:reconnectBackoff:requestTimeout:pushIDGenerator:randomSource:limits:maximumEventSize:)`.
    ///
    /// - Throws: ``FirebaseEndpointsError/invalidURL(endpoint:url:reason:)`` when `endpoints`
    ///   names no database (``FirebaseEndpoints/production`` does not: each production database
    ///   has its own URL, which `init(databaseURL:…)` takes).
    public convenience init(
        endpoints: FirebaseEndpoints,
        auth: FirebaseRESTAuth = .none,
        tokenRefresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil,
        scheduler: SchedulerType,
        reconnectBackoff: BackoffPolicy = .default,
        requestTimeout: TimeInterval = 60
    ) throws(FirebaseEndpointsError) {
        guard let databaseURL = endpoints.database else {
            throw .invalidURL(
                endpoint: "database", url: "",
                reason: "these endpoints name no database; give a production database its URL with init(databaseURL:scheduler:)")
        }
        self.init(
            databaseURL: databaseURL, auth: auth, tokenRefresher: tokenRefresher, scheduler: scheduler, reconnectBackoff: reconnectBackoff,
            requestTimeout: requestTimeout)
    }

    /// Creates a client sending its requests through `transport` (tests inject a scripted one).
    package init(
        databaseURL: URL,
        auth: FirebaseRESTAuth = .none,
        tokenRefresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil,
        scheduler: SchedulerType,
        reconnectBackoff: BackoffPolicy = .default,
        requestTimeout: TimeInterval = 60,
        pushIDGenerator: PushIDGenerator = PushIDGenerator(),
        randomSource: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        limits: RealtimeDatabaseLimits = .firebase,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize,
        transport: any HTTPTransport
    ) {
        core = Core(
            databaseURL: databaseURL,
            auth: auth,
            tokenRefresher: tokenRefresher,
            scheduler: scheduler,
            reconnectBackoff: reconnectBackoff,
            requestTimeout: requestTimeout,
            randomSource: randomSource,
            limits: limits,
            maximumEventSize: maximumEventSize,
            transport: transport
        )
        pushIDs = pushIDGenerator
        pin = nil
    }

    /// A client sharing `database`'s configuration whose requests are all made as `pin`'s user.
    private init(sharing database: FirebaseRESTDatabase, pin: RESTUserPin) {
        core = database.core
        pushIDs = database.pushIDs
        self.pin = pin
    }

    /// The same database, its requests and streams made only as the user `uid` (`nil`: signed
    /// out): a request finding another user signed in fails with `RESTUserChanged` instead of
    /// sending that user's token, and its streams do not follow user changes. `nil` without a
    /// ``FirebaseAuth`` (nothing to pin).
    func pinned(to uid: String?) -> FirebaseRESTDatabase? {
        guard core.userAuth != nil else { return nil }
        return FirebaseRESTDatabase(sharing: self, pin: RESTUserPin(uid: uid))
    }

    /// The database root.
    public var databaseURL: URL { core.databaseURL }

    /// The limits paths, values and server data are checked against.
    public var limits: RealtimeDatabaseLimits { core.limits }

    /// The credential sent with requests now (the refreshed one after an `auth_revoked`;
    /// `.user` stays the client, whose current token each request asks for).
    public var auth: FirebaseRESTAuth { core.auth }

    /// The number of live `observeValue(at:)` subscriptions (each holds one stream, or is
    /// waiting to reconnect one).
    public var activeObserverCount: Int { core.observationCount }

    // MARK: - RealtimeDatabase

    /// Streams the value at `path`: emitted when the first snapshot arrives, then after every
    /// change; reconnects after drops without emitting duplicates (see the type's documentation).
    ///
    ///     server:  snapshot v0 --- put x=1 --- (drop) ... reconnect: snapshot (same) --- put x=2
    ///     output:  v0 ------------ v1 -------------------------------------------------- v2
    ///
    /// - Returns: A sequence that never completes; it fails with ``RealtimeDatabaseError`` for a
    ///   bad path or server data past `limits`, `ServerSentEventError.eventTooLarge` for an
    ///   event past `maximumEventSize`, `.permissionDenied` (HTTP 401/403, or a `cancel` event), `.authRevoked`
    ///   (without a refresher), `.invalidData`, `.http`, `.invalidResponse`, or the last
    ///   error once `reconnectBackoff` allows no more attempts. Disposing it closes the stream.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func observeValue(at path: String) -> Observable<JSONValue> {
        let core = self.core
        let pin = self.pin
        return Observable.create { observer in
            let location: RealtimeDatabasePath
            do {
                location = try RealtimeDatabasePath(path, limits: core.limits)
            } catch {
                return core.deliver(.error(error), to: observer)
            }
            let observation = RESTObservation(core: core, path: location, pin: pin, observer: observer)
            observation.start()
            return observation
        }
    }

    /// Reads the value at `path` once (`GET`), then emits it (`.null` when absent) and completes.
    ///
    /// - Returns: One element then completion, or an error (see the type's documentation).
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func getValue(at path: String) -> Observable<JSONValue> {
        let limits = core.limits
        return core.request(pin: pin, maximumJSONDepth: { location in max(0, limits.maximumDepth - location.depth) }) { wire in
            let location = try RealtimeDatabasePath(path, limits: limits)
            return (location, wire.readRequest(at: location), { json in try Self.normalizedResponse(json, at: location, limits: limits) })
        }
    }

    /// Observes the value a query selects: the stream request carries the query's REST
    /// parameters (`orderBy`, `startAt`, `limitToLast`, …; see `RealtimeDatabaseRESTQuery`), so
    /// the server sends only the selection, and the client applies the query again to what it
    /// holds (the server's events may leave children it no longer selects).
    ///
    /// - Returns: A sequence that never completes; it fails with
    ///   `RealtimeDatabaseError.invalidQuery` (nothing sent) for an invalid query, or as
    ///   `observeValue(at:)` fails. See `RealtimeDatabase.observeValue(of:)`.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func observeValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        let resolved = resolve(query)
        return stream(resolved).map { value in try resolved.get().result(of: value) }.distinctUntilChanged()
    }

    /// Observes the children a query selects, in its order, through one streamed query (see
    /// `observeValue(of:)`); `observeChildEvents(of:)` derives child events from it, so a
    /// reconnect (whose first event repeats the selection) raises no duplicate event.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func observeChildren(of query: RealtimeDatabaseQuery) -> Observable<[RealtimeDatabaseChild]> {
        let resolved = resolve(query)
        return stream(resolved).map { value in try resolved.get().children(of: value) }.distinctUntilChanged()
    }

    /// Reads the value a query selects once (`GET` with the query's REST parameters), then
    /// emits it (`.null` when nothing matches) and completes.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func getValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        let limits = core.limits
        let resolved = resolve(query)
        return core.request(pin: pin, maximumJSONDepth: { location in max(0, limits.maximumDepth - location.depth) }) { wire in
            let query = try resolved.get()
            return (
                query.location, wire.readRequest(at: query.location, query: query),
                { json in
                    query.result(of: try Self.normalizedResponse(json, at: query.location, limits: limits))
                }
            )
        }
    }

    private func resolve(_ query: RealtimeDatabaseQuery) -> Result<ResolvedRealtimeDatabaseQuery, RealtimeDatabaseError> {
        let limits = core.limits
        return Result { () throws(RealtimeDatabaseError) in try query.resolved(limits: limits) }
    }

    /// The streamed value at a query's location, the request carrying the query.
    private func stream(_ resolved: Result<ResolvedRealtimeDatabaseQuery, RealtimeDatabaseError>) -> Observable<JSONValue> {
        let core = self.core
        let pin = self.pin
        return Observable.create { observer in
            switch resolved {
            case .failure(let error):
                return core.deliver(.error(error), to: observer)
            case .success(let query):
                let observation = RESTObservation(core: core, path: query.location, query: query, pin: pin, observer: observer)
                observation.start()
                return observation
            }
        }
    }

    /// Performs `write` when subscribed (`PUT`, `PATCH` or `DELETE`), then emits `()` and
    /// completes once the server confirmed it.
    ///
    /// - Returns: A cold sequence; it fails with a ``RealtimeDatabaseError`` (nothing sent) for an
    ///   invalid write, or a ``FirebaseRESTDatabaseError``.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        let limits = core.limits
        return core.request(pin: pin) { wire in
            (.root, try wire.request(for: write, limits: limits), { _ in () })
        }
    }

    /// Stores `value` under a key generated by the server (`POST`) when subscribed and emits
    /// that key.
    ///
    /// Unlike the default implementation (a `childByAutoId()` key written with `PUT`), each
    /// subscription creates a new child, as Firebase's REST `POST` does.
    /// - Returns: A cold sequence emitting the new key, then completing.
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func push(_ value: JSONValue, at path: String) -> Observable<String> {
        let limits = core.limits
        return core.request(pin: pin) { wire in
            (
                .root, try wire.pushRequest(value, at: path, limits: limits),
                { json in
                    guard let name = json["name"]?.stringValue, RealtimeDatabasePath.problem(withKey: name) == nil,
                        name.utf8.count <= limits.maximumKeyLength
                    else {
                        throw FirebaseRESTDatabaseError.invalidResponse(message: "push response has no valid name: \(json)")
                    }
                    return name
                }
            )
        }
    }

    /// A new push ID, using the scheduler's clock for its time part. See ``PushIDGenerator``.
    public func childByAutoId() -> String {
        pushIDs.next(at: core.scheduler.now)
    }

    /// Server data for `location`, normalized: an invalid value is `.invalidResponse`, data
    /// past `limits` the ``RealtimeDatabaseError`` a write would get.
    static func normalizedResponse(_ json: JSONValue, at location: RealtimeDatabasePath, limits: RealtimeDatabaseLimits) throws -> JSONValue {
        do {
            return try RealtimeDatabaseTree.normalized(json, at: location, limits: limits)
        } catch .invalidValue(let path, let reason) {
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(RealtimeDatabaseError.invalidValue(path: path, reason: reason))")
        }
    }
}

extension FirebaseRESTDatabase {
    /// What the database and its observations share: configuration, the current credential and
    /// the count of live observations.
    final class Core: @unchecked Sendable {
        // Safety: the mutable state (credential, count) is in `state`, guarded by its lock;
        // everything else is immutable and thread-safe (schedulers and transports are).
        private struct State {
            var auth: FirebaseRESTAuth
            var observations = 0
        }

        let databaseURL: URL
        let tokenRefresher: (@Sendable () -> Observable<FirebaseRESTAuth>)?
        let scheduler: SchedulerType
        let reconnectBackoff: BackoffPolicy
        let requestTimeout: TimeInterval
        let randomSource: @Sendable () -> Double
        let limits: RealtimeDatabaseLimits
        let maximumEventSize: Int
        let transport: any HTTPTransport
        private let state: LockedState<State>

        init(
            databaseURL: URL,
            auth: FirebaseRESTAuth,
            tokenRefresher: (@Sendable () -> Observable<FirebaseRESTAuth>)?,
            scheduler: SchedulerType,
            reconnectBackoff: BackoffPolicy,
            requestTimeout: TimeInterval,
            randomSource: @escaping @Sendable () -> Double,
            limits: RealtimeDatabaseLimits,
            maximumEventSize: Int,
            transport: any HTTPTransport
        ) {
            self.databaseURL = databaseURL
            self.tokenRefresher = tokenRefresher
            self.scheduler = scheduler
            self.reconnectBackoff = reconnectBackoff
            self.requestTimeout = requestTimeout
            self.randomSource = randomSource
            self.limits = limits
            self.maximumEventSize = maximumEventSize
            self.transport = transport
            state = LockedState(State(auth: auth))
        }

        var auth: FirebaseRESTAuth {
            get { state.withLock { $0.auth } }
            set { state.withLock { $0.auth = newValue } }
        }

        /// The wire format with the current credential.
        var wire: RealtimeDatabaseRESTWire { RealtimeDatabaseRESTWire(databaseURL: databaseURL, auth: auth) }

        var observationCount: Int { state.withLock { $0.observations } }

        func observationStarted() { state.withLock { $0.observations += 1 } }
        func observationEnded() { state.withLock { $0.observations -= 1 } }

        /// A cold one-shot request: `make` builds the request (for a location), and the decoder
        /// of its JSON response (throwing for an invalid request, before anything is sent); the
        /// result is delivered on the scheduler. The response may nest JSON
        /// `maximumJSONDepth(location)` levels (by default as deep as the limits allow anything);
        /// deeper fails with `RealtimeDatabaseError.pathTooDeep`.
        ///
        /// The credential is looked up when subscribed (`credential(pin:forcingRefresh:)`); an
        /// HTTP 401 answer to a user's ID token the client believed fresh forces one refresh and
        /// one retry (a second 401 is `.permissionDenied`), unless its body is a Security Rules
        /// denial (`{"error": "Permission denied"}`), which fails with `.permissionDenied` at
        /// once (`RealtimeDatabaseRESTWire.isStaleTokenRefusal(_:)`). A failed token refresh
        /// fails the request with its ``FirebaseAuthError``.
        func request<Result>(
            pin: RESTUserPin? = nil,
            maximumJSONDepth: @escaping (RealtimeDatabasePath) -> Int = { _ in JSONValue.defaultMaximumDepth },
            _ make: @escaping (RealtimeDatabaseRESTWire) throws -> (RealtimeDatabasePath, WireRequest, (JSONValue) throws -> Result)
        ) -> Observable<Result> {
            Observable.create { [self] observer in
                let location: RealtimeDatabasePath
                let decode: (JSONValue) throws -> Result
                do {
                    (location, _, decode) = try make(RealtimeDatabaseRESTWire(databaseURL: databaseURL))
                } catch {
                    return deliver(.error(error), to: observer)
                }
                let depth = maximumJSONDepth(location)
                let limits = self.limits
                let delivery = SerialDisposable()
                let attempt = { [self] (forcingRefresh: Bool) -> Observable<(RESTCredential, WireResponse)> in
                    credential(pin: pin, forcingRefresh: forcingRefresh).flatMap { [self] credential in
                        transport.send(try make(wire(credential)).1, timeout: requestTimeout).map { (credential, $0) }
                    }
                }
                let exchange = attempt(false)
                    .flatMap { credential, response -> Observable<WireResponse> in
                        guard credential.isUserToken, RealtimeDatabaseRESTWire.isStaleTokenRefusal(response) else { return .just(response) }
                        return attempt(true).map(\.1)
                    }
                    .subscribe { [self] event in
                        let outcome: Event<Result>
                        switch event {
                        case .next(let response):
                            do {
                                outcome = .next(try decode(try RealtimeDatabaseRESTWire.decodeResponse(response, maximumJSONDepth: depth, limits: limits)))
                            } catch {
                                outcome = .error(error)
                            }
                        case .error(let error):
                            outcome = .error(Self.wireError(error))
                        case .completed:
                            return
                        }
                        delivery.disposable = deliver(outcome, to: observer)
                    }
                return Disposables.create(exchange, delivery)
            }
        }

        /// Delivers a single `next` (followed by completion) or `error` on the scheduler.
        func deliver<Element>(_ event: Event<Element>, to observer: AnyObserver<Element>) -> Disposable {
            scheduler.schedule(event) { event in
                observer.on(event)
                if case .next = event { observer.onCompleted() }
                return Disposables.create()
            }
        }

        /// A transport failure as a database error.
        static func wireError(_ error: Error) -> Error {
            if let error = error as? HTTPTransportError { return FirebaseRESTDatabaseError.network(message: error.description) }
            return error
        }
    }
}
