import ConfigFeatures
import Foundation

/// A loopback HTTP/1.1 server that speaks Firebase's Remote Config client protocol and the
/// Realtime Database REST and streaming protocol from in-memory state, for tests.
///
/// It binds 127.0.0.1 on an ephemeral port (or the `port` you ask for) when created and serves until `stop()` (or
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
/// - `GET|PUT /v1/projects/{project}/remoteConfig`: the Remote Config REST API's template in
///   Firebase's JSON (`RemoteConfigTemplate`): `PUT` publishes it as `publishTemplate(_:)` does
///   (announced on every realtime stream); `If-Match` (optional) must be `*` or the current
///   ETag, else 409; `?validateOnly=true` only checks it. No credentials are checked.
/// - `POST /v1/projects/{project}/installations` and `…/installations/{fid}/authTokens:generate`:
///   Firebase Installations (registration, auth-token refresh with `Authorization: FIS_v2
///   <refresh token>`; `deleteInstallation(_:)` and `revokeInstallationRefreshTokens()` make
///   refreshes answer 404 and 401; `requiresInstallationAuth` makes Remote Config check tokens).
/// - `GET|PUT|PATCH|POST|DELETE /{path}.json`: the Realtime Database REST API; `GET` with
///   `Accept: text/event-stream` streams `put`/`patch` events relative to the location.
///   `Authorization: Bearer owner` (`adminToken`) is always accepted, as by Firebase's emulator.
/// - `POST /identitytoolkit.googleapis.com/v1/accounts:{signUp|signInWithPassword|signInWithCustomToken|lookup|update|delete}`,
///   `POST /securetoken.googleapis.com/v1/token`, the Admin API's `…/v1/projects/{project}/accounts…`
///   and the emulator's `/emulator/v1/projects/{project}/{accounts|config}`: Firebase
///   Authentication as its emulator serves it (unsigned ID tokens, an auth clock tests move with
///   `advanceAuthClock(by:)`; see `createUser(email:password:)`).
///
/// A request for another project or with another API key is answered in Google's error shape,
/// and the message says which project and key the server accepts.
///
/// A misbehaving client (malformed requests, hang-ups) never crashes the server: malformed
/// requests get a 400, broken connections are dropped, and SIGPIPE is never raised.
public final class FirebaseTestServer: Sendable {
    let engine: ServerEngine

    /// The project accepted by default: `demo-project`.
    public static let defaultProject = "demo-project"

    /// The namespace accepted by default: `firebase`.
    public static let defaultNamespace = "firebase"

    /// The API key accepted by default: `test-api-key`.
    public static let defaultAPIKey = "test-api-key"

    /// The token the Firebase emulators treat as the admin, `owner`: the Admin SDKs in emulator
    /// mode send `Authorization: Bearer owner`. Database requests presenting it are accepted
    /// whether or not `requireDatabaseAuth(validTokens:)` is in force (until `revokeAuth(_:)`
    /// revokes it).
    public static let adminToken = "owner"

    /// Binds 127.0.0.1 on `port` (by default an ephemeral one) and starts serving.
    ///
    /// - Parameters:
    ///   - project: The project accepted in Remote Config and Installations paths.
    ///   - namespace: The namespace accepted in Remote Config paths.
    ///   - apiKey: The API key accepted in the `key` query parameter (or `X-Goog-Api-Key`).
    ///   - port: The TCP port to listen on; 0 (the default) lets the system pick a free one.
    /// - Throws: `FirebaseTestServerError.portInUse` when another socket has `port`,
    ///   `.invalidPort` when it is not in 0...65535, another case when the socket cannot be set up.
    public init(
        project: String = FirebaseTestServer.defaultProject, namespace: String = FirebaseTestServer.defaultNamespace,
        apiKey: String = FirebaseTestServer.defaultAPIKey, port: Int = 0
    ) throws(FirebaseTestServerError) {
        let listener = try Listener(port: port)
        engine = ServerEngine(listener: listener, project: project, namespace: namespace, apiKey: apiKey)
    }

    deinit { engine.stop() }

    /// Stops the server: closes the listener and every open connection (streams end), and
    /// waits until all of the server's threads have finished. Idempotent.
    public func stop() { engine.stop() }

    /// Whether rejections say what the server accepts (`true` by default): a wrong API key,
    /// project or namespace is answered with Google's message followed by the key, project or
    /// namespace this server accepts, and an unknown path lists the endpoints. Set it to `false`
    /// to answer with Google's message alone, as a real project does (for tests that stand the
    /// server in for a project and check that its key is never shown).
    public var explainsRejections: Bool {
        get { engine.read { $0.explainsRejections } }
        set { engine.mutate { state, _ in state.explainsRejections = newValue } }
    }

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

    /// Every endpoint a client uses (Remote Config fetch and realtime, Installations, the
    /// Auth emulator's Identity Toolkit and Secure Token paths, the Realtime Database) at this
    /// server, so nothing of a test reaches a production host:
    /// `HTTPRemoteConfigBackend(project:apiKey:appID:endpoints:)`,
    /// `FirebaseRESTDatabase(endpoints:scheduler:)`, `FirebaseAuth(apiKey:endpoints:scheduler:)`.
    public var endpoints: FirebaseEndpoints {
        // One loopback origin for all: valid by construction.
        FirebaseEndpoints(
            checked: (
                remoteConfigFetch: baseURL, remoteConfigRealtime: baseURL, installations: baseURL,
                identityToolkit: baseURL.appendingPathComponent("identitytoolkit.googleapis.com"),
                secureToken: baseURL.appendingPathComponent("securetoken.googleapis.com"), database: databaseURL
            ))
    }

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
