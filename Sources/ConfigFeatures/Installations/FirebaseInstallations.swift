import Foundation

/// Firebase Installations over HTTP: the installation ID (FID) Remote Config's conditions,
/// percentiles and rollouts key on, and the auth token that proves it.
///
///     let installations = FirebaseInstallations(projectID: "my-project", apiKey: apiKey, appID: "1:1234:ios:abcd")
///     installations.installation().subscribe(onSuccess: { record in print(record.fid) })
///
/// As Firebase's SDKs do, it
/// - generates an FID once (22 base64url characters whose first 4 bits are `0111`) and keeps
///   it in `storage`, so the app keeps its identity (and its rollout buckets) across launches;
/// - registers it (`POST …/installations`), using the FID the server returns;
/// - refreshes the auth token (`POST …/installations/{fid}/authTokens:generate`) once it
///   expires within `tokenRefreshMargin` (an hour), or when asked to;
/// - on 401 or 404 to a refresh (the installation was deleted or its refresh token revoked)
///   forgets it and registers a new one, once.
///
/// Concurrent callers share one request: while a registration or refresh is in flight, every
/// call waits for it. A storage that cannot be read, or holds a corrupt record, starts a new
/// installation (never a crash); one that cannot be written keeps the installation for the
/// process and tries again on the next change. Failures are ``FirebaseInstallationsError``s.
/// Tokens are never printed: `description`s of the records and tokens leave them out.
///
/// - Note: Results arrive on the transport's delegate queue. See <doc:Networking>.
public final class FirebaseInstallations: @unchecked Sendable {
    // Safety: the mutable state is in `state`, guarded by its lock, which is never held while
    // calling the storage, the transport or a subscriber. `wire`, `transport`, `storage`,
    // `requestTimeout` and `now` are immutable and `Sendable`.
    private struct State {
        /// The current record (loaded from `storage` by the first call).
        var record: FirebaseInstallationsRecord?
        /// The registration or refresh in flight, which every caller meanwhile joins.
        var pending: AsyncSubject<FirebaseInstallationsRecord>?
    }

    /// Firebase's Installations host.
    public static let defaultBaseURL = FirebaseInstallationsWire.defaultBaseURL

    /// The SDK version reported by default (the iOS SDK's form, `i:` and the version).
    public static let defaultSDKVersion = "i:\(HTTPRemoteConfigBackend.defaultSDKVersion)"

    /// How long before its expiry a token is refreshed (an hour, as the SDKs).
    public static let tokenRefreshMargin: TimeInterval = 60 * 60

    /// Where the record is kept.
    public let storage: any FirebaseInstallationsStorage

    package let wire: FirebaseInstallationsWire
    private let transport: any HTTPTransport
    private let requestTimeout: TimeInterval
    private let now: @Sendable () -> Date
    private let state = LockedState(State())

    /// Creates an Installations client for one Firebase app.
    ///
    /// - Parameters:
    ///   - projectID: The Firebase project ID or number.
    ///   - apiKey: The app's Web API key (`X-Goog-Api-Key`).
    ///   - appID: The Firebase app ID (`1:1234:ios:abcd`).
    ///   - storage: Where the record is kept. By default
    ///     `FileFirebaseInstallationsStorage.standard(appID:)`, in the user's
    ///     application-support directory, except when `baseURL` is on this machine (a test
    ///     server or emulator): then `InMemoryFirebaseInstallationsStorage`, so a test writes
    ///     nothing to disk unless it chose a storage.
    ///   - appHeaders: Headers that identify the app for API-key restrictions (by default
    ///     `RemoteConfigAppInfo.current.identifierHeaders`).
    ///   - baseURL: The Installations host (Firebase's by default; a test server's in tests).
    ///   - sdkVersion: The SDK version reported.
    ///   - requestTimeout: How long one request may take, in seconds.
    public convenience init(
        projectID: String,
        apiKey: String,
        appID: String,
        storage: (any FirebaseInstallationsStorage)? = nil,
        appHeaders: [String: String] = RemoteConfigAppInfo.current.identifierHeaders,
        baseURL: URL = FirebaseInstallations.defaultBaseURL,
        sdkVersion: String = FirebaseInstallations.defaultSDKVersion,
        requestTimeout: TimeInterval = 60
    ) {
        self.init(
            wire: FirebaseInstallationsWire(baseURL: baseURL, project: projectID, apiKey: apiKey, appID: appID, sdkVersion: sdkVersion, appHeaders: appHeaders),
            storage: storage
                ?? (FirebaseEndpoints.isLoopback(baseURL)
                    ? InMemoryFirebaseInstallationsStorage() : FileFirebaseInstallationsStorage.standard(appID: appID)),
            transport: URLSessionTransport(),
            requestTimeout: requestTimeout
        )
    }

    /// Creates a client speaking `wire` through `transport` (tests inject a scripted one and a
    /// clock).
    package init(
        wire: FirebaseInstallationsWire, storage: any FirebaseInstallationsStorage, transport: any HTTPTransport, requestTimeout: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.wire = wire
        self.storage = storage
        self.transport = transport
        self.requestTimeout = requestTimeout
        self.now = now
    }

    // MARK: - API

    /// The registered installation with a token valid for at least `tokenRefreshMargin`:
    /// registers or refreshes first if needed (or if `forcingRefresh`).
    public func installation(forcingRefresh: Bool = false) -> Single<FirebaseInstallationsRecord> {
        Observable.deferred { [self] () -> Observable<FirebaseInstallationsRecord> in
            let now = self.now()
            enum Plan {
                case ready(FirebaseInstallationsRecord)
                case join(AsyncSubject<FirebaseInstallationsRecord>)
                case start(AsyncSubject<FirebaseInstallationsRecord>)
            }
            let plan = state.withLock { state -> Plan in
                if let pending = state.pending { return .join(pending) }
                if !forcingRefresh, let record = state.record, Self.isUsable(record, at: now) { return .ready(record) }
                let subject = AsyncSubject<FirebaseInstallationsRecord>()
                state.pending = subject
                return .start(subject)
            }
            switch plan {
            case .ready(let record):
                return .just(record)
            case .join(let pending):
                return pending.asObservable()
            case .start(let subject):
                // Not cancelled by the callers: a registration runs to its end and is kept.
                _ = refreshed(forcingRefresh: forcingRefresh).subscribe { [self] event in
                    if event.isStopEvent { state.withLock { $0.pending = nil } }
                    subject.on(event)
                }
                return subject.asObservable()
            }
        }
        .asSingle()
    }

    /// The installation ID of the registered installation (registers first if needed).
    public func installationID() -> Single<String> {
        installation().map(\.fid)
    }

    /// A token valid for at least `tokenRefreshMargin` (refreshed first if needed, or if
    /// `forcingRefresh`).
    public func authToken(forcingRefresh: Bool = false) -> Single<FirebaseInstallationsAuthToken> {
        installation(forcingRefresh: forcingRefresh).map { record in
            guard let token = record.authToken else { throw FirebaseInstallationsError.invalidResponse(message: "no auth token") }
            return token
        }
    }

    // MARK: - FIDs

    /// A new FID by the SDKs' rule: 16 random bytes behind a byte whose first 4 bits are
    /// `0111`, base64url-encoded, cut to 22 characters (132 bits).
    public static func generateFID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 17)
        for index in 1..<17 { bytes[index] = generator.next() }
        bytes[0] = 0b0111_0000 | (bytes[16] & 0b0000_1111)
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        return String(base64.prefix(22))
    }

    /// Whether `fid` has an FID's form: 22 base64url characters, the first 4 bits `0111` (so
    /// the first character is `c`, `d`, `e` or `f`).
    public static func isValidFID(_ fid: String) -> Bool {
        let utf8 = Array(fid.utf8)
        guard utf8.count == 22, let first = utf8.first, (UInt8(ascii: "c")...UInt8(ascii: "f")).contains(first) else { return false }
        return utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    // MARK: - Registration and refresh

    private static func isUsable(_ record: FirebaseInstallationsRecord, at now: Date) -> Bool {
        guard record.isRegistered, let token = record.authToken else { return false }
        return token.expirationDate.timeIntervalSince(now) > tokenRefreshMargin
    }

    /// Loads (or starts) the record, then registers it or refreshes its token as needed.
    private func refreshed(forcingRefresh: Bool) -> Observable<FirebaseInstallationsRecord> {
        Observable.deferred { [self] in
            let record = currentRecord()
            guard let refreshToken = record.refreshToken else { return register(record) }
            if !forcingRefresh, Self.isUsable(record, at: now()) { return .just(record) }
            let wire = self.wire
            return send(wire.generateAuthTokenRequest(fid: record.fid, refreshToken: refreshToken)) { response, now in
                var updated = record
                updated.authToken = try wire.decodeAuthTokenResponse(response, now: now)
                return updated
            }
            .do(onNext: { [self] in keep($0) })
            .catch { [self] error in
                // Deleted on the server (404) or refresh token revoked (401): start over, once.
                guard case .http(let status, _)? = error as? FirebaseInstallationsError, status == 401 || status == 404 else { throw error }
                try? storage.remove()
                let fresh = FirebaseInstallationsRecord(fid: Self.generateFID(), appID: wire.appID)
                keep(fresh)
                return register(fresh)
            }
        }
    }

    private func register(_ record: FirebaseInstallationsRecord) -> Observable<FirebaseInstallationsRecord> {
        let wire = self.wire
        return send(wire.createRequest(fid: record.fid)) { response, now in try wire.decodeCreateResponse(response, now: now) }
            .do(onNext: { [self] in keep($0) })
    }

    /// The record in memory, else the stored one (of this app), else a new unregistered one.
    private func currentRecord() -> FirebaseInstallationsRecord {
        if let record = state.withLock({ $0.record }) { return record }
        let stored = (try? storage.load()).flatMap { $0 }.flatMap { $0.appID == wire.appID ? $0 : nil }
        let record = stored ?? FirebaseInstallationsRecord(fid: Self.generateFID(), appID: wire.appID)
        if stored == nil { try? storage.save(record) }
        state.withLock { state in
            if state.record == nil { state.record = record }
        }
        return record
    }

    /// Makes `record` current and saves it (a failed save is retried with the next change).
    private func keep(_ record: FirebaseInstallationsRecord) {
        state.withLock { $0.record = record }
        try? storage.save(record)
    }

    private func send<Output>(_ request: WireRequest, decode: @escaping @Sendable (WireResponse, Date) throws -> Output) -> Observable<Output> {
        let now = self.now
        return transport.send(request, timeout: requestTimeout)
            .map { response in try decode(response, now()) }
            .catch { error in Observable.error(Self.installationsError(error)) }
    }

    /// A failure as a ``FirebaseInstallationsError`` (transport failures become `.network`).
    static func installationsError(_ error: Error) -> FirebaseInstallationsError {
        if let error = error as? FirebaseInstallationsError { return error }
        if let error = error as? HTTPTransportError { return .network(message: error.description) }
        return .network(message: "\(error)")
    }
}
