extension FirebaseTestServer {
    /// How the server answers a Remote Config fetch whose `If-None-Match` equals the current
    /// ETag (set with `remoteConfigNoChangeResponse`).
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum NoChangeResponse: Sendable, Hashable {
        /// HTTP 304 Not Modified, no body (the default).
        case notModified
        /// HTTP 200 with `{"state":"NO_CHANGE","templateVersion":"N"}`.
        case noChangeState
    }
}
