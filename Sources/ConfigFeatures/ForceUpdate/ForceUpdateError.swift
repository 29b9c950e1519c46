/// The diagnostics ``ForceUpdateViewModel`` reports on its `error` output. None of them stops the
/// view model, and none of them locks the user out.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum ForceUpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A version key holds text that is not a version (`"abc"`, `""`); the key is ignored, so an
    /// invalid `required_version` never requires an update.
    case invalidVersion(key: String, value: String)
    /// The fetch-and-activate at start failed; the check used the last activated (persisted)
    /// values or the defaults, and realtime updates are still followed.
    case fetchFailed(RemoteConfigError)
    /// Realtime updates ended with an error; no more live checks until `startObserving()` is
    /// called again.
    case realtimeUpdatesFailed(RemoteConfigUpdateError)
    /// A failure of a type Remote Config does not document (its description).
    case unexpected(String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .invalidVersion(let key, let value): return "Remote Config key \(key) is not a version: \(value.debugDescription)"
        case .fetchFailed(let error): return "Force update: initial fetch failed (\(error)); checked with the activated or default values"
        case .realtimeUpdatesFailed(let error): return "Force update: realtime updates stopped (\(error))"
        case .unexpected(let message): return "Force update: unexpected failure: \(message)"
        }
    }
}
