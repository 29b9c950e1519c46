// Where the demos get their servers from: the embedded in-memory backends (the default), an
// in-process loopback `FirebaseTestServer` spoken to over HTTP (`--local-server`), or a real
// Firebase project (live mode).
import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation

/// The backends the demos run on, chosen from `DemoOptions`.
///
/// - **Embedded** (the default): each demo creates its in-memory Remote Config server or
///   Realtime Database and scripts the server side of its storyline.
/// - **Local server** (`--local-server`): one `FirebaseTestServer` on 127.0.0.1; the demos talk
///   to it through `HTTPRemoteConfigBackend` and `FirebaseRESTDatabase`, and script the server
///   side through its Swift API (`publishTemplate`, `setDatabaseValue`), so the same storylines
///   run over real HTTP and Server-Sent Events.
/// - **Project**: `HTTPRemoteConfigBackend` for `--remote-config-project`/`--api-key`,
///   `FirebaseRESTDatabase` for `--database-url`. Nothing can be scripted: the demos read what
///   the project holds and listen for `duration` seconds.
///
/// Remote Config and the database are chosen separately: a run with only `--database-url`
/// runs the Remote Config demos on the embedded backend (and they say so).
public final class DemoBackends: Sendable {
    /// Where the Remote Config demos get their server from.
    public enum RemoteConfigSelection: Sendable, Hashable, CustomStringConvertible {
        /// `InMemoryRemoteConfigBackend`, scripted by the demo.
        case embedded
        /// `HTTPRemoteConfigBackend` against the loopback `FirebaseTestServer`, scripted through it.
        case localServer
        /// `HTTPRemoteConfigBackend` against a real project: the live variant.
        case project(DemoOptions.RemoteConfigProject)

        /// What the demo prints about it (the API key masked).
        public var description: String {
            switch self {
            case .embedded: return "embedded in-memory backend"
            case .localServer: return "HTTP against the loopback server"
            case .project(let project): return "live, \(project)"
            }
        }
    }

    /// Where the database demo gets its database from.
    public enum DatabaseSelection: Sendable, Hashable, CustomStringConvertible {
        /// `InMemoryRealtimeDatabase`, scripted by the demo.
        case embedded
        /// `FirebaseRESTDatabase` against the loopback `FirebaseTestServer`, scripted through it.
        case localServer
        /// `FirebaseRESTDatabase` against a real database: the live variant.
        case project(DemoOptions.DatabaseProject)

        /// What the demo prints about it (tokens masked).
        public var description: String {
            switch self {
            case .embedded: return "embedded in-memory database"
            case .localServer: return "HTTP/SSE against the loopback server"
            case .project(let database): return "live, \(database)"
            }
        }
    }

    /// The Remote Config backend of the demos.
    public let remoteConfig: RemoteConfigSelection
    /// The database of the demos.
    public let database: DatabaseSelection
    /// How long the live demos listen, in seconds.
    public let duration: TimeInterval
    /// The loopback server (`--local-server`), `nil` otherwise.
    public let server: FirebaseTestServer?
    /// The app ID the local server's clients send.
    public let localAppID: String
    /// The Firebase Installations client of the real project (`nil` without one): its record
    /// is kept in the standard file against Firebase's host, in memory against another host
    /// (an emulator or a test server, where an installation means nothing to the next run).
    public let projectInstallations: FirebaseInstallations?

    private let ownsServer: Bool
    private let live = LockedState(LiveListening())

    /// The default: both backends embedded, as `runLaunchDemo()` and friends use them.
    public static var embedded: DemoBackends { DemoBackends(remoteConfig: .embedded, database: .embedded) }

    /// Chooses the backends for `options`; starts a `FirebaseTestServer` for `--local-server`
    /// (stopped by `stop()`).
    ///
    /// - Throws: `FirebaseTestServerError` when the loopback server cannot start.
    public convenience init(options: DemoOptions) throws(FirebaseTestServerError) {
        if options.usesLocalServer {
            self.init(server: try FirebaseTestServer(), ownsServer: true, duration: options.duration)
        } else {
            self.init(
                remoteConfig: options.remoteConfig.map { .project($0) } ?? .embedded,
                database: options.database.map { .project($0) } ?? .embedded,
                duration: options.duration
            )
        }
    }

    /// Runs the scripted demos over HTTP against `server` (which the caller keeps and stops).
    public convenience init(localServer server: FirebaseTestServer) {
        self.init(server: server, ownsServer: false, duration: DemoOptions.defaultDuration)
    }

    /// Chooses each backend explicitly (no loopback server: use `init(localServer:)` for one).
    ///
    /// - Precondition: Neither selection is `.localServer`.
    public init(remoteConfig: RemoteConfigSelection, database: DatabaseSelection, duration: TimeInterval = DemoOptions.defaultDuration) {
        precondition(remoteConfig != .localServer && database != .localServer, "use init(localServer:) for the loopback server")
        self.remoteConfig = remoteConfig
        self.database = database
        self.duration = duration
        server = nil
        ownsServer = false
        localAppID = DemoOptions.defaultAppID
        if case .project(let project) = remoteConfig {
            let host = project.effectiveInstallationsBaseURL
            projectInstallations = FirebaseInstallations(
                projectID: project.project, apiKey: project.apiKey.value, appID: project.appID,
                storage: host == nil ? FileFirebaseInstallationsStorage.standard(appID: project.appID) : InMemoryFirebaseInstallationsStorage(),
                baseURL: host ?? FirebaseInstallations.defaultBaseURL, requestTimeout: 20
            )
        } else {
            projectInstallations = nil
        }
    }

    private init(server: FirebaseTestServer, ownsServer: Bool, duration: TimeInterval) {
        remoteConfig = .localServer
        database = .localServer
        self.duration = duration
        self.server = server
        self.ownsServer = ownsServer
        localAppID = DemoOptions.defaultAppID
        projectInstallations = nil
    }

    /// Ends the live listening and stops the loopback server this object started. Idempotent.
    public func stop() {
        endLiveListening()
        if ownsServer { server?.stop() }
    }

    /// Whether every demo runs on the embedded backends (the output is then the classic one).
    public var isEmbedded: Bool { remoteConfig == .embedded && database == .embedded }

    /// One line per backend, for the start of a run (secrets masked).
    public var summary: String {
        var remoteConfigText = remoteConfig.description
        var databaseText = database.description
        if let server {
            remoteConfigText += " \(server.baseURL.absoluteString) (project \(server.project))"
            databaseText += " \(server.databaseURL.absoluteString)"
        }
        return "Remote Config: \(remoteConfigText)\nRealtime Database: \(databaseText)"
    }

    // MARK: - Live listening

    /// Ends every live demo's listening now, and makes later ones end at once (tests and
    /// `stop()` use it; the demos then print their summary and return).
    public func endLiveListening() {
        let waiters = live.withLock { state -> [DispatchSemaphore] in
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Blocks while a live demo listens: until `duration` passes, `finished` is signalled (the
    /// demo stopped early, e.g. its stream failed) or `endLiveListening()` is called.
    ///
    /// - Returns: Whether the whole duration passed.
    func listen(until finished: DispatchSemaphore) -> Bool {
        let id = live.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            state.nextID += 1
            state.waiters[state.nextID] = finished
            return state.nextID
        }
        guard let id else { return false }
        let elapsed = finished.wait(timeout: .now() + duration) == .timedOut
        // If endLiveListening() took the waiter, its signal may still come: `finished` belongs
        // to this one listening only, so a late signal is harmless.
        live.withLock { _ = $0.waiters.removeValue(forKey: id) }
        return elapsed
    }

    // MARK: - Scripted servers

    /// A Remote Config server for a scripted storyline: the embedded one, or the loopback
    /// server holding `values` as a new template.
    ///
    /// - Precondition: `remoteConfig` is not `.project`.
    func scriptedRemoteConfig(values: [String: String], latency: RxTimeInterval, scheduler: SerialDispatchQueueScheduler) -> ScriptedRemoteConfigServer {
        switch remoteConfig {
        case .embedded:
            return ScriptedRemoteConfigServer(memory: InMemoryRemoteConfigBackend(values: values, latency: latency, scheduler: scheduler))
        case .localServer:
            guard let server else { preconditionFailure("a local-server selection always has a server") }
            server.publishTemplate(values)
            // Every endpoint at the loopback server; its installation lives in memory (the
            // default for local endpoints), since the server is new on every run.
            let http = HTTPRemoteConfigBackend(
                project: server.project, apiKey: server.apiKey, appID: localAppID, endpoints: server.endpoints, fetchTimeout: 10)
            // The network on loopback answers in a millisecond: add the storyline's latency so
            // the timeline (e.g. a refresh while loading) is the same.
            let backend: any RemoteConfigBackend = isZero(latency) ? http : DelayedRemoteConfigBackend(base: http, delay: latency, scheduler: scheduler)
            return ScriptedRemoteConfigServer(server: server, backend: backend)
        case .project:
            preconditionFailure("a real project cannot be scripted")
        }
    }

    /// A database seeded with `seed` for a scripted storyline: the embedded one (with `latency`
    /// on every delivered value), or the loopback server's, read over REST and SSE as `users`
    /// (user1's client; user2's for the other client), or without a user when `users` is `nil`.
    ///
    /// - Precondition: `database` is not `.project`.
    func scriptedDatabase(seed: JSONValue, latency: RxTimeInterval, scheduler: SerialDispatchQueueScheduler, users: DemoUsers? = nil) throws
        -> ScriptedDatabase
    {
        switch database {
        case .embedded:
            let store = try InMemoryRealtimeDatabase(scheduler: scheduler, value: seed)
            return ScriptedDatabase(memory: store, database: LatencyDatabase(base: store, latency: latency, scheduler: scheduler))
        case .localServer:
            guard let server else { preconditionFailure("a local-server selection always has a server") }
            try server.setDatabaseValue(seed, at: "/")
            return try ScriptedDatabase(server: server, users: users, scheduler: scheduler)
        case .project:
            preconditionFailure("a real database cannot be scripted")
        }
    }

    // MARK: - Live clients

    /// The Remote Config backend of a real project.
    func projectRemoteConfigBackend(_ project: DemoOptions.RemoteConfigProject) -> HTTPRemoteConfigBackend {
        HTTPRemoteConfigBackend(
            project: project.project, apiKey: project.apiKey.value, appID: project.appID,
            installations: projectInstallations,
            fetchBaseURL: project.fetchBaseURL ?? RemoteConfigWire.defaultFetchBaseURL,
            realtimeBaseURL: project.effectiveRealtimeBaseURL ?? RemoteConfigWire.defaultRealtimeBaseURL,
            fetchTimeout: 20
        )
    }

    /// The Realtime Database client of a real project, signed in as `user` when given.
    func projectDatabase(_ database: DemoOptions.DatabaseProject, user: FirebaseAuth? = nil, scheduler: SchedulerType) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(databaseURL: database.url, auth: user.map { .user($0) } ?? database.credential.restAuth, scheduler: scheduler, requestTimeout: 20)
    }

    /// Signs in to the real project with `FirebaseAuth` against Firebase's Auth hosts
    /// (`FirebaseEndpoints.production`: the API key is all it needs), or against the emulator at
    /// `authBaseURL` (`--auth-url`).
    func signInToProject(_ method: DemoOptions.SignInMethod, apiKey: DemoOptions.Secret, authBaseURL: URL?, scheduler: SchedulerType) -> Result<
        (FirebaseAuth, FirebaseUser), any Error
    > {
        let endpoints: FirebaseEndpoints
        if let authBaseURL {
            do {
                endpoints = try FirebaseEndpoints.emulator(
                    host: authBaseURL.host ?? "", port: authBaseURL.port ?? (authBaseURL.scheme == "https" ? 443 : 80))
            } catch {
                return .failure(error)
            }
        } else {
            endpoints = .production
        }
        let auth = FirebaseAuth(apiKey: apiKey.value, endpoints: endpoints, scheduler: scheduler, requestTimeout: 20)
        let signIn: Single<FirebaseUser>
        switch method {
        case .anonymous: signIn = auth.signInAnonymously()
        case .email(let email, let password): signIn = auth.signIn(email: email, password: password.value)
        }
        return awaitResult(signIn, timeout: 25).map { (auth, $0) }
    }

    // MARK: - Notes

    /// The line a Remote Config demo prints about its backend, `nil` in an all-embedded run
    /// (whose output stays the classic one).
    var remoteConfigNote: String? {
        switch remoteConfig {
        case .embedded:
            return isEmbedded ? nil : "(Remote Config: embedded in-memory backend — no --remote-config-project given)"
        case .localServer:
            return server.map { "(Remote Config: HTTP against the loopback server \($0.baseURL.absoluteString))" }
        case .project(let project):
            return "(Remote Config: live, \(project))"
        }
    }

    /// The line the database demo prints about its backend, `nil` in an all-embedded run.
    var databaseNote: String? {
        switch database {
        case .embedded:
            return isEmbedded ? nil : "(Realtime Database: embedded in-memory database — no --database-url given)"
        case .localServer:
            return server.map { "(Realtime Database: REST and Server-Sent Events against the loopback server \($0.databaseURL.absoluteString))" }
        case .project(let database):
            return "(Realtime Database: live, \(database))"
        }
    }
}

/// The waiters of live demos.
private struct LiveListening {
    var ended = false
    var nextID: UInt64 = 0
    var waiters: [UInt64: DispatchSemaphore] = [:]
}

private func isZero(_ interval: RxTimeInterval) -> Bool {
    switch interval {
    case .seconds(let value): return value == 0
    case .milliseconds(let value): return value == 0
    case .microseconds(let value): return value == 0
    case .nanoseconds(let value): return value == 0
    default: return false
    }
}

// MARK: - Scripted servers

/// The server side of a scripted Remote Config storyline: an `InMemoryRemoteConfigBackend`, or
/// the loopback server (publications become templates, failures injected faults).
final class ScriptedRemoteConfigServer: Sendable {
    private enum Storage {
        case memory(InMemoryRemoteConfigBackend)
        case server(FirebaseTestServer)
    }

    /// What the demo's `RemoteConfig` talks to.
    let backend: any RemoteConfigBackend
    private let storage: Storage

    init(memory: InMemoryRemoteConfigBackend) {
        backend = memory
        storage = .memory(memory)
    }

    init(server: FirebaseTestServer, backend: any RemoteConfigBackend) {
        self.backend = backend
        storage = .server(server)
    }

    /// The current template's entries.
    var values: [String: String] {
        switch storage {
        case .memory(let memory): return memory.values
        case .server(let server): return server.templateEntries
        }
    }

    /// Publishes `values` as a new template and announces it on the realtime streams.
    func publish(_ values: [String: String]) {
        switch storage {
        case .memory(let memory): memory.publish(values)
        case .server(let server): server.publishTemplate(values)
        }
    }

    /// Publishes Firebase's template JSON (with conditions, evaluated for each fetch) as a new
    /// template and announces it on the realtime streams.
    ///
    /// - Throws: `RemoteConfigTemplateError` (embedded) or `FirebaseTestServerDataError`
    ///   (loopback server) when the template is refused.
    func publish(templateJSON: Data) throws {
        switch storage {
        case .memory(let memory): try memory.publish(templateJSON: templateJSON)
        case .server(let server): server.publishTemplate(try FirebaseTestServer.RemoteConfigTemplate(json: templateJSON))
        }
    }

    /// Makes the next fetch fail as if the device were offline (the server drops the connection).
    func failNextFetchAsOffline() {
        switch storage {
        case .memory(let memory): memory.failNextFetches(1, with: .network(message: "offline"))
        case .server(let server): server.inject(.disconnect(count: 1, route: .remoteConfigFetch))
        }
    }

    /// The number of open realtime streams; on the loopback server, after waiting (bounded) for
    /// it to reach `expected` (closing a connection takes a moment to reach the server).
    func openRealtimeStreams(settlingAt expected: Int) -> Int {
        switch storage {
        case .memory(let memory):
            return memory.activeRealtimeStreamCount
        case .server(let server):
            server.waitForOpenStreams(expected, route: .remoteConfigRealtime, timeout: 5)
            return server.openStreamCount(route: .remoteConfigRealtime)
        }
    }
}

/// The database of a scripted storyline: an `InMemoryRealtimeDatabase`, or the loopback server
/// (read by `FirebaseRESTDatabase`, written through the server's Swift API).
final class ScriptedDatabase: Sendable {
    private enum Storage {
        case memory(InMemoryRealtimeDatabase)
        case server(FirebaseTestServer, FirebaseRESTDatabase, DemoUsers?)
    }

    /// What the demo's listener reads (user1's client).
    let database: any RealtimeDatabase
    /// What user2's client reads: the same database when embedded, its own connection to the
    /// loopback server (signed in as user2, if signed in) otherwise.
    let otherUserDatabase: any RealtimeDatabase
    private let storage: Storage

    init(memory: InMemoryRealtimeDatabase, database: any RealtimeDatabase) {
        self.database = database
        otherUserDatabase = database
        storage = .memory(memory)
    }

    /// user1's and user2's clients of `server`, each as its user (`.user(auth)`), or without a
    /// user when `users` is `nil`.
    ///
    /// - Throws: `FirebaseEndpointsError` when the loopback server's endpoints name no database.
    init(server: FirebaseTestServer, users: DemoUsers?, scheduler: SerialDispatchQueueScheduler) throws(FirebaseEndpointsError) {
        let rest = try Self.connection(to: server, as: users?.user1, scheduler: scheduler)
        database = rest
        otherUserDatabase = try Self.connection(to: server, as: users?.user2, scheduler: scheduler)
        storage = .server(server, rest, users)
    }

    private static func connection(to server: FirebaseTestServer, as user: FirebaseAuth?, scheduler: SerialDispatchQueueScheduler)
        throws(FirebaseEndpointsError)
        -> FirebaseRESTDatabase
    {
        try FirebaseRESTDatabase(
            endpoints: server.endpoints, auth: user.map { .user($0) } ?? .none, scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.1, maximumDelay: 1), requestTimeout: 10)
    }

    /// Whether the writes happen on the loopback server.
    var isLocalServer: Bool {
        if case .server = storage { return true }
        return false
    }

    /// Writes `value` at `path` on the server side (as another client would).
    func setValue(_ value: JSONValue, at path: String) throws {
        switch storage {
        case .memory(let memory): try memory.setValue(value, at: path)
        case .server(let server, _, _): try server.setDatabaseValue(value, at: path)
        }
    }

    /// The live observations of the demo's client.
    var activeListenerCount: Int {
        switch storage {
        case .memory(let memory): return memory.activeObserverCount
        case .server(_, let rest, _): return rest.activeObserverCount
        }
    }

    /// A second client of the same server, local-first (a phone that can go offline): on the
    /// embedded database itself, or over its own REST and SSE connections to the loopback
    /// server. On the embedded database it reads through the demo's `LatencyDatabase`, as the
    /// listener does (reads late, writes acknowledged at once: the client keeps an
    /// acknowledged write shown until the server's data has it).
    ///
    /// - Throws: `FirebaseEndpointsError` when the loopback server's endpoints name no database.
    func localFirstClient(scheduler: SerialDispatchQueueScheduler) throws -> LocalFirstRealtimeDatabase {
        switch storage {
        case .memory:
            return LocalFirstRealtimeDatabase(remote: database, scheduler: scheduler)
        case .server:
            let rest = try serverConnection(scheduler: scheduler)
            return LocalFirstRealtimeDatabase(remote: rest, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.1, maximumDelay: 1))
        }
    }

    /// The SSE streams open on the loopback server after waiting (bounded) for `expected`;
    /// `nil` for the embedded database.
    func serverStreams(settlingAt expected: Int) -> Int? {
        guard case .server(let server, _, _) = storage else { return nil }
        server.waitForOpenStreams(expected, route: .database, timeout: 5)
        return server.openStreamCount(route: .database)
    }

    /// A new connection to the server for another of user1's clients: the embedded database
    /// itself (without the demo's `LatencyDatabase`), or a new `FirebaseRESTDatabase` to the
    /// loopback server, signed in as user1 (if signed in).
    ///
    /// - Throws: `FirebaseEndpointsError` when the loopback server's endpoints name no database.
    func serverConnection(scheduler: SerialDispatchQueueScheduler) throws -> any RealtimeDatabase {
        switch storage {
        case .memory(let memory):
            return memory
        case .server(let server, _, let users):
            return try Self.connection(to: server, as: users?.user1, scheduler: scheduler)
        }
    }
}

/// A Remote Config backend behind a network that takes `delay` before each fetch is sent.
struct DelayedRemoteConfigBackend: RemoteConfigBackend {
    let base: any RemoteConfigBackend
    let delay: RxTimeInterval
    let scheduler: SerialDispatchQueueScheduler

    func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse> {
        let base = base
        return Observable<Int>.timer(delay, scheduler: scheduler).flatMap { _ in base.fetch(request) }
    }

    func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation> {
        base.realtimeInvalidations(lastKnownTemplateVersion: lastKnownTemplateVersion)
    }
}

/// Adds a fixed latency to every value a database delivers.
struct LatencyDatabase: RealtimeDatabase {
    let base: InMemoryRealtimeDatabase
    let latency: RxTimeInterval
    let scheduler: SerialDispatchQueueScheduler

    func observeValue(at path: String) -> Observable<JSONValue> {
        base.observeValue(at: path).delay(latency, scheduler: scheduler)
    }

    func getValue(at path: String) -> Observable<JSONValue> {
        base.getValue(at: path).delay(latency, scheduler: scheduler)
    }

    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
    func childByAutoId() -> String { base.childByAutoId() }
}
