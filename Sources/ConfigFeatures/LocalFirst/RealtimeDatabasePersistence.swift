import Foundation

/// Where a ``LocalFirstRealtimeDatabase`` keeps its cache and its writes not yet acknowledged
/// (Firebase's `isPersistenceEnabled` and `persistenceCacheSizeBytes`).
public enum RealtimeDatabasePersistence: Sendable, Hashable {
    /// Memory only (Firebase's default): the cache and the queued writes are lost when the
    /// database object goes away.
    case none
    /// Files in `directory`, the cache bounded to `maximumCacheSize` bytes, so queued writes
    /// survive a relaunch.
    ///
    /// - Important: Not implemented yet: a ``LocalFirstRealtimeDatabase`` created with it fails
    ///   every operation with `RealtimeDatabaseError.unsupported` rather than silently keeping
    ///   writes in memory only.
    case file(directory: URL, maximumCacheSize: Int)
}
