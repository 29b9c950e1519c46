/// Why a Realtime Database operation was rejected.
///
/// Synchronous APIs throw it; observable APIs emit it as an `error` event (on the database's
/// scheduler). See <doc:RealtimeDatabaseGuide>.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RealtimeDatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `path` is not a valid location: an empty segment (`"a//b"`), or a segment containing
    /// `.`, `#`, `$`, `[`, `]` or an ASCII control character.
    case invalidPath(String, reason: String)
    /// The value written at `path` cannot be stored: a non-finite number, or an object key that
    /// is not a valid path segment (or contains `/`).
    case invalidValue(path: String, reason: String)
    /// A multi-path update at `path` is malformed: an empty key, or two keys where one is an
    /// ancestor of (or equal to) the other, as Firebase rejects them.
    case invalidUpdate(path: String, reason: String)
    /// A path, or a node of a value (written, or received from the server), lies `depth` keys
    /// below the root, deeper than `RealtimeDatabaseLimits.maximumDepth` (`limit`, 32 by
    /// default). For data, `depth` is the first level found past the limit.
    case pathTooDeep(depth: Int, limit: Int)
    /// A key of a path or of a value is `bytes` long in UTF-8, longer than
    /// `RealtimeDatabaseLimits.maximumKeyLength` (`limit`, 768 by default).
    case keyTooLong(bytes: Int, limit: Int)
    /// The query (described by `query`) combines its order and filters in a way Firebase
    /// rejects: two orders or limits, a start or end set twice, a range without an order, a
    /// non-string bound when ordering by key, an object as a bound, a limit below 1, or an
    /// invalid child path. See ``RealtimeDatabaseQuery``.
    case invalidQuery(String, reason: String)
    /// A transaction at `path` met a concurrent write on each of its `attempts` tries
    /// (`RealtimeDatabaseTransaction.maximumAttempts`, 25 as in Firebase's SDKs) and gave up;
    /// nothing was written by it.
    case transactionRetriesExhausted(path: String, attempts: Int)
    /// The backend does not implement `operation` (a custom ``RealtimeDatabase`` without it).
    case unsupported(operation: String)
    /// The database could not be reached (`message` says why): an ``InMemoryRealtimeDatabase``
    /// whose `connectivity` is `.offline`. ``LocalFirstRealtimeDatabase`` keeps a write that
    /// failed with it queued and sends it again when the database is reachable.
    case network(message: String)
    /// The database refused the write at `path` (Firebase's permission denied): an
    /// ``InMemoryRealtimeDatabase`` rejecting writes. ``LocalFirstRealtimeDatabase`` reverts
    /// the write locally and fails its observable with this error.
    case permissionDenied(path: String)

    /// A readable description.
    public var description: String {
        switch self {
        case .invalidPath(let path, let reason):
            return "Invalid Realtime Database path \"\(path)\": \(reason)"
        case .invalidValue(let path, let reason):
            return "Invalid Realtime Database value at \"\(path)\": \(reason)"
        case .invalidUpdate(let path, let reason):
            return "Invalid Realtime Database update at \"\(path)\": \(reason)"
        case .pathTooDeep(let depth, let limit):
            return "Realtime Database path too deep: \(depth) levels, the limit is \(limit)"
        case .keyTooLong(let bytes, let limit):
            return "Realtime Database key too long: \(bytes) bytes, the limit is \(limit)"
        case .invalidQuery(let query, let reason):
            return "Invalid Realtime Database query \(query): \(reason)"
        case .transactionRetriesExhausted(let path, let attempts):
            return "Realtime Database transaction at \"\(path)\" gave up after \(attempts) conflicting attempts"
        case .unsupported(let operation):
            return "This Realtime Database does not support \(operation)"
        case .network(let message):
            return "Realtime Database unreachable: \(message)"
        case .permissionDenied(let path):
            return "Realtime Database permission denied at \"\(path)\""
        }
    }
}
