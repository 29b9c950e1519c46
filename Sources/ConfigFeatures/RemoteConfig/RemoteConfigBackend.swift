import Foundation

/// The server side of Remote Config: fetches a template and streams template-version
/// invalidations.
///
/// Shaped like Firebase's REST protocol, so an HTTP backend can implement it directly:
/// `fetch` is one `POST …:fetch` (with `If-None-Match: eTag`), `realtimeInvalidations` is the
/// `…:streamFetchInvalidations` stream. ``InMemoryRemoteConfigBackend`` implements it for tests
/// and examples.
///
/// - `fetch` must emit exactly one response and complete, or fail with a
///   ``RemoteConfigBackendError`` (other errors are reported as `.network`). Disposing the
///   subscription cancels the request.
/// - `realtimeInvalidations` emits one invalidation per server message for as long as the
///   connection lives; an error or completion means the connection dropped. An error means the
///   connection could not be established or failed: the client retries `.rateLimited`,
///   `.network`, `.unavailable` for 502/503/504 and `.http` for 408, counting consecutive
///   errors and giving up after too many; any other error ends `configUpdates` at once (403 as
///   `.realtimeDisabled`). A completion means an established connection ended (the server
///   closed it, or it went idle), after which the client reconnects with a fresh backoff, as
///   Firebase resets its retries on every successful connection. Disposing it closes the
///   connection.
///
/// See <doc:RemoteConfigGuide>.
public protocol RemoteConfigBackend: Sendable {
    /// Fetches the current template (one response, then completion).
    func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse>

    /// Opens a realtime connection that announces new template versions.
    ///
    /// - Parameter lastKnownTemplateVersion: The client's last fetched template version (`nil`
    ///   before the first fetch); a server with a newer version announces it right away.
    func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation>
}

/// Why a fetch is made (Firebase's `X-Firebase-RC-Fetch-Type` header: `BASE/1`, `REALTIME/n`).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigFetchType: Sendable, Hashable {
    /// A fetch asked for by the app (`fetch`, `fetchAndActivate`).
    case base
    /// The `attempt`-th fetch (1-based) made after a realtime invalidation.
    case realtime(attempt: Int)
}

/// One fetch request.
public struct RemoteConfigFetchRequest: Sendable, Hashable {
    /// The ETag of the last fetched template (`If-None-Match`); `nil` before the first fetch.
    public var eTag: String?
    /// The template version of the last fetch; `nil` before the first fetch.
    public var lastKnownTemplateVersion: Int?
    /// Custom signals sent with the request (Firebase's `custom_signals`).
    public var customSignals: [String: String]
    /// Why the fetch is made.
    public var fetchType: RemoteConfigFetchType
    /// What the request says about the app instance, for the template's conditions (the REST
    /// body's `app_id`, `app_instance_id`, app-info fields, `analytics_user_properties`,
    /// `first_open_time`); ``InMemoryRemoteConfigBackend`` evaluates conditions with it.
    public var targeting: RemoteConfigTargeting

    /// Creates a request.
    public init(
        eTag: String? = nil, lastKnownTemplateVersion: Int? = nil, customSignals: [String: String] = [:], fetchType: RemoteConfigFetchType = .base,
        targeting: RemoteConfigTargeting = RemoteConfigTargeting()
    ) {
        self.eTag = eTag
        self.lastKnownTemplateVersion = lastKnownTemplateVersion
        self.customSignals = customSignals
        self.fetchType = fetchType
        self.targeting = targeting
    }
}

/// A fetch response, one case per Firebase fetch `state` (HTTP 304 maps to `.noChange`).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigFetchResponse: Sendable, Hashable {
    /// `UPDATE`: the fetched config is replaced by `entries`.
    case updated(entries: [String: String], templateVersion: Int?, eTag: String?)
    /// `NO_CHANGE` (or HTTP 304): the fetched config is kept.
    case noChange(templateVersion: Int?, eTag: String?)
    /// `NO_TEMPLATE`: no template is published; the fetched config becomes empty.
    case noTemplate(eTag: String?)
    /// `EMPTY_CONFIG`: the template has no parameters for this app; the fetched config becomes empty.
    case emptyConfig(templateVersion: Int?, eTag: String?)
}

/// A backend failure. `rateLimited` and `unavailable` are throttling signals (they start the
/// client's exponential backoff); the others are not.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigBackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// HTTP 429: too many requests.
    case rateLimited
    /// A server-side failure (HTTP 500, 503, 504; also 502 on the realtime stream).
    case unavailable(statusCode: Int)
    /// Any other HTTP failure (400, 401, 403, …): no backoff.
    case http(statusCode: Int, message: String)
    /// The request could not reach the server (no connection, DNS, TLS, reset).
    case network(message: String)
    /// The server answered with something that is not a valid response.
    case invalidResponse(message: String)
    /// The response nests JSON arrays and objects deeper than `limit` levels (the backend's
    /// `maximumJSONDepth`, `JSONValue.defaultMaximumDepth` by default); it was not read further.
    case jsonTooDeep(limit: Int)
    /// A realtime message grew past `limit` bytes (the backend's
    /// `maximumRealtimeMessageSize`, 1 MiB by default) before it ended, and the stream was
    /// ended; or a fetch response body grew past the transport's limit (16 MiB) and the
    /// request was cancelled.
    case messageTooLarge(limit: Int)
    /// The backend's endpoints mix this machine with remote hosts (or one cannot be used), so it
    /// sent nothing: see ``FirebaseEndpoints``.
    case misconfigured(FirebaseEndpointsError)

    /// `.unavailable(statusCode: statusCode)`.
    public static func unavailable(_ statusCode: Int) -> RemoteConfigBackendError { .unavailable(statusCode: statusCode) }
    /// `.network(message: message)`.
    public static func network(_ message: String) -> RemoteConfigBackendError { .network(message: message) }
    /// `.invalidResponse(message: message)`.
    public static func invalidResponse(_ message: String) -> RemoteConfigBackendError { .invalidResponse(message: message) }

    /// Whether the error asks the client to back off (rate limit or unavailable), as Firebase's
    /// HTTP 429/500/503/504 do.
    public var isThrottlingSignal: Bool {
        switch self {
        case .rateLimited, .unavailable: return true
        case .http, .network, .invalidResponse, .jsonTooDeep, .messageTooLarge, .misconfigured: return false
        }
    }

    /// A human-readable description.
    public var description: String {
        switch self {
        case .rateLimited: return "rate limited (HTTP 429)"
        case .unavailable(let code): return "service unavailable (HTTP \(code))"
        case .http(let code, let message): return "HTTP \(code): \(message)"
        case .network(let message): return "network: \(message)"
        case .invalidResponse(let message): return "invalid response: \(message)"
        case .jsonTooDeep(let limit): return "invalid response: JSON nested deeper than \(limit) levels"
        case .messageTooLarge(let limit): return "invalid response: message larger than \(limit) bytes"
        case .misconfigured(let error): return "not sent: \(error)"
        }
    }
}

/// One realtime message: the server's latest template version (Firebase's
/// `{"latestTemplateVersionNumber", "featureDisabled", "retryIntervalSeconds"}`).
public struct RemoteConfigInvalidation: Sendable, Hashable {
    /// The newest published template version.
    public var latestTemplateVersion: Int
    /// Whether the server disabled realtime updates for this app.
    public var featureDisabled: Bool
    /// How long the server asks the client to wait before reconnecting, if it says.
    public var retryInterval: TimeInterval?

    /// Creates an invalidation message.
    public init(latestTemplateVersion: Int, featureDisabled: Bool = false, retryInterval: TimeInterval? = nil) {
        self.latestTemplateVersion = latestTemplateVersion
        self.featureDisabled = featureDisabled
        self.retryInterval = retryInterval
    }
}
