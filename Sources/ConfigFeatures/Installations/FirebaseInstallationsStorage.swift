import Foundation

/// An installation's auth token and when it expires.
public struct FirebaseInstallationsAuthToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token (a JWT), sent as `X-Goog-Firebase-Installations-Auth`.
    public var token: String
    /// When the token stops being accepted.
    public var expirationDate: Date

    /// Creates a token value.
    public init(token: String, expirationDate: Date) {
        self.token = token
        self.expirationDate = expirationDate
    }

    /// The expiry only: the token itself is never printed.
    public var description: String { "FirebaseInstallationsAuthToken(expires: \(expirationDate))" }
}

/// What ``FirebaseInstallations`` persists: the installation ID (FID) and, once registered, its
/// refresh token and latest auth token.
public struct FirebaseInstallationsRecord: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Firebase installation ID (22 base64url characters).
    public var fid: String
    /// The Firebase app ID the installation belongs to.
    public var appID: String
    /// The refresh token; `nil` until the installation is registered.
    public var refreshToken: String?
    /// The latest auth token; `nil` until the installation is registered.
    public var authToken: FirebaseInstallationsAuthToken?

    /// Creates a record.
    public init(fid: String, appID: String, refreshToken: String? = nil, authToken: FirebaseInstallationsAuthToken? = nil) {
        self.fid = fid
        self.appID = appID
        self.refreshToken = refreshToken
        self.authToken = authToken
    }

    /// Whether the installation was registered with the server.
    public var isRegistered: Bool { refreshToken != nil }

    /// The ID and state only: tokens are never printed.
    public var description: String {
        "FirebaseInstallationsRecord(fid: \(fid), appID: \(appID), registered: \(isRegistered), token expires: \(authToken.map { "\($0.expirationDate)" } ?? "none"))"
    }
}

/// Where ``FirebaseInstallations`` keeps its record across launches.
///
/// Implementations must be thread-safe. ``FirebaseInstallations`` calls them outside its locks.
public protocol FirebaseInstallationsStorage: Sendable {
    /// The saved record, `nil` when none was saved.
    ///
    /// - Throws: ``FirebaseInstallationsStorageError``; a `.corrupt` record makes
    ///   ``FirebaseInstallations`` start a new installation (never a crash).
    func load() throws -> FirebaseInstallationsRecord?

    /// Saves `record`, replacing the previous one.
    func save(_ record: FirebaseInstallationsRecord) throws

    /// Deletes the saved record, if any.
    func remove() throws
}

/// Why an installations storage failed.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseInstallationsStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The saved record cannot be read back (damaged, truncated, or not a record).
    case corrupt(String)
    /// The file system refused.
    case io(String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .corrupt(let message): return "installation record corrupt: \(message)"
        case .io(let message): return "installation storage I/O error: \(message)"
        }
    }
}

/// A storage that keeps the record in memory only (a new installation on every launch).
public final class InMemoryFirebaseInstallationsStorage: FirebaseInstallationsStorage, Sendable {
    private let record: LockedState<FirebaseInstallationsRecord?>

    /// Creates a storage holding `record`.
    public init(_ record: FirebaseInstallationsRecord? = nil) {
        self.record = LockedState(record)
    }

    /// The record held.
    public func load() -> FirebaseInstallationsRecord? {
        record.withLock { $0 }
    }

    /// Replaces the record held.
    public func save(_ record: FirebaseInstallationsRecord) {
        self.record.withLock { $0 = record }
    }

    /// Forgets the record.
    public func remove() {
        record.withLock { $0 = nil }
    }
}

/// A storage that keeps the record as JSON in one file, written atomically (`AtomicFile`: a
/// temporary file renamed over the old one), so a crash leaves the old or the new record, never a mix.
///
/// A missing file means "no installation yet"; a file that does not decode is `.corrupt`
/// (``FirebaseInstallations`` then registers a new installation and overwrites it).
public final class FileFirebaseInstallationsStorage: FirebaseInstallationsStorage, Sendable {
    /// The file holding the record.
    public let fileURL: URL

    /// Creates a storage in `fileURL` (its directory is created on the first save).
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// A storage in the user's application-support directory (`~/.local/share` on Linux),
    /// `Firebase/Installations-<appID>.json`, one file per Firebase app.
    public static func standard(appID: String) -> FileFirebaseInstallationsStorage {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let safeName = String(appID.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        return FileFirebaseInstallationsStorage(fileURL: base.appendingPathComponent("Firebase").appendingPathComponent("Installations-\(safeName).json"))
    }

    /// Reads the record; `nil` if the file does not exist.
    ///
    /// - Throws: `FirebaseInstallationsStorageError.io` or `.corrupt`.
    public func load() throws -> FirebaseInstallationsRecord? {
        let contents: Data?
        do {
            contents = try AtomicFile.read(fileURL)
        } catch {
            throw FirebaseInstallationsStorageError.io(error.message)
        }
        guard let data = contents else { return nil }
        // The non-recursive parser first: a hostile file cannot exhaust the stack.
        guard (try? JSONValue(parsing: data))?.objectValue != nil else {
            throw FirebaseInstallationsStorageError.corrupt("\(fileURL.lastPathComponent) is not a JSON object")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        do {
            let record = try decoder.decode(FirebaseInstallationsRecord.self, from: data)
            guard FirebaseInstallations.isValidFID(record.fid) else {
                throw FirebaseInstallationsStorageError.corrupt("\(fileURL.lastPathComponent) holds an invalid FID")
            }
            return record
        } catch let error as FirebaseInstallationsStorageError {
            throw error
        } catch {
            throw FirebaseInstallationsStorageError.corrupt("\(fileURL.lastPathComponent): \(error)")
        }
    }

    /// Writes the record atomically.
    ///
    /// - Throws: `FirebaseInstallationsStorageError.io`.
    public func save(_ record: FirebaseInstallationsRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .deferredToDate
        let data: Data
        do {
            data = try encoder.encode(record)
        } catch {
            throw FirebaseInstallationsStorageError.io("cannot encode the record: \(error)")
        }
        do {
            try AtomicFile.write(data, to: fileURL)
        } catch {
            throw FirebaseInstallationsStorageError.io(error.message)
        }
    }

    /// Deletes the file, if any.
    public func remove() throws {
        do {
            try AtomicFile.remove(fileURL)
        } catch {
            throw FirebaseInstallationsStorageError.io(error.message)
        }
    }
}
