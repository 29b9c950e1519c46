import Foundation

/// The Remote Config backend that talks to Firebase over HTTP: fetches with one
/// `POST …:fetch`, realtime invalidations over the long-lived `POST …:streamFetchInvalidations`
/// stream (see `RemoteConfigWire` for the wire format).
///
///     let backend = HTTPRemoteConfigBackend(project: "my-project", apiKey: apiKey, appID: "1:1234:ios:abcd")
///     let remoteConfig = RemoteConfig(backend: backend, scheduler: MainScheduler.instance)
///
/// - `fetch`: one request per subscription, cancelled on dispose. HTTP 429 fails with
///   `.rateLimited`, 500/503/504 with `.unavailable` (both start `RemoteConfig`'s throttling
///   backoff), other 4xx/5xx with `.http` and Google's error message, a malformed body with
///   `.invalidResponse`, and a network failure or a response slower than `fetchTimeout`
///   with `.network`. A 304 is `.noChange`.
/// - `realtimeInvalidations`: opens the stream when subscribed and emits one invalidation per
///   message (`featureDisabled` and `retryIntervalSeconds` included, for `RemoteConfig` to
///   honour). It never reconnects by itself: `RemoteConfig.configUpdates` does, with its own
///   backoff. A connection that cannot be established fails (`.rateLimited`, `.unavailable`
///   for 500/502/503/504, `.http`, `.network`); once the server answered 200, the end of the
///   stream (closed by the server, idle for longer than the transport allows, or cut) is a
///   completion, so the client starts its backoff over, as Firebase does (a message cut off
///   by the end of the connection is dropped). A malformed message fails with
///   `.invalidResponse` (`RemoteConfig` reports `.messageInvalid`).
/// - Limits: a fetch response or realtime message nesting JSON deeper than
///   `maximumJSONDepth` (512 by default) fails with `.jsonTooDeep(limit:)` (parsing is
///   linear and uses no stack per level); a realtime message growing past
///   `maximumRealtimeMessageSize` (1 MiB by default) fails with `.messageTooLarge(limit:)`,
///   which ends the stream (`RemoteConfig` reports `.messageInvalid`).
///
/// - Note: Results arrive on a `URLSession` delegate queue; `RemoteConfig` moves them to its
///   scheduler. See Guides/Networking.md.
public final class HTTPRemoteConfigBackend: RemoteConfigBackend {
    /// A random app instance ID created once per process; pass a persisted one to keep it
    /// across launches (Firebase uses the Installations ID).
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

    /// Creates a backend for one Firebase app.
    ///
    /// - Parameters:
    ///   - project: The Firebase project ID or number (the realtime endpoint wants the number).
    ///   - apiKey: The app's Web API key (`?key=`).
    ///   - appID: The Firebase app ID (`1:1234:ios:abcd`).
    ///   - appInstanceID: The installation ID (by default `processAppInstanceID`).
    ///   - appInstanceIDToken: The installation auth token, sent when set.
    ///   - namespace: The Remote Config namespace (`firebase` for app configs).
    ///   - fetchBaseURL: The fetch host (Firebase's by default; a test server's in tests).
    ///   - realtimeBaseURL: The realtime host (Firebase's by default).
    ///   - sdkVersion: The SDK version reported to the server.
    ///   - languageCode: The language reported to the server.
    ///   - fetchTimeout: How long a fetch may take (60 s by default, as Firebase's).
    ///   - maximumJSONDepth: The deepest JSON nesting a response may have
    ///     (`JSONValue.defaultMaximumDepth`, 512, by default).
    ///   - maximumRealtimeMessageSize: The most bytes of one realtime message (1 MiB by default).
    public convenience init(
        project: String,
        apiKey: String,
        appID: String,
        appInstanceID: String = HTTPRemoteConfigBackend.processAppInstanceID,
        appInstanceIDToken: String? = nil,
        namespace: String = "firebase",
        fetchBaseURL: URL = URL(string: "https://firebaseremoteconfig.googleapis.com")!,
        realtimeBaseURL: URL = URL(string: "https://firebaseremoteconfigrealtime.googleapis.com")!,
        sdkVersion: String = HTTPRemoteConfigBackend.defaultSDKVersion,
        languageCode: String = HTTPRemoteConfigBackend.defaultLanguageCode,
        fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout,
        maximumJSONDepth: Int = JSONValue.defaultMaximumDepth,
        maximumRealtimeMessageSize: Int = 1 << 20
    ) {
        self.init(
            wire: RemoteConfigWire(
                fetchBaseURL: fetchBaseURL,
                realtimeBaseURL: realtimeBaseURL,
                project: project,
                namespace: namespace,
                apiKey: apiKey,
                appID: appID,
                appInstanceID: appInstanceID,
                appInstanceIDToken: appInstanceIDToken,
                sdkVersion: sdkVersion,
                languageCode: languageCode,
                maximumJSONDepth: maximumJSONDepth
            ),
            fetchTimeout: fetchTimeout,
            maximumRealtimeMessageSize: maximumRealtimeMessageSize,
            transport: URLSessionTransport()
        )
    }

    /// Creates a backend speaking `wire` through `transport` (tests inject a scripted one).
    package init(wire: RemoteConfigWire, fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout, maximumRealtimeMessageSize: Int = 1 << 20, transport: any HTTPTransport) {
        self.wire = wire
        self.fetchTimeout = fetchTimeout
        self.maximumRealtimeMessageSize = maximumRealtimeMessageSize
        self.transport = transport
    }

    /// Sends one fetch request; see the type's documentation for the errors.
    public func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse> {
        let wire = self.wire
        return transport.send(wire.fetchRequest(request), timeout: fetchTimeout)
            .map { response in try wire.decodeFetchResponse(response, for: request) }
            .catch { error in Observable.error(Self.backendError(error)) }
    }

    /// Opens the realtime stream; see the type's documentation for how it ends.
    public func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation> {
        let stream = transport.stream(wire.realtimeRequest(lastKnownTemplateVersion: lastKnownTemplateVersion))
        let maximumJSONDepth = wire.maximumJSONDepth
        let maximumMessageSize = maximumRealtimeMessageSize
        return Observable.create { observer in
            var reader = RealtimeStreamReader(maximumJSONDepth: maximumJSONDepth, maximumMessageSize: maximumMessageSize)
            return stream.subscribe { event in
                for output in reader.read(event) { observer.on(output) }
            }
        }
    }

    /// A failure as a `RemoteConfigBackendError` (transport failures become `.network`).
    static func backendError(_ error: Error) -> RemoteConfigBackendError {
        if let error = error as? RemoteConfigBackendError { return error }
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
