import Foundation

/// The files of a ``LocalFirstRealtimeDatabase`` with `RealtimeDatabasePersistence.file`: its
/// pending writes (`writes.log`) and its cache (`cache.log`) in one directory.
///
/// Thread-safe: the files are only touched under the store's lock, which is a leaf (it calls
/// nothing outside this store while held; file I/O runs under it, which keeps appends in order).
final class LocalFirstStore: Sendable {
    static let writesName = "writes.log"
    static let cacheName = "cache.log"
    /// The record of whose files these are, with a ``FirebaseAuth`` user: `{"uid": "…"}`
    /// (`null`: signed out).
    static let ownerName = "owner.json"
    /// The folder of the per-user directories (see `LocalFirstUsers.directory(for:in:)`).
    static let usersName = "users"

    /// What the files held when opened.
    struct Contents {
        var writes: [PersistedWriteQueue.Restored]
        /// The cached locations, in the order to apply them.
        var cache: [(location: RealtimeDatabasePath, value: JSONValue)]
    }

    private struct Files {
        var writes: PersistedWriteQueue
        var cache: PersistedCache
        /// The first failure while running; the cache stops being written after one.
        var failure: RealtimeDatabasePersistenceError?
        var isCacheBroken = false
    }

    private let files: LockedState<Files>

    /// Reads the files in `directory` (creating it if needed, and removing the temporary files a
    /// crash during a rewrite left); nothing is written until `start(with:)`.
    init(directory: URL, maximumCacheSize: Int, limits: RealtimeDatabaseLimits, contents: inout Contents) throws(RealtimeDatabasePersistenceError) {
        guard maximumCacheSize > 0 else { throw .invalidMaximumCacheSize(maximumCacheSize) }
        let names: [String]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .directoryUnavailable(path: directory.path, reason: DirectoryDiagnosis.reason(for: directory, fallback: error))
        }
        let writesLog = RecordLog(url: directory.appendingPathComponent(Self.writesName), kind: "writes")
        let cacheLog = RecordLog(url: directory.appendingPathComponent(Self.cacheName), kind: "cache")
        let writes = try writesLog.read()
        let cached = try cacheLog.read()
        contents.writes =
            try writes.map { contents throws(RealtimeDatabasePersistenceError) in
                try PersistedWriteQueue.restore(contents, path: writesLog.url.path, limits: limits)
            } ?? []
        var cache = PersistedCache(log: cacheLog, maximumSize: maximumCacheSize)
        if let cached { try cache.restore(cached, limits: limits) }
        contents.cache = cache.ordered
        for log in [writesLog, cacheLog] {
            let prefix = RecordLog.temporaryPrefix(of: log.url)
            for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
        files = LockedState(Files(writes: PersistedWriteQueue(log: writesLog), cache: cache))
    }

    /// Rewrites both files with what was read (the writes numbered from 0, the cache within its
    /// limit): from here on they are appended to.
    func start(with writes: [PersistedWriteQueue.Restored]) throws(RealtimeDatabasePersistenceError) {
        try files.withLock { files -> Result<Void, RealtimeDatabasePersistenceError> in
            do throws(RealtimeDatabasePersistenceError) {
                try files.writes.start(with: writes)
                try files.cache.start()
                return .success(())
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// The first failure while running, if any.
    var failure: RealtimeDatabasePersistenceError? {
        files.withLock { $0.failure }
    }

    /// Whether the cache holds the complete data of `location`.
    func isCached(_ location: RealtimeDatabasePath) -> Bool {
        files.withLock { $0.cache.isComplete(location) }
    }

    /// Records write `id` durably; throws (and reports) when it cannot.
    func addWrite(id: UInt64, _ write: RealtimeDatabaseWrite, issuedAt: Date) throws(RealtimeDatabasePersistenceError) {
        try files.withLock { files -> Result<Void, RealtimeDatabasePersistenceError> in
            do throws(RealtimeDatabasePersistenceError) {
                try files.writes.add(id: id, write: write, issuedAt: issuedAt)
                return .success(())
            } catch {
                files.failure = files.failure ?? error
                return .failure(error)
            }
        }.get()
    }

    /// Records that write `id` was acknowledged or rejected.
    func settleWrite(id: UInt64) {
        files.withLock { files in
            do throws(RealtimeDatabasePersistenceError) {
                try files.writes.settle(id: id)
            } catch {
                files.failure = files.failure ?? error
            }
        }
    }

    /// Caches the server's `value` at the synced `location`.
    func cache(_ value: JSONValue, at location: RealtimeDatabasePath) {
        files.withLock { files in
            guard !files.isCacheBroken else { return }
            do throws(RealtimeDatabasePersistenceError) {
                try files.cache.put(value, at: location)
            } catch {
                files.failure = files.failure ?? error
                files.isCacheBroken = true
            }
        }
    }

    /// Counts a user of the synced `location` in or out (only unused entries are evicted).
    func use(_ location: RealtimeDatabasePath, _ inUse: Bool) {
        files.withLock { files in
            guard !files.isCacheBroken else { return }
            do throws(RealtimeDatabasePersistenceError) {
                try files.cache.use(location, inUse)
            } catch {
                files.failure = files.failure ?? error
                files.isCacheBroken = true
            }
        }
    }

    /// Checks that the files in `directory` are `owner`'s, recording it the first time: a
    /// user's files must name that user, and a database without a ``FirebaseAuth`` (`owner`
    /// `nil`) does not use a user's files. The name is not in the error (nor any token).
    /// - Throws: `.foreignFile` for another user's files, `.io` when the record cannot be read
    ///   or written.
    static func claim(for owner: String??, in directory: URL) throws(RealtimeDatabasePersistenceError) {
        let url = directory.appendingPathComponent(ownerName)
        var recorded: JSONValue?
        if FileManager.default.fileExists(atPath: url.path) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw .io(path: url.path, reason: error.localizedDescription)
            }
            guard case .object(let record)? = try? JSONValue(parsing: data), let uid = record["uid"] else {
                throw .foreignFile(path: url.path, reason: "not an owner record")
            }
            recorded = uid
        }
        guard let owner else {
            if recorded != nil { throw .foreignFile(path: url.path, reason: "the files of a signed-in user's database (FirebaseRESTAuth.user)") }
            return
        }
        let expected = owner.map(JSONValue.string) ?? .null
        if let recorded {
            guard recorded == expected else { throw .foreignFile(path: url.path, reason: "the files of another user") }
            return
        }
        do {
            try Data(JSONWriter.write(.object(["uid": expected]), prettyPrinted: false)).write(to: url, options: .atomic)
        } catch {
            throw .io(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Deletes the files of a database in `directory` (and temporary files left by a crash,
    /// the owner record, and every user's folder under `users/`).
    static func discardFiles(in directory: URL) throws(RealtimeDatabasePersistenceError) {
        let names: [String]
        do {
            guard FileManager.default.fileExists(atPath: directory.path) else { return }
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .directoryUnavailable(path: directory.path, reason: DirectoryDiagnosis.reason(for: directory, fallback: error))
        }
        let ours = [writesName, cacheName]
        for name in names
        where ours.contains(name) || name == ownerName || name == usersName || ours.contains(where: { name.hasPrefix(".\($0).") && name.hasSuffix(".tmp") }) {
            let url = directory.appendingPathComponent(name)
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw .io(path: url.path, reason: error.localizedDescription)
            }
        }
    }
}
