/// Why the files of a ``LocalFirstRealtimeDatabase`` created with
/// `RealtimeDatabasePersistence.file` cannot be used.
///
/// A database whose files cannot be opened (an invalid `maximumCacheSize`, a directory it cannot
/// create or write, a file that is corrupt, cut short or not one of its own) fails every
/// operation with this error and reports it as `persistenceError`; it never overwrites or empties
/// the files. After inspecting (or saving) them, the app can delete them with
/// `RealtimeDatabasePersistence.discardFiles(in:)` and create the database again. A failure while
/// running (a full disk) fails the write that needed the disk with this error, the write being
/// reverted, and is reported as `persistenceError` too.
///
/// See <doc:RealtimeDatabaseGuide#Persistence>.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RealtimeDatabasePersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `maximumCacheSize` is not a positive number of bytes.
    case invalidMaximumCacheSize(Int)
    /// The directory at `path` cannot be created, listed or written (`reason` says why).
    case directoryUnavailable(path: String, reason: String)
    /// The file at `path` is not one of this database's files of that kind: it lacks the format
    /// marker, or holds another kind of data (`reason` says what was found).
    case foreignFile(path: String, reason: String)
    /// The file at `path` was written by a newer version of the format (`version`).
    case unsupportedVersion(path: String, version: String)
    /// The file at `path` ends inside its header: it was cut short.
    case truncated(path: String)
    /// A record of the file at `path`, starting `offset` bytes in, fails its checksum or cannot be
    /// decoded (`reason` says which).
    case corrupt(path: String, offset: Int, reason: String)
    /// Reading, writing, syncing or renaming the file at `path` failed (`reason` is the system's).
    case io(path: String, reason: String)

    /// A readable description.
    public var description: String {
        switch self {
        case .invalidMaximumCacheSize(let size):
            return "Realtime Database persistence: maximumCacheSize must be a positive number of bytes, not \(size)"
        case .directoryUnavailable(let path, let reason):
            return "Realtime Database persistence: cannot use the directory \(path): \(reason)"
        case .foreignFile(let path, let reason):
            return "Realtime Database persistence: \(path) is not a file of this database: \(reason)"
        case .unsupportedVersion(let path, let version):
            return "Realtime Database persistence: \(path) has format version \(version), newer than this library reads"
        case .truncated(let path):
            return "Realtime Database persistence: \(path) is cut short inside its header"
        case .corrupt(let path, let offset, let reason):
            return "Realtime Database persistence: \(path) is corrupt at byte \(offset): \(reason)"
        case .io(let path, let reason):
            return "Realtime Database persistence: I/O on \(path) failed: \(reason)"
        }
    }
}
