extension FirebaseTestServer {
    /// A family of endpoints, for faults, the request log and stream counts.
    public enum Route: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Remote Config `POST /v1/projects/{project}/namespaces/{namespace}:fetch`.
        case remoteConfigFetch
        /// Remote Config `POST /v1/projects/{project}/namespaces/{namespace}:streamFetchInvalidations`.
        case remoteConfigRealtime
        /// Realtime Database REST: `/{path}.json` with any method, streaming or not.
        case database

        /// The case name.
        public var description: String {
            switch self {
            case .remoteConfigFetch: return "remoteConfigFetch"
            case .remoteConfigRealtime: return "remoteConfigRealtime"
            case .database: return "database"
            }
        }
    }
}
