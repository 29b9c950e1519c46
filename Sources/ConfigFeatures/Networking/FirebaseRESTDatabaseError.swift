/// Why a request to the Firebase Realtime Database REST API failed.
///
/// Invalid paths and values are still reported as ``RealtimeDatabaseError`` before anything is
/// sent, and so is server data past the database's ``RealtimeDatabaseLimits`` (`.pathTooDeep`,
/// `.keyTooLong`); this error covers the rest of what happens on the wire.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseRESTDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// HTTP 401 or 403, or a stream `cancel` event: the security rules (or a missing or
    /// invalid credential) do not allow the operation.
    case permissionDenied(message: String)
    /// HTTP 400: the server rejected the data or the request (its `error` message).
    case invalidData(message: String)
    /// HTTP 5xx: the server is unavailable right now; retrying later may succeed.
    case unavailable(statusCode: Int, message: String)
    /// Any other unsuccessful HTTP status (404, 412, 429, …).
    case http(statusCode: Int, message: String)
    /// The server revoked the credential of a stream (`auth_revoked`): reconnect with a fresh
    /// token.
    case authRevoked(message: String)
    /// The request could not reach the server (no connection, DNS, TLS, reset).
    case network(message: String)
    /// The server answered with something that is not a valid response (malformed JSON or
    /// stream event).
    case invalidResponse(message: String)

    /// Whether retrying the same request later may succeed (unavailable, network failures,
    /// HTTP 408 and 429).
    public var isRetryable: Bool {
        switch self {
        case .unavailable, .network: return true
        case .http(let status, _): return status == 408 || status == 429
        case .permissionDenied, .invalidData, .authRevoked, .invalidResponse: return false
        }
    }

    /// A human-readable description.
    public var description: String {
        switch self {
        case .permissionDenied(let message): return "permission denied: \(message)"
        case .invalidData(let message): return "invalid data: \(message)"
        case .unavailable(let status, let message): return "service unavailable (HTTP \(status)): \(message)"
        case .http(let status, let message): return "HTTP \(status): \(message)"
        case .authRevoked(let message): return "credential revoked: \(message)"
        case .network(let message): return "network: \(message)"
        case .invalidResponse(let message): return "invalid response: \(message)"
        }
    }
}
