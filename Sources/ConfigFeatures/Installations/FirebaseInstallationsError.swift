/// Why a Firebase Installations request failed.
///
/// An `.http` error with status 401 or 404 on a token refresh never reaches the caller:
/// ``FirebaseInstallations`` then forgets the installation and registers a new one, as Firebase's
/// SDKs do.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseInstallationsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// HTTP 429: the project's Installations quota is exhausted for now.
    case rateLimited
    /// HTTP 5xx: the service failed or is unavailable.
    case unavailable(statusCode: Int)
    /// Any other HTTP error, with Google's error message (an API key that is not valid, a
    /// restricted key, an unknown app ID, …).
    case http(statusCode: Int, message: String)
    /// The service could not be reached, or did not answer in time.
    case network(message: String)
    /// The service answered something that is not a valid Installations response.
    case invalidResponse(message: String)

    /// A human-readable description (never contains a token).
    public var description: String {
        switch self {
        case .rateLimited: return "Firebase Installations: rate limited (HTTP 429)"
        case .unavailable(let code): return "Firebase Installations: service unavailable (HTTP \(code))"
        case .http(let code, let message): return "Firebase Installations: HTTP \(code): \(message)"
        case .network(let message): return "Firebase Installations: network: \(message)"
        case .invalidResponse(let message): return "Firebase Installations: invalid response: \(message)"
        }
    }
}
