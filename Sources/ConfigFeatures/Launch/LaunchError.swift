/// A problem reported by ``LaunchViewModel`` on its `error` output.
///
/// Only the decoding cases change what the launch shows; the others are diagnostics: the launch
/// goes on with the persisted values or the defaults (fetch problems), or simply shows no
/// content (`contentFailed`).
///
/// `Equatable` compares the ``RemoteConfigError``s directly and the errors of `contentFailed` by
/// type and description (as Streams compares the errors of recorded events), so tests can
/// assert exact timelines.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
    /// `.fetchAndActivateBeforeShowing`: the fetch did not finish within the timeout; the launch
    /// went on with the persisted values or the defaults. The fetch itself keeps running in the
    /// background and its result is stored for the next launch (not activated now).
    case fetchTimedOut
    /// `.fetchAndActivateBeforeShowing`: the fetch failed (network, throttled, backend error);
    /// the launch went on with the persisted values or the defaults.
    case fetchFailed(RemoteConfigError)
    /// `.activateCachedThenFetch`: the background fetch for the next launch failed. Nothing
    /// changes in this session.
    case backgroundFetchFailed(RemoteConfigError)
    /// The active config (over the defaults) could not be decoded into the config type; the
    /// launch goes on with the in-app defaults alone if they decode.
    case decodingFailed(RemoteConfigError)
    /// The in-app defaults alone could not be decoded either: the launch ends without a config
    /// (and without content); the splash is hidden.
    case defaultsDecodingFailed(RemoteConfigError)
    /// The dependent request (`loadContent`) failed.
    case contentFailed(Error)

    /// A readable description.
    public var description: String {
        switch self {
        case .fetchTimedOut: return "LaunchError.fetchTimedOut"
        case .fetchFailed(let error): return "LaunchError.fetchFailed(\(error))"
        case .backgroundFetchFailed(let error): return "LaunchError.backgroundFetchFailed(\(error))"
        case .decodingFailed(let error): return "LaunchError.decodingFailed(\(error))"
        case .defaultsDecodingFailed(let error): return "LaunchError.defaultsDecodingFailed(\(error))"
        case .contentFailed(let error): return "LaunchError.contentFailed(\(error))"
        }
    }

    /// Whether both are the same case with equal payloads (content errors: same type and
    /// description).
    public static func == (lhs: LaunchError, rhs: LaunchError) -> Bool {
        switch (lhs, rhs) {
        case (.fetchTimedOut, .fetchTimedOut): return true
        case (.fetchFailed(let l), .fetchFailed(let r)): return l == r
        case (.backgroundFetchFailed(let l), .backgroundFetchFailed(let r)): return l == r
        case (.decodingFailed(let l), .decodingFailed(let r)): return l == r
        case (.defaultsDecodingFailed(let l), .defaultsDecodingFailed(let r)): return l == r
        case (.contentFailed(let l), .contentFailed(let r)):
            return type(of: l) == type(of: r) && String(reflecting: l) == String(reflecting: r)
        default: return false
        }
    }
}
