import Foundation

/// Where a ``LocalFirstRealtimeDatabase`` keeps its cache and its writes not yet acknowledged
/// (Firebase's `isPersistenceEnabled` and `persistenceCacheSizeBytes`).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RealtimeDatabasePersistence: Sendable, Hashable {
    /// Memory only (Firebase's default): the cache and the queued writes are lost when the
    /// database object goes away.
    case none
    /// Files in `directory` (created if needed): the writes not yet acknowledged survive a
    /// relaunch and are sent again, in order; the server data of observed and kept-synced
    /// locations survives too, bounded to `maximumCacheSize` bytes by evicting the least
    /// recently used locations no one observes or keeps synced (pending writes are never
    /// evicted, nor counted).
    ///
    /// A write is on disk (appended and synced) before it is first sent. Sending again after a
    /// relaunch is exactly-once in effect for `setValue`, `updateChildValues`, `removeValue` and
    /// `push` (whose key is generated on the client when `push` is called), since the server ends
    /// in the same state; a server-value increment whose acknowledgement was lost is applied again
    /// (at-least-once, as with Firebase's SDKs).
    ///
    /// Use one database per directory at a time. When the files cannot be used (an invalid
    /// `maximumCacheSize`, a directory that cannot be written, a corrupt, cut short or foreign
    /// file) every operation fails with a ``RealtimeDatabasePersistenceError`` and the files are
    /// left untouched; see `discardFiles(in:)`.
    case file(directory: URL, maximumCacheSize: Int)

    /// Deletes the files a ``LocalFirstRealtimeDatabase`` keeps in `directory` (its pending
    /// writes, which are then lost, and its cache; over a remote signed in with `FirebaseRESTAuth.user`,
    /// every user's folder under `users/`), for an app that chooses to start afresh after a
    /// ``RealtimeDatabasePersistenceError``. Other files in `directory` are left alone. Call it
    /// while no database uses `directory`.
    /// - Throws: ``RealtimeDatabasePersistenceError`` when the directory or a file cannot be
    ///   removed.
    public static func discardFiles(in directory: URL) throws(RealtimeDatabasePersistenceError) {
        try LocalFirstStore.discardFiles(in: directory)
    }
}
