extension FirebaseTestServer {
    /// How the server answers a Remote Config fetch whose `If-None-Match` equals the current
    /// ETag (set with `remoteConfigNoChangeResponse`).
    public enum NoChangeResponse: Sendable, Hashable {
        /// HTTP 304 Not Modified, no body (the default).
        case notModified
        /// HTTP 200 with `{"state":"NO_CHANGE","templateVersion":"N"}`.
        case noChangeState
    }
}
