extension FirebaseTestServer {
    /// A family of endpoints, for faults, the request log and stream counts.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Route: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Remote Config `POST /v1/projects/{project}/namespaces/{namespace}:fetch`.
        case remoteConfigFetch
        /// Remote Config `POST /v1/projects/{project}/namespaces/{namespace}:streamFetchInvalidations`.
        case remoteConfigRealtime
        /// The Remote Config REST API's template, `GET|PUT /v1/projects/{project}/remoteConfig`
        /// (reading and publishing it).
        case remoteConfigTemplate
        /// The server template, `GET|PUT /v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig`
        /// (what firebase-admin's `get_server_template()` reads).
        case remoteConfigServerTemplate
        /// Firebase Installations `POST /v1/projects/{project}/installations` (registration).
        case installationsCreate
        /// Firebase Installations `POST /v1/projects/{project}/installations/{fid}/authTokens:generate`.
        case installationsAuthToken
        /// Realtime Database REST: `/{path}.json` with any method, streaming or not.
        case database
        /// Firebase Authentication: `/identitytoolkit.googleapis.com/v1/…` (client and Admin
        /// API) and the emulator's `/emulator/v1/projects/{project}/…`.
        case auth
        /// Firebase Authentication's ID token refresh, `POST /securetoken.googleapis.com/v1/token`.
        case authTokenRefresh

        /// The case name.
        public var description: String {
            switch self {
            case .remoteConfigFetch: return "remoteConfigFetch"
            case .remoteConfigRealtime: return "remoteConfigRealtime"
            case .remoteConfigTemplate: return "remoteConfigTemplate"
            case .remoteConfigServerTemplate: return "remoteConfigServerTemplate"
            case .installationsCreate: return "installationsCreate"
            case .installationsAuthToken: return "installationsAuthToken"
            case .database: return "database"
            case .auth: return "auth"
            case .authTokenRefresh: return "authTokenRefresh"
            }
        }
    }
}
