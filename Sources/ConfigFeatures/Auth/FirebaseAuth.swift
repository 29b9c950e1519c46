import Foundation

/// Firebase Authentication over its REST protocol (Identity Toolkit v1 and Secure Token v1):
/// anonymous, email-and-password and custom-token sign-in, the signed-in user, and a valid ID
/// token for the other Firebase clients. An API key is all it needs.
///
///     let auth = FirebaseAuth(apiKey: apiKey, endpoints: server.endpoints, scheduler: MainScheduler.instance)
///     auth.signIn(email: "ada@example.com", password: password).subscribe(onSuccess: { user in print(user.uid) })
///     auth.idToken().subscribe(onSuccess: { token in /* send it as the user's credential */ })
///
/// - Sign-in: ``signInAnonymously()``, ``createUser(email:password:)``,
///   ``signIn(email:password:)``, ``signIn(customToken:)`` (a token the app's backend minted).
///   Each replaces the current user; the last answer to arrive wins. Disposing the single
///   before the answer cancels the request and leaves the user as it was.
/// - ``idToken(forcingRefresh:)``: the cached ID token while it is fresh, else a new one from the
///   refresh token. Firebase's ID tokens live an hour; one is refreshed 5 minutes
///   (``tokenRefreshMargin``) before it expires. One refresh is in flight however many callers
///   ask; `forcingRefresh` joins a refresh in flight rather than starting a second.
/// - A refresh refused with `TOKEN_EXPIRED`, `INVALID_REFRESH_TOKEN` or `INVALID_ID_TOKEN`
///   signs the user out and fails with ``FirebaseAuthError/sessionExpired``; with
///   `USER_NOT_FOUND` or `USER_DISABLED` it signs the user out and fails with
///   ``FirebaseAuthError/userNotFound`` or ``FirebaseAuthError/userDisabled`` (the app can tell
///   the user why). A network failure or HTTP 5xx keeps the user signed in and fails that call.
/// - ``authState`` replays the current user (or `nil`) to each subscriber, then emits on every
///   sign-in, sign-out, deletion and session expiry.
/// - Persistence: with a ``FileFirebaseAuthStorage`` the session survives launches; the default
///   ``InMemoryFirebaseAuthStorage`` keeps nothing. The session is loaded once, in the initializer.
///
/// Time is the scheduler's (`scheduler.now`), so token expiry runs on virtual time in tests.
/// Tokens, passwords and the API key never appear in a `description`, a `dump`, an error or a log.
///
/// - Note: Results of requests (and the ``authState`` changes they cause) are delivered on
///   `scheduler`. See <doc:Authentication>.
public final class FirebaseAuth: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // Safety: the mutable state is in `state`, guarded by its lock, which is never held while
    // calling the storage, the transport, a scheduler or an observer. The other properties are
    // immutable and `Sendable`, except `scheduler`: `SchedulerType` is not declared `Sendable`,
    // but schedulers are made to be called from any thread (the only reason for `unchecked`).

    /// How long before its expiry an ID token is refreshed: 5 minutes, as Firebase's SDKs do.
    public static let tokenRefreshMargin: TimeInterval = 5 * 60

    /// Where the session is kept.
    public let storage: any FirebaseAuthStorage
    /// Where requests go (``FirebaseEndpoints/identityToolkit`` and ``FirebaseEndpoints/secureToken``).
    public let endpoints: FirebaseEndpoints

    let wire: FirebaseAuthWire
    private let transport: any HTTPTransport
    private let scheduler: SchedulerType
    private let requestTimeout: TimeInterval
    private let state: LockedState<FirebaseAuthState>

    /// Creates a client for one Firebase project, signed in as the session `storage` holds (if any).
    ///
    /// - Parameters:
    ///   - apiKey: The project's Web API key (Firebase console › Project settings); with a test
    ///     server or emulator, any key it accepts.
    ///   - endpoints: Where requests go: ``FirebaseEndpoints/production``, or a test server's or
    ///     emulator's (``FirebaseEndpoints/emulator(host:port:databaseNamespace:)``).
    ///   - scheduler: Where results are delivered, and whose clock (`now`) decides when a token
    ///     expires.
    ///   - storage: Where the session is kept across launches; by default in memory only (the user
    ///     is signed out on every launch). A session that cannot be loaded leaves the client signed
    ///     out and is reported by ``storageError``; it is not deleted.
    ///   - requestTimeout: How long one request may take, in seconds.
    public convenience init(
        apiKey: String, endpoints: FirebaseEndpoints, scheduler: SchedulerType, storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage(),
        requestTimeout: TimeInterval = 60
    ) {
        self.init(
            apiKey: apiKey, endpoints: endpoints, scheduler: scheduler, storage: storage, transport: URLSessionTransport(), requestTimeout: requestTimeout)
    }

    /// Creates a client speaking through `transport` (tests inject a scripted one).
    package init(
        apiKey: String, endpoints: FirebaseEndpoints, scheduler: SchedulerType, storage: any FirebaseAuthStorage, transport: any HTTPTransport,
        requestTimeout: TimeInterval = 60
    ) {
        self.endpoints = endpoints
        self.wire = FirebaseAuthWire(identityToolkit: endpoints.identityToolkit, secureToken: endpoints.secureToken, apiKey: apiKey)
        self.storage = storage
        self.transport = transport
        self.scheduler = scheduler
        self.requestTimeout = requestTimeout
        var initial = FirebaseAuthState()
        do {
            initial.session = try storage.load()
        } catch {
            initial.storageError = Self.storageError(error)
        }
        self.state = LockedState(initial)
    }

    // MARK: - The user

    /// The signed-in user, `nil` when signed out.
    public var currentUser: FirebaseUser? {
        state.withLock { $0.session?.user }
    }

    /// The signed-in user now (or `nil`) on subscription, then the user after every change:
    /// each sign-in (even of the same user), ``signOut()``, ``deleteUser()``, and a session that
    /// expired on refresh. Never completes or fails.
    ///
    ///     auth.authState:  u1----u2----nil----u3--    (subscribed while u1 is signed in)
    ///
    /// Emissions are serialized: never concurrent, in the order of the changes, across all
    /// threads (a change made while an observer runs is delivered after it returns).
    ///
    /// - Note: The replay arrives on the subscribing thread, synchronously; a change arrives on
    ///   the thread that made it: `scheduler` for the results of requests, the caller's for
    ///   ``signOut()``.
    public var authState: Observable<FirebaseUser?> {
        Observable.create { [self] observer in
            let id = state.withLock { $0.subscribe(observer) }
            drain()
            return Disposables.create { [state] in state.withLock { $0.observers[id] = nil } }
        }
    }

    /// The latest failure of ``storage``: a session that could not be loaded in the initializer
    /// (the client then starts signed out and leaves the stored session alone until the next
    /// sign-in replaces it), or a save or removal that failed (the client carries on with its
    /// session in memory and writes again on the next change). `nil` when all went well.
    public var storageError: FirebaseAuthStorageError? {
        state.withLock { $0.storageError }
    }

    // MARK: - Signing in and out

    /// Creates a new anonymous account and signs in as it (`accounts:signUp`).
    ///
    /// - Returns: The new user (``FirebaseUser/isAnonymous`` is `true`), once signed in.
    public func signInAnonymously() -> Single<FirebaseUser> {
        signIn(wire.signUpRequest(), kind: .anonymous, secrets: [])
    }

    /// Creates an account with `email` and `password` and signs in as it (`accounts:signUp`).
    ///
    /// - Returns: The new user, or ``FirebaseAuthError/emailAlreadyInUse``,
    ///   ``FirebaseAuthError/weakPassword``, ``FirebaseAuthError/invalidEmail``, ….
    public func createUser(email: String, password: String) -> Single<FirebaseUser> {
        signIn(wire.signUpRequest(email: email, password: password), kind: .password(email: email), secrets: [password])
    }

    /// Signs in with an existing account's `email` and `password` (`accounts:signInWithPassword`).
    ///
    /// - Returns: The user, or ``FirebaseAuthError/invalidCredential``,
    ///   ``FirebaseAuthError/userDisabled``, ``FirebaseAuthError/tooManyRequests``, ….
    public func signIn(email: String, password: String) -> Single<FirebaseUser> {
        signIn(wire.signInWithPasswordRequest(email: email, password: password), kind: .password(email: email), secrets: [password])
    }

    /// Signs in with a custom token minted by the app's backend with the Admin SDK
    /// (`accounts:signInWithCustomToken`). The answer names no user: the user is read from the new
    /// ID token's payload (`user_id`, `email`, `firebase.sign_in_provider`).
    ///
    /// - Returns: The user, or ``FirebaseAuthError/invalidCustomToken``, ….
    public func signIn(customToken: String) -> Single<FirebaseUser> {
        signIn(wire.signInWithCustomTokenRequest(token: customToken), kind: .customToken, secrets: [customToken])
    }

    /// Signs out: forgets the session here and in ``storage`` (the tokens are not revoked on the
    /// server, as with Firebase's SDKs). ``authState`` emits `nil` if a user was signed in.
    public func signOut() {
        state.withLock { $0.end() }
        drain()
    }

    /// Deletes the signed-in user's account (`accounts:delete`, with a fresh ID token), then signs
    /// out. On failure the user stays signed in.
    ///
    /// - Returns: Completes once deleted; fails with ``FirebaseAuthError/notSignedIn``,
    ///   ``FirebaseAuthError/requiresRecentLogin``, ``FirebaseAuthError/network(message:)``, ….
    public func deleteUser() -> Completable {
        let wire = self.wire
        return redactedIDToken(forcingRefresh: false)
            .flatMap { [self] token -> Observable<Void> in
                exchange(wire.deleteRequest(idToken: token.value)) { response, _ in try wire.decodeDelete(response, idToken: token.value) }
                    .do(onNext: { [self] in
                        state.withLock { state in
                            if state.generation == token.generation { state.end() }
                        }
                        drain()
                    })
            }
            .ignoreElements()
            .asCompletable()
    }

    // MARK: - The ID token

    /// A valid ID token of the signed-in user: the cached one while it is fresh (it expires more
    /// than ``tokenRefreshMargin`` from `scheduler.now`), else a new one from Secure Token.
    ///
    /// While a refresh is in flight every caller joins it (one request however many ask).
    ///
    /// - Parameter forcingRefresh: Refresh even if the cached token is fresh (joining a refresh
    ///   already in flight).
    /// - Returns: The token, or ``FirebaseAuthError/notSignedIn``,
    ///   ``FirebaseAuthError/sessionExpired`` (the user was signed out), ….
    /// - Note: A cached token is delivered at once on the subscribing thread; a refreshed one on
    ///   `scheduler`.
    public func idToken(forcingRefresh: Bool = false) -> Single<String> {
        // One step from the redacted token to the string, so that only the element handed to the
        // subscriber is a bare token (see `RedactedIDToken`), in a chain the stream inspector
        // records as `<redacted>` (with every operator the subscriber adds to it).
        let token = redactedIDToken(forcingRefresh: forcingRefresh)
        return Observable.create { observer in
            token.subscribe(
                onNext: { redacted in
                    observer.onNext(redacted.value)
                    observer.onCompleted()
                }, onError: { observer.onError($0) })
        }
        .redactedInInspector()
        .asSingle()
    }

    /// The token, with the sign-in it belongs to (so a deletion signs out only that one); the
    /// database asks for it this way, so its requests' chains keep their values visible in the
    /// stream inspector while the token itself prints as `<redacted>`.
    func redactedIDToken(forcingRefresh: Bool) -> Observable<RedactedIDToken> {
        Observable.deferred { [self] () -> Observable<RedactedIDToken> in
            let now = scheduler.now
            let plan = state.withLock { $0.planToken(forcingRefresh: forcingRefresh, now: now, margin: Self.tokenRefreshMargin) }
            switch plan {
            case .signedOut:
                return .error(FirebaseAuthError.notSignedIn)
            case .ready(let token):
                return .just(token)
            case .join(let refresh):
                return joined(refresh)
            case .start(let refresh, let session):
                startRefresh(refresh, of: session)
                return joined(refresh)
            }
        }
    }

    /// The result of `refresh`; a refresh made stale by a change of user is retried for the new one.
    private func joined(_ refresh: FirebaseAuthState.Refresh) -> Observable<RedactedIDToken> {
        refresh.subject.asObservable()
            .catch { [self] error in
                guard error is FirebaseAuthState.StaleRefresh else { throw error }
                return redactedIDToken(forcingRefresh: false)
            }
    }

    /// Sends the refresh request; applies its answer (or signs out) and completes `refresh`.
    /// Callers do not cancel it: a refresh runs to its end, and its token is kept.
    private func startRefresh(_ refresh: FirebaseAuthState.Refresh, of session: FirebaseAuthSession) {
        let wire = self.wire
        _ = exchange(wire.refreshRequest(refreshToken: session.refreshToken)) { response, now in try wire.decodeRefresh(response, of: session, now: now) }
            .subscribe { [self] event in
                let outcome: Result<RedactedIDToken, Error>
                switch event {
                case .next(let renewed):
                    outcome = state.withLock { $0.finishRefresh(refresh, with: .success(renewed)) }
                case .error(let error):
                    outcome = state.withLock { $0.finishRefresh(refresh, with: .failure(Self.authError(error))) }
                case .completed:
                    return
                }
                drain()
                switch outcome {
                case .success(let token):
                    refresh.subject.onNext(token)
                    refresh.subject.onCompleted()
                case .failure(let error):
                    refresh.subject.onError(error)
                }
            }
    }

    // MARK: - Requests

    private func signIn(_ request: WireRequest, kind: FirebaseAuthWire.SignInKind, secrets: [String]) -> Single<FirebaseUser> {
        let wire = self.wire
        return exchange(request) { response, now in try wire.decodeSignIn(response, kind: kind, now: now, secrets: secrets) }
            .map { [self] session in
                state.withLock { $0.begin(session) }
                drain()
                return session.user
            }
            .asSingle()
    }

    /// Sends `request`, then decodes the answer (with the scheduler's time) and delivers the
    /// result on the scheduler, in one step.
    private func exchange<Output>(_ request: WireRequest, decode: @escaping (WireResponse, Date) throws -> Output) -> Observable<Output> {
        let scheduler = self.scheduler
        let send = transport.send(request, timeout: requestTimeout)
        return Observable.create { observer in
            let delivery = SerialDisposable()
            let response = LockedState<WireResponse?>(nil)
            let exchange = send.subscribe { event in
                let outcome: Result<WireResponse, FirebaseAuthError>
                switch event {
                case .next(let answer):
                    response.withLock { $0 = answer }
                    return
                case .error(let error):
                    outcome = .failure(Self.authError(error))
                case .completed:
                    guard let answer = response.withLock({ $0 }) else {
                        outcome = .failure(.network(message: "the connection closed without a response"))
                        break
                    }
                    outcome = .success(answer)
                }
                delivery.disposable = scheduler.schedule(outcome) { outcome in
                    do {
                        observer.onNext(try decode(try outcome.get(), scheduler.now))
                        observer.onCompleted()
                    } catch {
                        observer.onError(error)
                    }
                    return Disposables.create()
                }
            }
            return Disposables.create(exchange, delivery)
        }
    }

    /// Runs the persistence and ``authState`` work queued under the lock, in order, outside it;
    /// returns at once if another thread is already doing so (it will run what was queued).
    private func drain() {
        guard state.withLock({ $0.startDraining() }) else { return }
        while let work = state.withLock({ $0.nextWork() }) {
            switch work {
            case .save(let session):
                let failure: FirebaseAuthStorageError?
                do {
                    if let session { try storage.save(session) } else { try storage.remove() }
                    failure = nil
                } catch {
                    failure = Self.storageError(error)
                }
                state.withLock { $0.storageError = failure }
            case .emit(let observers, let user):
                for observer in observers { observer.onNext(user) }
            }
        }
    }

    /// A failure as a ``FirebaseAuthError`` (transport failures become `.network`).
    static func authError(_ error: Error) -> FirebaseAuthError {
        if let error = error as? FirebaseAuthError { return error }
        if let error = error as? HTTPTransportError { return .network(message: error.description) }
        return .network(message: String(describing: type(of: error)))
    }

    /// A storage failure as a ``FirebaseAuthStorageError``.
    static func storageError(_ error: Error) -> FirebaseAuthStorageError {
        (error as? FirebaseAuthStorageError) ?? .io(String(describing: error))
    }

    // MARK: - Printing

    /// The signed-in user and the hosts; never a token or the API key.
    public var description: String {
        "FirebaseAuth(user: \(currentUser.map { "\($0)" } ?? "none"), identityToolkit: \(endpoints.identityToolkit.absoluteString))"
    }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// The signed-in user and the endpoints only (what `dump` shows), so no credential is printed.
    public var customMirror: Mirror {
        Mirror(self, children: ["currentUser": currentUser as Any, "endpoints": endpoints], displayStyle: .class)
    }
}
