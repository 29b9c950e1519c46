/// Why a server template could not be read or fetched.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigServerTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not JSON (the parser's message).
    case invalidJSON(String)
    /// The JSON is not a server template: `path` is where (`conditions[2].condition.percent.seed`),
    /// `expected` what belongs there (`a string`).
    case invalidTemplate(path: String, expected: String)
    /// The server answered with an HTTP error (401, 403, 404, 429, 500, …) and Google's error message.
    case http(statusCode: Int, message: String)
    /// No answer: the server could not be reached, the connection broke, or it timed out.
    case network(message: String)
    /// The endpoints mix this machine with remote hosts; nothing was sent.
    case misconfigured(FirebaseEndpointsError)

    /// A human-readable description (never containing the API key).
    public var description: String {
        switch self {
        case .invalidJSON(let message): return "The server template is not JSON: \(message)"
        case .invalidTemplate(let path, let expected): return "Invalid server template: at \(path), expected \(expected)"
        case .http(let statusCode, let message): return "The server template request failed with HTTP \(statusCode): \(message)"
        case .network(let message): return "The server template request failed: \(message)"
        case .misconfigured(let error): return "The server template client is misconfigured: \(error)"
        }
    }
}
