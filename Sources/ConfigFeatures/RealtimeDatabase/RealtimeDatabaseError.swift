/// Why a Realtime Database operation was rejected.
///
/// Synchronous APIs throw it; observable APIs emit it as an `error` event (on the database's
/// scheduler). See `Guides/RealtimeDatabase.md`.
public enum RealtimeDatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `path` is not a valid location: an empty segment (`"a//b"`), a segment containing `.`,
    /// `#`, `$`, `[`, `]` or an ASCII control character, or a segment longer than 768 bytes.
    case invalidPath(String, reason: String)
    /// The value written at `path` cannot be stored: a non-finite number, or an object key that
    /// is not a valid path segment (or contains `/`).
    case invalidValue(path: String, reason: String)
    /// A multi-path update at `path` is malformed: an empty key, or two keys where one is an
    /// ancestor of (or equal to) the other, as Firebase rejects them.
    case invalidUpdate(path: String, reason: String)

    /// A readable description.
    public var description: String {
        switch self {
        case .invalidPath(let path, let reason):
            return "Invalid Realtime Database path \"\(path)\": \(reason)"
        case .invalidValue(let path, let reason):
            return "Invalid Realtime Database value at \"\(path)\": \(reason)"
        case .invalidUpdate(let path, let reason):
            return "Invalid Realtime Database update at \"\(path)\": \(reason)"
        }
    }
}
