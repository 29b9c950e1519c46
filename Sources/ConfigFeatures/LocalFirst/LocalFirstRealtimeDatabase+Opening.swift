import Foundation

extension LocalFirstRealtimeDatabase {
    /// What opening the files of a persistence gave: the store, or why it cannot be used, and
    /// what to restore.
    struct Opened {
        var store: LocalFirstStore?
        var failure: RealtimeDatabasePersistenceError?
        var cache: [(location: RealtimeDatabasePath, value: JSONValue)] = []
        var writes: [(RealtimeDatabaseWrite, [Change], Date)] = []
    }

    /// Reads and checks the files of `persistence`, then rewrites them compacted; on any
    /// failure the files are left as they were and nothing is restored.
    ///
    /// `owner` is the user the files must belong to (`.some(nil)`: no one signed in), or `nil`
    /// for a database without a ``FirebaseAuth``: see `LocalFirstStore.claim(for:in:)`.
    static func open(_ persistence: RealtimeDatabasePersistence, owner: String??, limits: RealtimeDatabaseLimits) -> Opened {
        guard case .file(let directory, let maximumCacheSize) = persistence else { return Opened() }
        var contents = LocalFirstStore.Contents(writes: [], cache: [])
        do {
            let store = try LocalFirstStore(directory: directory, maximumCacheSize: maximumCacheSize, limits: limits, contents: &contents)
            try LocalFirstStore.claim(for: owner, in: directory)
            let path = directory.appendingPathComponent(LocalFirstStore.writesName).path
            let writes = try contents.writes.map { restored throws(RealtimeDatabasePersistenceError) in
                do {
                    return (restored.write, try validated(restored.write, limits: limits), restored.issuedAt)
                } catch {
                    throw .corrupt(path: path, offset: restored.offset, reason: "an invalid write: \(error)")
                }
            }
            try store.start(with: contents.writes)
            return Opened(store: store, cache: contents.cache, writes: writes)
        } catch {
            return Opened(failure: error)
        }
    }
}
