import Foundation

/// Errors of ``RemoteConfig``'s fetch, activation, storage and decoding.
///
/// Every case is `Equatable`, so tests can compare errors directly.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server asked the client to slow down (rate limit or unavailable); fetches fail fast
    /// with this error until `until`, without calling the backend (Firebase's `.throttled`, 8002).
    case throttled(until: Date)
    /// The backend did not answer within `RemoteConfigSettings.fetchTimeout`.
    case timeout
    /// The backend failed with a non-throttling error (network, HTTP error, invalid response).
    case backend(RemoteConfigBackendError)
    /// Reading or writing the persisted snapshot failed; the client carries on without it.
    case storage(RemoteConfigStorageError)
    /// A value or the whole config could not be decoded into the requested type
    /// (the message names the coding path and the problem).
    case decoding(String)
    /// A value passed to `setDefaults(from:)` could not be turned into defaults.
    case invalidDefaults(String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .throttled(let until): return "Remote Config fetch throttled until \(until)"
        case .timeout: return "Remote Config fetch timed out"
        case .backend(let error): return "Remote Config backend error: \(error)"
        case .storage(let error): return "Remote Config storage error: \(error)"
        case .decoding(let message): return "Remote Config decoding error: \(message)"
        case .invalidDefaults(let message): return "Invalid Remote Config defaults: \(message)"
        }
    }
}

/// Errors that end `RemoteConfig.configUpdates` (Firebase's ``RemoteConfigUpdateError``).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigUpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Retryable realtime failures outlasted every reconnection attempt (the last failure).
    case streamError(String)
    /// An invalidation announced a newer template, but no fetch reached it within the attempts.
    case notFetched
    /// The realtime stream sent a message that could not be understood.
    case messageInvalid(String)
    /// The backend disabled realtime updates for this app (`featureDisabled`).
    case unavailable
    /// HTTP 403 on the realtime stream: the project's Realtime API is disabled (Google's message).
    case realtimeDisabled(message: String)
    /// A non-retryable HTTP status on the realtime stream (not 403), with Google's message.
    case httpError(statusCode: Int, message: String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .streamError(let message): return "Remote Config realtime stream failed: \(message)"
        case .notFetched: return "Remote Config realtime update could not be fetched"
        case .messageInvalid(let message): return "Remote Config realtime message invalid: \(message)"
        case .unavailable: return "Remote Config realtime updates are unavailable"
        case .realtimeDisabled(let message): return "Remote Config realtime API is disabled (HTTP 403): \(message)"
        case .httpError(let code, let message): return "Remote Config realtime stream failed with HTTP \(code): \(message)"
        }
    }
}

/// Why the persisted Remote Config snapshot could not be read or written.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is shorter than its header says (an interrupted write by a non-atomic writer,
    /// or a damaged disk).
    case truncated(expectedBytes: Int, actualBytes: Int)
    /// The file is not a snapshot (bad header, checksum mismatch, or invalid JSON).
    case corrupt(String)
    /// The file was written by a newer format version.
    case unsupportedVersion(Int)
    /// The file system refused a read, write or rename.
    case io(String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .truncated(let expected, let actual): return "snapshot truncated: \(actual) of \(expected) bytes"
        case .corrupt(let message): return "snapshot corrupt: \(message)"
        case .unsupportedVersion(let version): return "unsupported snapshot format version \(version)"
        case .io(let message): return "I/O error: \(message)"
        }
    }
}
