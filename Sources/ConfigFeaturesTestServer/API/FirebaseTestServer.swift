import Foundation

/// A loopback HTTP/1.1 server that speaks Firebase's Remote Config client protocol and the
/// Realtime Database REST and streaming protocol from in-memory state, for tests.
///
/// It binds 127.0.0.1 on an ephemeral port when created and serves until `stop()` (or
/// `deinit`). Every connection carries one request (`Connection: close`). Point URLSession-based
/// clients at `remoteConfigBaseURL` and `databaseURL`, change the state through the Swift API
/// (`publishTemplate(_:)`, `setDatabaseValue(_:at:)`, …), inject faults with `inject(_:)`, and
/// observe what clients did with `requests`, `openStreamCount(route:)` and the `wait…` helpers.
///
///     let server = try FirebaseTestServer()
///     defer { server.stop() }
///     server.publishTemplate(["welcome": "hi"])
///     // POST \(server.remoteConfigFetchURL) → {"entries":{"welcome":"hi"},"state":"UPDATE","templateVersion":"1"}
///
/// Endpoints:
/// - `POST /v1/projects/{project}/namespaces/{namespace}:fetch?key={apiKey}`: the template
///   (`UPDATE`, `EMPTY_CONFIG`, `NO_TEMPLATE`), `ETag` header; a matching `If-None-Match` gets a
///   304 or a `NO_CHANGE` body (`remoteConfigNoChangeResponse`).
/// - `POST …:streamFetchInvalidations?key={apiKey}`: a long-lived streamed JSON array, `[`
///   then `{"latestTemplateVersionNumber":"N"}` (at once if newer than the body's
///   `lastKnownVersionNumber`), then `,{…}` per publication.
/// - `POST /v1/projects/{project}/installations` and `…/installations/{fid}/authTokens:generate`:
///   Firebase Installations (registration, auth-token refresh with `Authorization: FIS_v2
///   <refresh token>`; `deleteInstallation(_:)` and `revokeInstallationRefreshTokens()` make
///   refreshes answer 404 and 401; `requiresInstallationAuth` makes Remote Config check tokens).
/// - `GET|PUT|PATCH|POST|DELETE /{path}.json`: the Realtime Database REST API; `GET` with
///   `Accept: text/event-stream` streams `put`/`patch` events relative to the location.
///
/// A misbehaving client (malformed requests, hang-ups) never crashes the server: malformed
/// requests get a 400, broken connections are dropped, and SIGPIPE is never raised.
public final class FirebaseTestServer: Sendable {
    let engine: ServerEngine

    /// Binds 127.0.0.1 on an ephemeral port and starts serving.
    ///
    /// - Parameters:
    ///   - project: The project accepted in Remote Config paths.
    ///   - namespace: The namespace accepted in Remote Config paths.
    ///   - apiKey: The API key accepted in the `key` query parameter.
    /// - Throws: `FirebaseTestServerError` when the socket cannot be set up.
    public init(project: String = "demo-project", namespace: String = "firebase", apiKey: String = "test-api-key") throws(FirebaseTestServerError) {
        let listener = try Listener()
        engine = ServerEngine(listener: listener, project: project, namespace: namespace, apiKey: apiKey)
    }

    deinit { engine.stop() }

    /// Stops the server: closes the listener and every open connection (streams end), and
    /// waits until all of the server's threads have finished. Idempotent.
    public func stop() { engine.stop() }

    /// The project accepted in Remote Config paths.
    public var project: String { engine.configuration.project }

    /// The namespace accepted in Remote Config paths.
    public var namespace: String { engine.configuration.namespace }

    /// The API key accepted by Remote Config endpoints.
    public var apiKey: String { engine.configuration.apiKey }

    /// The TCP port the server listens on (on 127.0.0.1).
    public var port: Int { engine.configuration.port }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: engine.configuration.origin)! }

    /// The Remote Config host root (`baseURL`), in place of
    /// `https://firebaseremoteconfig.googleapis.com`; clients append `/v1/projects/…`.
    public var remoteConfigBaseURL: URL { baseURL }

    /// The full fetch URL: `…/v1/projects/{project}/namespaces/{namespace}:fetch?key={apiKey}`.
    public var remoteConfigFetchURL: URL { remoteConfigURL(method: "fetch") }

    /// The full realtime URL: `…/v1/projects/{project}/namespaces/{namespace}:streamFetchInvalidations?key={apiKey}`.
    public var remoteConfigRealtimeURL: URL { remoteConfigURL(method: "streamFetchInvalidations") }

    /// The Realtime Database root (`baseURL`), in place of `https://<db>.firebaseio.com`;
    /// clients append `/<path>.json`.
    public var databaseURL: URL { baseURL }

    private func remoteConfigURL(method: String) -> URL {
        let configuration = engine.configuration
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = configuration.port
        components.path = "/v1/projects/\(configuration.project)/namespaces/\(configuration.namespace):\(method)"
        components.queryItems = [URLQueryItem(name: "key", value: configuration.apiKey)]
        return components.url!
    }
}
