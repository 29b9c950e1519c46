import Foundation
import Streams

/// A local-first ``RealtimeDatabase``: every write is visible to this client's observers at
/// once, before the server answers, and writes made while the server is unreachable are
/// queued and sent, in order, when it is back (the Firebase SDK's model, on top of any
/// ``RealtimeDatabase`` that talks to the server, such as ``FirebaseRESTDatabase``).
///
///     let database = LocalFirstRealtimeDatabase(remote: rest, scheduler: MainScheduler.instance)
///     database.observeChildEvents(of: database.query(at: "g"))   // sees the write below at once
///     database.push(["text": "hi"], at: "g").subscribe()          // completes when acknowledged
///
/// Observers read a local cache: the server's data for the locations being observed (or kept
/// synced with `keepSynced(_:_:)`), with the writes not yet acknowledged layered on top in the
/// order they were issued. A server event never hides a pending write; a write the server
/// rejects disappears from the cache (observers see the state revert) and its observable fails
/// with the server's error. Writes are sent one at a time, in order; one that fails because the
/// server is unreachable (`RealtimeDatabaseError.network`, or a retryable
/// ``FirebaseRESTDatabaseError``) stays queued and is sent again after a backoff, or at once
/// when the server is seen again. `goOffline()` and `goOnline()` cut and restore the
/// connection; `observeValue(at: ".info/connected")` and `pendingWriteCount` report it.
///
/// With `persistence: .file(directory:maximumCacheSize:)` the pending writes (each on disk before
/// it is first sent) and the cached data of synced locations survive a restart: the writes are
/// sent again in order (exactly once in effect, except a server-value increment whose
/// acknowledgement was lost, which is at-least-once), and observers of a cached location get
/// its value at once, then the server's. Files that cannot be used are reported as a
/// ``RealtimeDatabasePersistenceError`` by every operation and `persistenceError`.
///
/// Over a ``FirebaseRESTDatabase`` signed in through a ``FirebaseAuth`` (`auth: .user(auth)`),
/// the cache and the pending writes belong to one user: each user gets their own (with `.file`,
/// in `directory/users/user-<uid>/`, `users/signed-out/` for no one), the signed-in user's
/// being current. A user change (sign-out, another account) takes the previous user's database
/// offline, keeping its pending writes for when that user signs in again (after a relaunch
/// too), and moves every observer to the new user's data; a write is only ever sent with its
/// own user's token, and no user is shown another's cache.
///
/// - Note: Delivers on `scheduler`, values one tick after the change on a `TestScheduler`. See
///   <doc:RealtimeDatabaseGuide#Local-first-writes-and-offline>.
public final class LocalFirstRealtimeDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: all mutable state lives in `state` and is only touched inside `state.withLock`,
    // whose bodies never call out: they record effects, which `transact` runs after leaving the
    // lock, one at a time and in the order they were recorded. The other stored properties are
    // immutable references to thread-safe objects (databases and schedulers are thread-safe by
    // contract; `random` is `@Sendable`).
    private let remote: any RealtimeDatabase
    private let scheduler: SchedulerType
    /// The server's data with the pending writes on top: what observers read.
    private let cache: InMemoryRealtimeDatabase
    /// `connected`, `pendingWriteCount` and `syncs/s<id>` (each observed location's status).
    private let info: InMemoryRealtimeDatabase
    private let random: @Sendable () -> Double
    /// Why every operation fails (files that cannot be used), if it does.
    private let unavailable: RealtimeDatabasePersistenceError?
    /// The files, with `RealtimeDatabasePersistence.file`.
    private let store: LocalFirstStore?
    private let state: LockedState<State>
    /// One database per user, when `remote` signs in through a ``FirebaseAuth``; this object
    /// then forwards every operation to the signed-in user's.
    private let users: LocalFirstUsers?

    /// The limits every path and value is checked against (Firebase's by default).
    public let limits: RealtimeDatabaseLimits

    /// Creates a local-first database over `remote`, the database that talks to the server.
    ///
    /// - Parameters:
    ///   - remote: The server's database (``FirebaseRESTDatabase``, or an
    ///     ``InMemoryRealtimeDatabase`` standing in for it in tests). A ``FirebaseRESTDatabase``
    ///     with `auth: .user(auth)` makes the cache and the pending writes per user (see the
    ///     type's documentation).
    ///   - persistence: Where the cache and the pending writes live: memory (`.none`), or files
    ///     (`.file`), read here: the cached locations show at once and the pending writes are
    ///     queued again, in order. Files that cannot be used make every operation fail with a
    ///     ``RealtimeDatabasePersistenceError`` (also in `persistenceError`).
    ///   - scheduler: Where observers receive values and writes complete.
    ///   - reconnectBackoff: How long to wait before trying an unreachable server again.
    ///   - random: The jitter source for `reconnectBackoff` (a draw in `[0, 1)`).
    ///   - limits: The depth and key length limits (Firebase's by default).
    public convenience init(
        remote: any RealtimeDatabase, persistence: RealtimeDatabasePersistence = .none, scheduler: SchedulerType,
        reconnectBackoff: BackoffPolicy = .default, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        limits: RealtimeDatabaseLimits = .firebase
    ) {
        guard let rest = remote as? FirebaseRESTDatabase, rest.pin == nil, let auth = rest.core.userAuth else {
            self.init(
                remote: remote, opened: Self.open(persistence, owner: nil, limits: limits), users: nil, scheduler: scheduler,
                reconnectBackoff: reconnectBackoff, random: random, limits: limits)
            return
        }
        let users = LocalFirstUsers(auth: auth) { uid, offline in
            var userPersistence = persistence
            if case .file(let directory, let maximumCacheSize) = persistence {
                userPersistence = .file(directory: LocalFirstUsers.directory(for: uid, in: directory), maximumCacheSize: maximumCacheSize)
            }
            return LocalFirstRealtimeDatabase(
                remote: rest.pinned(to: uid) ?? rest, opened: LocalFirstRealtimeDatabase.open(userPersistence, owner: .some(uid), limits: limits), users: nil,
                startsOffline: offline, scheduler: scheduler, reconnectBackoff: reconnectBackoff, random: random, limits: limits)
        }
        self.init(remote: remote, opened: Opened(), users: users, scheduler: scheduler, reconnectBackoff: reconnectBackoff, random: random, limits: limits)
    }

    /// A database over `remote` starting from what `opened` restored (offline, as after
    /// `goOffline()`, when `startsOffline`); with `users`, one that forwards every operation to
    /// the signed-in user's database.
    private init(
        remote: any RealtimeDatabase, opened: Opened, users: LocalFirstUsers?, startsOffline: Bool = false, scheduler: SchedulerType,
        reconnectBackoff: BackoffPolicy,
        random: @escaping @Sendable () -> Double, limits: RealtimeDatabaseLimits
    ) {
        self.remote = remote
        self.scheduler = scheduler
        self.limits = limits
        self.random = random
        self.users = users
        cache = InMemoryRealtimeDatabase(scheduler: scheduler, limits: limits)
        info = InMemoryRealtimeDatabase(scheduler: scheduler)
        store = opened.store
        unavailable = opened.failure
        var initial = State(backoff: ReconnectBackoff(policy: reconnectBackoff))
        initial.persists = opened.store != nil
        initial.isOffline = startsOffline
        initial.publishedConnected = !startsOffline
        state = LockedState(initial)
        try? info.setValue(.bool(!startsOffline), at: InfoPath.connected)
        try? info.setValue(0, at: InfoPath.pendingWriteCount)
        transact { state in
            for (location, value) in opened.cache { state.serverValue(value, at: location) }
            for (write, changes, issuedAt) in opened.writes {
                _ = state.issue(write, changes, observer: nil, now: issuedAt, restored: true)
            }
        }
    }

    /// Why the files of `RealtimeDatabasePersistence.file` cannot be used (every operation then
    /// fails with it), or the first failure to write them since (a write that could not be stored
    /// failed with it; cached data may not have been stored); `nil` when all is well or with
    /// `.none`. See ``RealtimeDatabasePersistenceError`` for how to discard the files.
    public var persistenceError: RealtimeDatabasePersistenceError? {
        if let users { return users.current.value.persistenceError }
        return unavailable ?? store?.failure
    }

    // MARK: - Connection

    /// The number of writes issued and not yet acknowledged or rejected by the server: the
    /// current count, then every change.
    /// - Note: Delivers on the scheduler.
    public var pendingWriteCount: Observable<Int> {
        if let users { return users.observe { $0.pendingWriteCount } }
        return info.observeValue(at: InfoPath.pendingWriteCount).map { value in
            if case .number(let count) = value { return Int(count) }
            return 0
        }
    }

    /// Disconnects from the server (Firebase's `goOffline()`): observations stop receiving
    /// server changes but keep the cache, and writes are queued, until `goOnline()`.
    ///
    /// A write in flight is sent again after `goOnline()` (the server may then apply it twice,
    /// which changes nothing except for an increment, as with Firebase's SDK).
    public func goOffline() {
        if let users { return users.goOffline() }
        transact { $0.goOffline() }
    }

    /// Reconnects after `goOffline()` (Firebase's `goOnline()`): every observation resumes and
    /// reconciles the cache with the server, and the queued writes are sent in order.
    public func goOnline() {
        if let users { return users.goOnline() }
        transact { $0.goOnline() }
    }

    /// Keeps the data at `path` synced with the server while no one observes it (Firebase's
    /// `keepSynced(_:)`), so that a later observer starts from the cache at once; `false`
    /// stops it. Calling it twice with the same flag does nothing more; an invalid path is
    /// ignored.
    public func keepSynced(_ path: String, _ enabled: Bool) {
        if let users { return users.keepSynced(path, enabled) }
        guard unavailable == nil, let location = try? RealtimeDatabasePath(path, limits: limits) else { return }
        transact { $0.keepSynced(location, enabled) }
    }

    // MARK: - Reading

    /// Observes the value at `path` in the local cache: the value once the server's data for it
    /// has arrived (or at once when it is cached and synced), then the value after every change,
    /// local writes included as soon as they are issued.
    ///
    ///     server: x=1; this client sets x=2 @300; the server acknowledges @305
    ///     observeValue(at: "x"):  (server data) 1 ... 301: 2     (no event on the acknowledgement)
    ///
    /// `".info/connected"` observes the connection instead: `.bool(true)` while the server is
    /// reachable and online, `.bool(false)` after `goOffline()` or a failed request.
    /// - Returns: A sequence that never completes; it fails with a path error, or with the
    ///   server's error when it refuses the observation (e.g. permission denied).
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide#Local-first-writes-and-offline>.
    public func observeValue(at path: String) -> Observable<JSONValue> {
        if let users { return users.observe { $0.observeValue(at: path) } }
        if path == InfoPath.connectedPath { return info.observeValue(at: InfoPath.connected) }
        return synced(path, validate: nil) { [cache] in cache.observeValue(at: path) }
    }

    /// Reads the value at `path` once, from the cache once the server's data for it is there
    /// (pending writes included), then completes. `".info/connected"` reads the connection.
    /// - Note: Delivers on the scheduler.
    public func getValue(at path: String) -> Observable<JSONValue> {
        if let users { return users.observe { $0.observeValue(at: path) }.take(1) }
        if path == InfoPath.connectedPath { return info.getValue(at: InfoPath.connected) }
        return observeValue(at: path).take(1)
    }

    /// Observes the value a query selects, evaluated on the local cache of its location (the
    /// whole location is synced), so local writes show at once.
    /// - Note: Delivers on the scheduler.
    public func observeValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        if let users { return users.observe { $0.observeValue(of: query) } }
        return synced(query.path, validate: query) { [cache] in cache.observeValue(of: query) }
    }

    /// Reads the value a query selects once, from the cache (see `observeValue(of:)`).
    /// - Note: Delivers on the scheduler.
    public func getValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        observeValue(of: query).take(1)
    }

    /// Observes the children a query selects, in its order, on the local cache.
    /// - Note: Delivers on the scheduler.
    public func observeChildren(of query: RealtimeDatabaseQuery) -> Observable<[RealtimeDatabaseChild]> {
        if let users { return users.observe { $0.observeChildren(of: query) } }
        return synced(query.path, validate: query) { [cache] in cache.observeChildren(of: query) }
    }

    /// Observes a query's children as child events on the local cache (previous keys included),
    /// so a local write raises its events at once; a rejected write raises the events that undo
    /// it.
    /// - Note: Delivers on the scheduler.
    public func observeChildEvents(of query: RealtimeDatabaseQuery) -> Observable<RealtimeDatabaseChildEvent> {
        if let users { return users.observe { $0.observeChildEvents(of: query) } }
        return synced(query.path, validate: query) { [cache] in cache.observeChildEvents(of: query) }
    }

    /// Syncs `path` with the server while subscribed, and switches to `local()` once its data
    /// has arrived (or fails with the server's error).
    private func synced<Element>(_ path: String, validate query: RealtimeDatabaseQuery?, local: @escaping () -> Observable<Element>) -> Observable<Element> {
        Observable.create { [self] observer in
            let location: RealtimeDatabasePath
            do {
                if let unavailable { throw unavailable }
                try query?.validate(limits: limits)
                location = try RealtimeDatabasePath(path, limits: limits)
            } catch {
                return cache.deliver(.error(error), to: observer)
            }
            let cached = store?.isCached(location) ?? false
            let id = transact { $0.acquireSync(location, cached: cached) }
            let subscription = info.observeValue(at: InfoPath.sync(id))
                .distinctUntilChanged()
                .flatMapLatest { [weak self] status -> Observable<Element> in
                    switch status {
                    case "loaded": return local()
                    case "failed": return .error(self?.state.withLock { $0.syncs[id]?.error } ?? RealtimeDatabaseError.network(message: "sync ended"))
                    default: return .never()
                    }
                }
                .subscribe(observer)
            return Disposables.create { [weak self] in
                subscription.dispose()
                self?.transact { $0.releaseSync(id) }
            }
        }
    }

    // MARK: - Writing

    /// Applies `write` to the local cache at once when subscribed (observers see it on the
    /// scheduler's next tick), queues it for the server, and emits `()` and completes when the
    /// server acknowledges it.
    ///
    ///     this client: setValue(x=2) @300, server down until 400 (retry every 50)
    ///     observeValue(at: "x"):  301: 2
    ///     the write:              ~450: () |   (when the server acknowledges it)
    ///
    /// Server values resolve locally at once (the timestamp from the scheduler's clock, the
    /// estimated server time; an increment from the cached value) and are replaced by the
    /// server's values when its data arrives.
    /// - Returns: A cold sequence; it fails with a ``RealtimeDatabaseError`` for an invalid
    ///   write (nothing is written), or with the server's error when the server rejects it (the
    ///   cache reverts). Disposing it does not cancel the write, which has been issued.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide#Local-first-writes-and-offline>.
    public func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        if let users { return users.whenSubscribed { $0.perform(write) } }
        return Observable.create { [self] observer in
            let changes: [Change]
            do {
                if let unavailable { throw unavailable }
                changes = try Self.validated(write, limits: limits)
            } catch {
                return cache.deliver(.error(error), to: observer)
            }
            let now = changes.contains { !$0.placeholders.isEmpty } ? scheduler.now : Date(timeIntervalSince1970: 0)
            let id = transact { $0.issue(write, changes, observer: observer, now: now) }
            return Disposables.create { [weak self] in self?.transact { $0.detach(id) } }
        }
    }

    /// A new push ID from the remote database (Firebase's `childByAutoId().key`).
    public func childByAutoId() -> String {
        remote.childByAutoId()
    }

    /// Runs the transaction on the server (the remote database's `runTransaction`), then
    /// stores the committed value in the cache.
    ///
    /// Unlike Firebase's SDK the transaction is not latency-compensated nor queued: it needs the
    /// server, and fails with its error (e.g. `RealtimeDatabaseError.network`) when unreachable.
    /// - Note: Delivers on the remote's scheduler.
    public func runTransaction(at path: String, update: @escaping (JSONValue) throws -> JSONValue?) -> Single<RealtimeDatabaseTransactionResult> {
        if let users { return users.whenSubscribed { $0.runTransaction(at: path, update: update).asObservable() }.asSingle() }
        if let unavailable { return Single.error(unavailable) }
        guard let location = try? RealtimeDatabasePath(path, limits: limits) else {
            return remote.runTransaction(at: path, update: update)
        }
        return remote.runTransaction(at: path, update: update)
            .asObservable()
            .do(onNext: { [weak self] result in
                guard result.committed else { return }
                self?.transact { $0.serverValue(result.value, at: location) }
            })
            .asSingle()
    }

    /// The changes `write` makes (normalized, server values still as placeholders).
    static func validated(_ write: RealtimeDatabaseWrite, limits: RealtimeDatabaseLimits) throws -> [Change] {
        switch write {
        case .setValue(let value, let path):
            let location = try RealtimeDatabasePath(path, limits: limits)
            var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
            let normalized = try RealtimeDatabaseTree.normalized(value, at: location, limits: limits, placeholders: &placeholders)
            return [Change(location: location, value: normalized, placeholders: placeholders)]
        case .updateChildValues(let values, let path):
            return try RealtimeDatabaseUpdate.writes(values, at: path, limits: limits).map {
                Change(location: $0.location, value: $0.value, placeholders: $0.placeholders)
            }
        case .removeValue(let path):
            return [Change(location: try RealtimeDatabasePath(path, limits: limits), value: .null, placeholders: [])]
        }
    }

    // MARK: - Effects

    /// Changes the state under the lock, then runs the effects it recorded, after leaving the
    /// lock and in order. One caller at a time runs effects: one arriving meanwhile (another
    /// thread, or a reentrant call from an effect) leaves its effects to that caller.
    @discardableResult
    private func transact<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, drains) = state.withLock { state -> (Result, Bool) in
            let result = body(&state)
            if state.isRunningEffects || state.effects.isEmpty { return (result, false) }
            state.isRunningEffects = true
            return (result, true)
        }
        guard drains else { return result }
        while let effect = state.withLock({ state -> Effect? in
            if let effect = state.effects.popFirst() { return effect }
            state.isRunningEffects = false
            return nil
        }) {
            run(effect)
        }
        return result
    }

    private func run(_ effect: Effect) {
        switch effect {
        case .updateCache(let changes):
            if changes.count == 1 || changes.contains(where: { $0.location.isRoot }) {
                for (location, value) in changes { try? cache.setValue(value, at: location.description) }
            } else {
                let values = Dictionary(changes.map { ($0.location.segments.joined(separator: "/"), $0.value) }, uniquingKeysWith: { _, last in last })
                try? cache.updateChildValues(values, at: "/")
            }
        case .setInfo(let path, let value):
            try? info.setValue(value, at: path)
        case .subscribe(let id, let generation, let location):
            let subscription = remote.observeValue(at: location.description).subscribe { [weak self] event in
                self?.transact { $0.remoteEvent(event, sync: id, generation: generation) }
            }
            let kept = state.withLock { $0.keepSubscription(subscription, sync: id, generation: generation) }
            if !kept { subscription.dispose() }
        case .send(let id, let write):
            let subscription = remote.perform(write).subscribe { [weak self] event in
                guard let self else { return }
                let isUnreachable = event.error.map(Self.isUnreachable) ?? false
                transact { $0.sendEvent(event, write: id, isUnreachable: isUnreachable) }
            }
            let kept = state.withLock { $0.keepSending(subscription, write: id) }
            if !kept { subscription.dispose() }
        case .dispose(let disposable):
            disposable.dispose()
        case .finish(let observer, let error):
            _ = scheduler.schedule(error) { error in
                if let error {
                    observer.onError(error)
                } else {
                    observer.onNext(())
                    observer.onCompleted()
                }
                return Disposables.create()
            }
        case .retry(let generation, let attempt):
            let delay = state.withLock { $0.policy }.delay(forAttempt: attempt, random: random())
            let timer = scheduler.scheduleRelative(generation, dueTime: .milliseconds(Int((delay * 1000).rounded()))) { [weak self] generation in
                self?.transact { $0.retryFired(generation: generation) }
                return Disposables.create()
            }
            let kept = state.withLock { $0.keepRetryTimer(timer, generation: generation) }
            if !kept { timer.dispose() }
        case .persistWrite(let id, let write, let issuedAt):
            do {
                try store?.addWrite(id: id, write, issuedAt: issuedAt)
                transact { $0.durable(id) }
            } catch {
                transact { $0.notDurable(id, error: error) }
            }
        case .settlePersistedWrite(let id):
            store?.settleWrite(id: id)
        case .persistServerValue(let location, let value):
            store?.cache(value, at: location)
        case .persistUse(let location, let inUse):
            store?.use(location, inUse)
        case .expireEcho(let number):
            let timer = scheduler.scheduleRelative(number, dueTime: Self.echoTimeout) { [weak self] number in
                self?.transact { $0.echoExpired(number: number) }
                return Disposables.create()
            }
            let kept = state.withLock { $0.keepEchoTimer(timer, number: number) }
            if !kept { timer.dispose() }
        }
    }

    /// Whether `error` means the server could not be reached (so a write stays queued).
    static func isUnreachable(_ error: Error) -> Bool {
        if let error = error as? FirebaseRESTDatabaseError { return error.isRetryable }
        // No credential (a failed token refresh, an expired session, the user signing out
        // meanwhile): the write is not the server's to reject; it stays queued.
        if error is FirebaseAuthError || error is RESTUserChanged { return true }
        if case .network? = error as? RealtimeDatabaseError { return true }
        return false
    }
}

extension Event {
    fileprivate var error: Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}
