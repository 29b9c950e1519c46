/// Which endpoint a request path addresses.
enum Endpoint: Equatable {
    /// `/v1/projects/{project}/namespaces/{namespace}:fetch`.
    case remoteConfigFetch(project: String, namespace: String)
    /// `/v1/projects/{project}/namespaces/{namespace}:streamFetchInvalidations`.
    case remoteConfigRealtime(project: String, namespace: String)
    /// `/v1/projects/{project}/remoteConfig` (the Remote Config REST API's template).
    case remoteConfigTemplate(project: String)
    /// `/v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig` (the server template).
    case remoteConfigServerTemplate(project: String)
    /// `/v1/projects/{project}/installations`.
    case installationsCreate(project: String)
    /// `/v1/projects/{project}/installations/{fid}/authTokens:generate`.
    case installationsAuthToken(project: String, fid: String)
    /// `/{path}.json`: `path` is the part before `.json` (not yet validated).
    case database(path: String)
    /// `/identitytoolkit.googleapis.com/v1/accounts:{method}` (the client Auth API).
    case authClient(method: String)
    /// `/identitytoolkit.googleapis.com/v1/projects/{project}/accounts` (`method` empty) or
    /// `…/accounts:{method}` (the Admin Auth API).
    case authAdmin(project: String, method: String)
    /// `/emulator/v1/projects/{project}/{resource}` (the Auth emulator's own `accounts`, `config`).
    case authEmulator(project: String, resource: String)
    /// `/securetoken.googleapis.com/v1/token` (ID token refresh).
    case authTokenRefresh
    /// Anything else.
    case unknown

    /// The prefix a `redirect307` fault sends clients to; it is stripped before routing.
    static let redirectPrefix = "/__redirected"

    /// Routes a percent-decoded path (without the redirect prefix).
    init(path: String) {
        if let auth = Self.auth(path) {
            self = auth
            return
        }
        if path.hasPrefix("/v1/projects/") {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            // ["", "v1", "projects", project, "installations"]
            // ["", "v1", "projects", project, "installations", fid, "authTokens:generate"]
            if parts.count >= 5, parts[4] == "installations", !parts[3].isEmpty {
                let project = String(parts[3])
                if parts.count == 5 {
                    self = .installationsCreate(project: project)
                } else if parts.count == 7, !parts[5].isEmpty, parts[6] == "authTokens:generate" {
                    self = .installationsAuthToken(project: project, fid: String(parts[5]))
                } else {
                    self = .unknown
                }
                return
            }
            // ["", "v1", "projects", project, "remoteConfig"]
            if parts.count == 5, parts[4] == "remoteConfig", !parts[3].isEmpty {
                self = .remoteConfigTemplate(project: String(parts[3]))
                return
            }
            // ["", "v1", "projects", project, "namespaces", "firebase-server", "serverRemoteConfig"]
            if parts.count == 7, parts[4] == "namespaces", parts[5] == "firebase-server", parts[6] == "serverRemoteConfig", !parts[3].isEmpty {
                self = .remoteConfigServerTemplate(project: String(parts[3]))
                return
            }
            // ["", "v1", "projects", project, "namespaces", "namespace:method"]
            if parts.count == 6, parts[4] == "namespaces", !parts[3].isEmpty, let colon = parts[5].lastIndex(of: ":") {
                let project = String(parts[3])
                let namespace = String(parts[5][..<colon])
                switch parts[5][parts[5].index(after: colon)...] {
                case "fetch": self = .remoteConfigFetch(project: project, namespace: namespace)
                case "streamFetchInvalidations": self = .remoteConfigRealtime(project: project, namespace: namespace)
                default: self = .unknown
                }
                return
            }
            self = .unknown
            return
        }
        if path.hasSuffix(".json") {
            self = .database(path: String(path.dropLast(".json".count)))
            return
        }
        self = .unknown
    }

    /// The endpoint family, `nil` for `.unknown`.
    var route: FirebaseTestServer.Route? {
        switch self {
        case .remoteConfigFetch: return .remoteConfigFetch
        case .remoteConfigRealtime: return .remoteConfigRealtime
        case .remoteConfigTemplate: return .remoteConfigTemplate
        case .remoteConfigServerTemplate: return .remoteConfigServerTemplate
        case .installationsCreate: return .installationsCreate
        case .installationsAuthToken: return .installationsAuthToken
        case .database: return .database
        case .authClient, .authAdmin, .authEmulator: return .auth
        case .authTokenRefresh: return .authTokenRefresh
        case .unknown: return nil
        }
    }

    /// The Auth endpoint `path` addresses, if any.
    private static func auth(_ path: String) -> Endpoint? {
        if path == "/securetoken.googleapis.com/v1/token" { return .authTokenRefresh }
        let toolkit = "/identitytoolkit.googleapis.com/v1/"
        if path.hasPrefix(toolkit + "accounts:") {
            return .authClient(method: String(path.dropFirst((toolkit + "accounts:").count)))
        }
        if path.hasPrefix(toolkit + "projects/") {
            // [project, "accounts" or "accounts:method"]
            let parts = path.dropFirst((toolkit + "projects/").count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { return .unknown }
            if parts[1] == "accounts" { return .authAdmin(project: String(parts[0]), method: "") }
            guard parts[1].hasPrefix("accounts:") else { return .unknown }
            return .authAdmin(project: String(parts[0]), method: String(parts[1].dropFirst("accounts:".count)))
        }
        if path.hasPrefix("/emulator/v1/projects/") {
            let parts = path.dropFirst("/emulator/v1/projects/".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { return .unknown }
            return .authEmulator(project: String(parts[0]), resource: String(parts[1]))
        }
        return nil
    }

    /// Splits the redirect prefix off `path`: the path to route, and whether it was there.
    static func strippingRedirect(_ path: String) -> (path: String, redirected: Bool) {
        guard path == redirectPrefix || path.hasPrefix(redirectPrefix + "/") else { return (path, false) }
        let rest = String(path.dropFirst(redirectPrefix.count))
        return (rest.isEmpty ? "/" : rest, true)
    }
}
