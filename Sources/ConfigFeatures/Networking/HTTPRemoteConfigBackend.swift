import Foundation

/// The Remote Config backend that talks to Firebase over HTTP: fetches with one
/// `POST …:fetch`, realtime invalidations over the long-lived `POST …:streamFetchInvalidations`
/// stream (see `RemoteConfigWire` for the wire format).
///
///     let backend = HTTPRemoteConfigBackend(project: "my-project", apiKey: apiKey, appID: "1:1234:ios:abcd")
///     let remoteConfig = RemoteConfig(backend: backend, scheduler: MainScheduler.instance)
///
/// - Identity: every request carries the app's Firebase installation ID (`app_instance_id`)
///   and its auth token (`app_instance_id_token`, `X-Goog-Firebase-Installations-Auth`) from
///   `installations`, which registers the installation on first use and refreshes the token
///   before it expires, as the SDKs do; percentile conditions and rollouts then keep the
///   user in the same bucket across launches. An Installations failure fails the fetch or
///   the connection (429 → `.rateLimited`, 5xx → `.unavailable`, others → `.http`).
/// - `fetch`: one request per subscription, cancelled on dispose. HTTP 429 fails with
///   `.rateLimited`, 500/503/504 with `.unavailable` (both start ``RemoteConfig``'s throttling
///   backoff), other 4xx/5xx with `.http` and Google's error message, a malformed body with
///   `.invalidResponse`, and a network failure or a response slower than `fetchTimeout`
///   with `.network`. A 304 is `.noChange`.
/// - `realtimeInvalidations`: opens the stream when subscribed and emits one invalidation per
///   message (`featureDisabled` and `retryIntervalSeconds` included, for ``RemoteConfig`` to
///   honour). It never reconnects by itself: `RemoteConfig.configUpdates` does, with its own
///   backoff. A connection that cannot be established fails (`.rateLimited`, `.unavailable`
///   for 500/502/503/504, `.http`, `.network`); once the server answered 200, the end of the
///   stream (closed by the server, idle for longer than the transport allows, or cut) is a
///   completion, so the client starts its backoff over, as Firebase does (a message cut off
///   by the end of the connection is dropped). A malformed message fails with
///   `.invalidResponse` (``RemoteConfig`` reports `.messageInvalid`).
/// - Limits: a fetch response or realtime message nesting JSON deeper than
///   `maximumJSONDepth` (512 by default) fails with `.jsonTooDeep(limit:)` (parsing is
///   linear and uses no stack per level); a realtime message growing past
///   `maximumRealtimeMessageSize` (1 MiB by default) fails with `.messageTooLarge(limit:)`,
///   which ends the stream (``RemoteConfig`` reports `.messageInvalid`).
///
/// - Note: Results arrive on a `URLSession` delegate queue; ``RemoteConfig`` moves them to its
///   scheduler. See <doc:Networking>.
public final class HTTPRemoteConfigBackend: RemoteConfigBackend {
    /// A random app instance ID created once per process, for `appInstanceID:` when an app
    /// deliberately does without Firebase Installations (by default the backend uses the
    /// installation ID, which survives launches).
    public static let processAppInstanceID = UUID().uuidString

    /// The SDK version reported by default (the Firebase Apple SDK generation whose protocol
    /// this backend speaks).
    public static let defaultSDKVersion = "11.0.0"

    /// The language reported by default: the user's first preferred language, else `en`.
    public static var defaultLanguageCode: String { Locale.preferredLanguages.first ?? "en" }

    /// How long a fetch may take before it fails with `.network`, in seconds.
    public let fetchTimeout: TimeInterval

    /// The deepest JSON nesting a response may have.
    public var maximumJSONDepth: Int { wire.maximumJSONDepth }

    /// The most bytes of one realtime message.
    public let maximumRealtimeMessageSize: Int

    let wire: RemoteConfigWire
    let transport: any HTTPTransport
    /// Where the instance ID and its token come from; `nil` when an explicit `appInstanceID`
    /// was given (then `wire`'s fixed ones are sent).
    public let installations: FirebaseInstallations?
    /// The ETag of the last fetch answered, sent as the realtime stream's `If-None-Match`.
    private let lastETag = LockedState<String?>(nil)
    /// Why this backend refuses to send anything (endpoints that mix this machine with remote
    /// hosts); every fetch and stream then fails with `.misconfigured` before any I/O.
    public let misconfiguration: FirebaseEndpointsError?

    /// Creates a backend for one Firebase app.
    ///
    /// - Parameters:
    ///   - project: The Firebase project ID or number (the realtime endpoint wants the number).
    ///   - apiKey: The app's Web API key (`?key=`).
    ///   - appID: The Firebase app ID (`1:1234:ios:abcd`).
    ///   - appInstanceID: A fixed app instance ID to send instead of the installation's (for
    ///     apps that manage their own identity; `processAppInstanceID` is one per process).
    ///     When set, no Installations request is made.
    ///   - appInstanceIDToken: With `appInstanceID`: the installation auth token to send.
    ///   - installations: The Firebase Installations client that supplies the installation ID
    ///     and its auth token for every request (registering or refreshing first when needed;
    ///     its failures fail the fetch or the connection, see
    ///     `Self.backendError(installations:)`). By default one for this app, over
    ///     `installationsBaseURL`, kept in `FileFirebaseInstallationsStorage.standard(appID:)`,
    ///     as Firebase's SDKs do.
    ///   - installationsBaseURL: The Installations host of the default client (Firebase's by
    ///     default). With a test server, prefer `init(project:apiKey:appID:endpoints:)`, which
    ///     points every host at it at once.
    ///   - namespace: The Remote Config namespace (`firebase` for app configs).
    ///   - fetchBaseURL: The fetch host (Firebase's by default).
    ///   - realtimeBaseURL: The realtime host (Firebase's by default).
    ///   - sdkVersion: The SDK version reported to the server.
    ///   - languageCode: The language reported to the server (by default `appInfo`'s).
    ///   - appInfo: What the app reports about itself: fetch fields and the app-identifier
    ///     header (`RemoteConfigAppInfo.current` by default).
    ///   - fetchTimeout: How long a fetch may take (60 s by default, as Firebase's).
    ///   - maximumJSONDepth: The deepest JSON nesting a response may have
    ///     (`JSONValue.defaultMaximumDepth`, 512, by default).
    ///   - maximumRealtimeMessageSize: The most bytes of one realtime message (1 MiB by default).
    ///
    /// The hosts the backend uses (fetch, realtime, and Installations' unless `appInstanceID` is
    /// given) must all be on this machine or all elsewhere: a mix, such as a test server's fetch
    /// host with Firebase's Installations host left as the default, is refused. The backend is
    /// then ``misconfiguration`` and every fetch and stream fails with
    /// ``RemoteConfigBackendError/misconfigured(_:)`` without sending anything.
    public convenience init(
        project: String,
        apiKey: String,
        appID: String,
        appInstanceID: String? = nil,
        appInstanceIDToken: String? = nil,
        installations: FirebaseInstallations? = nil,
        installationsBaseURL: URL = FirebaseInstallations.defaultBaseURL,
        namespace: String = "firebase",
        fetchBaseURL: URL = FirebaseEndpoints.production.remoteConfigFetch,
        realtimeBaseURL: URL = FirebaseEndpoints.production.remoteConfigRealtime,
        sdkVersion: String = HTTPRemoteConfigBackend.defaultSDKVersion,
        languageCode: String? = nil,
        appInfo: RemoteConfigAppInfo = .current,
        fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout,
        maximumJSONDepth: Int = JSONValue.defaultMaximumDepth,
        maximumRealtimeMessageSize: Int = 1 << 20
    ) {
        var used: [(name: String, url: URL)] = [("remoteConfigFetch", fetchBaseURL), ("remoteConfigRealtime", realtimeBaseURL)]
        if appInstanceID == nil { used.append(("installations", installations?.wire.baseURL ?? installationsBaseURL)) }
        var misconfiguration: FirebaseEndpointsError?
        do { try FirebaseEndpoints.validate(used) } catch { misconfiguration = error }
        let identity: FirebaseInstallations? =
            appInstanceID != nil
            ? nil
            : installations
                ?? FirebaseInstallations(
                    projectID: project,
                    apiKey: apiKey,
                    appID: appID,
                    appHeaders: appInfo.identifierHeaders,
                    baseURL: installationsBaseURL,
                    requestTimeout: fetchTimeout
                )
        self.init(
            wire: RemoteConfigWire(
                fetchBaseURL: fetchBaseURL,
                realtimeBaseURL: realtimeBaseURL,
                project: project,
                namespace: namespace,
                apiKey: apiKey,
                appID: appID,
                appInstanceID: appInstanceID ?? "",
                appInstanceIDToken: appInstanceID != nil ? appInstanceIDToken : nil,
                sdkVersion: sdkVersion,
                languageCode: languageCode,
                appInfo: appInfo,
                maximumJSONDepth: maximumJSONDepth
            ),
            fetchTimeout: fetchTimeout,
            maximumRealtimeMessageSize: maximumRealtimeMessageSize,
            transport: URLSessionTransport(),
            installations: identity,
            misconfiguration: misconfiguration
        )
    }

    /// Creates a backend for one Firebase app whose every host (fetch, realtime, Installations)
    /// comes from `endpoints`: `FirebaseEndpoints.emulator(port:)`, a `FirebaseTestServer`'s
    /// `endpoints`, or `.production`.
    ///
    ///     let backend = HTTPRemoteConfigBackend(project: "demo-project", apiKey: "test-api-key",
    ///                                           appID: "1:1:ios:1", endpoints: server.endpoints)
    ///
    /// With local endpoints the default Installations client keeps its record in memory, so a
    /// test writes nothing to disk. The other parameters are those of
    /// `init(project:apiKey:appID:appInstanceID:appInstanceIDToken:installations:installationsBaseURL:namespace:fetchBaseURL:realtimeBaseURL:sdkVersion:languageCode:appInfo:fetchTimeout:maximumJSONDepth:maximumRealtimeMessageSize:)`;
    /// an explicit `installations` client whose host is not with the others is refused as there.
    public convenience init(
        project: String,
        apiKey: String,
        appID: String,
        endpoints: FirebaseEndpoints,
        appInstanceID: String? = nil,
        appInstanceIDToken: String? = nil,
        installations: FirebaseInstallations? = nil,
        namespace: String = "firebase",
        sdkVersion: String = HTTPRemoteConfigBackend.defaultSDKVersion,
        languageCode: String? = nil,
        appInfo: RemoteConfigAppInfo = .current,
        fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout,
        maximumJSONDepth: Int = JSONValue.defaultMaximumDepth,
        maximumRealtimeMessageSize: Int = 1 << 20
    ) {
        self.init(
            project: project, apiKey: apiKey, appID: appID, appInstanceID: appInstanceID, appInstanceIDToken: appInstanceIDToken,
            installations: installations, installationsBaseURL: endpoints.installations, namespace: namespace,
            fetchBaseURL: endpoints.remoteConfigFetch, realtimeBaseURL: endpoints.remoteConfigRealtime, sdkVersion: sdkVersion,
            languageCode: languageCode, appInfo: appInfo, fetchTimeout: fetchTimeout, maximumJSONDepth: maximumJSONDepth,
            maximumRealtimeMessageSize: maximumRealtimeMessageSize)
    }

    /// Creates a backend speaking `wire` through `transport` (tests inject a scripted one).
    package init(
        wire: RemoteConfigWire, fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout, maximumRealtimeMessageSize: Int = 1 << 20,
        transport: any HTTPTransport, installations: FirebaseInstallations? = nil, misconfiguration: FirebaseEndpointsError? = nil
    ) {
        self.misconfiguration = misconfiguration
        self.installations = installations
        self.wire = wire
        self.fetchTimeout = fetchTimeout
        self.maximumRealtimeMessageSize = maximumRealtimeMessageSize
        self.transport = transport
    }

    /// Sends one fetch request; see the type's documentation for the errors.
    public func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse> {
        let transport = self.transport
        let fetchTimeout = self.fetchTimeout
        let lastETag = self.lastETag
        return currentWire().flatMap { wire in
            transport.send(wire.fetchRequest(request), timeout: fetchTimeout)
                .map { response in try wire.decodeFetchResponse(response, for: request) }
                .catch { error in Observable.error(Self.backendError(error)) }
        }
        .do(onNext: { response in
            switch response {
            case .updated(_, _, let eTag?), .noChange(_, let eTag?), .noTemplate(let eTag?), .emptyConfig(_, let eTag?):
                lastETag.withLock { $0 = eTag }
            default:
                break
            }
        })
    }

    /// `wire` with the installation's ID and token, once `installations` has them (or the
    /// misconfiguration, before any request is made).
    private func currentWire() -> Observable<RemoteConfigWire> {
        let wire = self.wire
        if let misconfiguration { return .error(RemoteConfigBackendError.misconfigured(misconfiguration)) }
        guard let installations else { return .just(wire) }
        return installations.installation().asObservable()
            .map { record in
                var current = wire
                current.appInstanceID = record.fid
                current.appInstanceIDToken = record.authToken?.token
                return current
            }
            .catch { error in Observable.error(Self.backendError(installations: error)) }
    }

    /// Opens the realtime stream; see the type's documentation for how it ends.
    public func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation> {
        let transport = self.transport
        let maximumJSONDepth = wire.maximumJSONDepth
        let maximumMessageSize = maximumRealtimeMessageSize
        let lastETag = self.lastETag
        return currentWire().flatMap { wire in
            let stream = transport.stream(wire.realtimeRequest(lastKnownTemplateVersion: lastKnownTemplateVersion, eTag: lastETag.withLock { $0 }))
            return Observable<RemoteConfigInvalidation>.create { observer in
                var reader = RealtimeStreamReader(maximumJSONDepth: maximumJSONDepth, maximumMessageSize: maximumMessageSize)
                return stream.subscribe { event in
                    for output in reader.read(event) { observer.on(output) }
                }
            }
        }
    }

    /// An Installations failure as a ``RemoteConfigBackendError``: 429 → `.rateLimited`, 5xx →
    /// `.unavailable` (both start ``RemoteConfig``'s throttling backoff), other HTTP errors →
    /// `.http` with the message, network → `.network`, a bad answer → `.invalidResponse`.
    static func backendError(installations error: Error) -> RemoteConfigBackendError {
        switch FirebaseInstallations.installationsError(error) {
        case .rateLimited: return .rateLimited
        case .unavailable(let status): return .unavailable(statusCode: status)
        case .http(let status, let message): return .http(statusCode: status, message: "Firebase Installations: \(message)")
        case .network(let message): return .network(message: "Firebase Installations: \(message)")
        case .invalidResponse(let message): return .invalidResponse(message: "Firebase Installations: \(message)")
        }
    }

    /// A failure as a ``RemoteConfigBackendError`` (transport failures become `.network`).
    static func backendError(_ error: Error) -> RemoteConfigBackendError {
        if let error = error as? RemoteConfigBackendError { return error }
        if case .responseTooLarge(let limit)? = error as? HTTPTransportError { return .messageTooLarge(limit: limit) }
        if let error = error as? HTTPTransportError { return .network(message: error.description) }
        return .network(message: "\(error)")
    }
}

/// Turns the transport's events of one realtime stream into invalidations (used on the
/// transport's serial event sequence only).
struct RealtimeStreamReader {
    private enum Phase {
        case awaitingResponse
        case streaming(RemoteConfigInvalidationDecoder)
        /// The status was not 200: the error body is kept (up to `errorBodyLimit`) until the
        /// exchange ends, so the error carries Google's message (for 403, where to enable the API).
        case failing(WireResponse)
        case done
    }

    /// The most of an error body kept for the message.
    private static let errorBodyLimit = 64 * 1024

    private var phase = Phase.awaitingResponse
    private let maximumJSONDepth: Int
    private let maximumMessageSize: Int

    init(maximumJSONDepth: Int = JSONValue.defaultMaximumDepth, maximumMessageSize: Int = RemoteConfigInvalidationDecoder.defaultMaximumObjectSize) {
        self.maximumJSONDepth = maximumJSONDepth
        self.maximumMessageSize = maximumMessageSize
    }

    /// The events to emit for `event` (a terminal one at most once, last).
    mutating func read(_ event: Event<HTTPStreamPart>) -> [Event<RemoteConfigInvalidation>] {
        if case .next(.data(let data)) = event, case .streaming = phase { return feed(data) }
        switch (phase, event) {
        case (.done, _):
            return []
        case (.awaitingResponse, .next(.response(let status, let headers))):
            if status == 200 {
                phase = .streaming(RemoteConfigInvalidationDecoder(maximumObjectSize: maximumMessageSize, maximumJSONDepth: maximumJSONDepth))
            } else {
                phase = .failing(WireResponse(statusCode: status, headers: headers))
            }
            return []
        case (.awaitingResponse, .next(.data)):
            return end(.error(RemoteConfigBackendError.invalidResponse(message: "realtime stream: body before the response")))
        case (.streaming, .next(.response)), (.failing, .next(.response)):
            return end(.error(RemoteConfigBackendError.invalidResponse(message: "realtime stream: a second response")))
        case (.streaming, .next(.data)):
            return []  // handled by `feed`, above
        case (.failing(var response), .next(.data(let data))):
            if response.body.count < Self.errorBodyLimit { response.body.append(data.prefix(Self.errorBodyLimit - response.body.count)) }
            phase = .failing(response)
            return []
        case (.streaming, .completed), (.streaming, .error):
            // The connection was established: its end is a completion (see
            // `RemoteConfigBackend`), whatever cut it; a message cut off by the end of the
            // connection is dropped (the next connection announces the latest version again).
            return end(.completed)
        case (.failing(let response), .completed), (.failing(let response), .error):
            return end(.error(RemoteConfigWire.realtimeStreamError(for: response) ?? .invalidResponse(message: "realtime stream: HTTP \(response.statusCode)")))
        case (.awaitingResponse, .completed):
            return end(.error(RemoteConfigBackendError.network(message: "the realtime connection closed without a response")))
        case (.awaitingResponse, .error(let error)):
            return end(.error(HTTPRemoteConfigBackend.backendError(error)))
        }
    }

    /// Feeds a chunk to the decoder, taken out of `phase` meanwhile: a copy bound from a live
    /// `phase` would share the decoder's buffer, and copy it on every chunk.
    private mutating func feed(_ data: Data) -> [Event<RemoteConfigInvalidation>] {
        guard case .streaming(var decoder) = phase else { return [] }
        phase = .done
        var outputs: [Event<RemoteConfigInvalidation>] = []
        for result in decoder.feed(data) {
            switch result {
            case .success(let invalidation): outputs.append(.next(invalidation))
            case .failure(let error): return outputs + end(.error(error))
            }
        }
        phase = .streaming(decoder)
        return outputs
    }

    private mutating func end(_ event: Event<RemoteConfigInvalidation>) -> [Event<RemoteConfigInvalidation>] {
        phase = .done
        return [event]
    }
}
