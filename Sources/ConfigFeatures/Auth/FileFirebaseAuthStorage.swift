import Foundation

/// A storage that keeps the session as JSON in one file the app names, so a signed-in user stays
/// signed in across launches.
///
///     let storage = try FileFirebaseAuthStorage(fileURL: supportDirectory.appendingPathComponent("auth-session.json"))
///     let auth = FirebaseAuth(apiKey: apiKey, endpoints: .production, scheduler: MainScheduler.instance, storage: storage)
///
/// The file holds the user (uid, email, anonymous or not), the refresh token and the latest ID
/// token with its expiry. It is written atomically (a temporary file renamed over the old one, so
/// a crash leaves the old or the new session, never a mix) and created readable and writable by
/// its owner only (`0600`), since the refresh token signs the user in. There is no default
/// location: the app chooses one (never the home folder behind its back).
///
/// The initializer reads the file once and throws ``FirebaseAuthStorageError/corrupt(_:)`` when
/// it holds something that is not a session, so a damaged file is reported where the app opens
/// it, rather than silently signing the user out; the app can then delete it
/// (``remove()``) and continue signed out. A missing file is no session.
public final class FileFirebaseAuthStorage: FirebaseAuthStorage, Sendable, CustomStringConvertible {
    /// The file holding the session.
    public let fileURL: URL

    /// Opens the storage in `fileURL` (its directory is created on the first save) and checks that
    /// a file already there reads back as a session.
    ///
    /// - Throws: ``FirebaseAuthStorageError/corrupt(_:)`` for a file that is not a session,
    ///   ``FirebaseAuthStorageError/io(_:)`` for one that cannot be read.
    public init(fileURL: URL) throws(FirebaseAuthStorageError) {
        self.fileURL = fileURL
        _ = try read()
    }

    /// Creates a storage without reading the file (``remove()`` still works on a corrupt one).
    public init(uncheckedFileURL fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Reads the session; `nil` if the file does not exist.
    ///
    /// - Throws: ``FirebaseAuthStorageError``.
    public func load() throws -> FirebaseAuthSession? {
        try read()
    }

    /// Writes the session atomically, owner-only (`0600`).
    ///
    /// - Throws: ``FirebaseAuthStorageError/io(_:)``.
    public func save(_ session: FirebaseAuthSession) throws {
        do {
            try AtomicFile.write(session.json.data(), to: fileURL, permissions: 0o600)
        } catch {
            throw FirebaseAuthStorageError.io(error.message)
        }
    }

    /// Deletes the file, if any.
    ///
    /// - Throws: ``FirebaseAuthStorageError/io(_:)``.
    public func remove() throws {
        do {
            try AtomicFile.remove(fileURL)
        } catch {
            throw FirebaseAuthStorageError.io(error.message)
        }
    }

    /// The file's path.
    public var description: String { "FileFirebaseAuthStorage(\(fileURL.path))" }

    private func read() throws(FirebaseAuthStorageError) -> FirebaseAuthSession? {
        let contents: Data?
        do {
            contents = try AtomicFile.read(fileURL)
        } catch {
            throw .io(error.message)
        }
        guard let data = contents else { return nil }
        // The non-recursive parser: a hostile file cannot exhaust the stack. Its message may
        // quote the file, which holds tokens: only the file's name is reported.
        guard let json = try? JSONValue(parsing: data) else { throw .corrupt("\(fileURL.lastPathComponent) is not JSON") }
        do {
            return try FirebaseAuthSession(json: json)
        } catch {
            guard case .corrupt(let reason) = error else { throw error }
            throw .corrupt("\(fileURL.lastPathComponent): \(reason)")
        }
    }
}
