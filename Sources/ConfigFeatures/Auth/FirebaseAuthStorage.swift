import Foundation

/// Where ``FirebaseAuth`` keeps the signed-in session across launches.
///
/// ``FirebaseAuth`` loads the session once, in its initializer, saves it after every sign-in and
/// token refresh, and removes it on sign-out, account deletion and session expiry; always outside
/// its lock. Implementations must be thread-safe. The default, ``InMemoryFirebaseAuthStorage``,
/// keeps nothing across launches; ``FileFirebaseAuthStorage`` keeps the session in a file the app
/// names.
public protocol FirebaseAuthStorage: Sendable {
    /// The saved session, `nil` when none was saved.
    ///
    /// - Throws: ``FirebaseAuthStorageError`` (`.corrupt` for a saved session that does not read
    ///   back, `.io` when the storage cannot be read).
    func load() throws -> FirebaseAuthSession?

    /// Saves `session`, replacing the previous one.
    ///
    /// - Throws: ``FirebaseAuthStorageError``.
    func save(_ session: FirebaseAuthSession) throws

    /// Deletes the saved session, if any.
    ///
    /// - Throws: ``FirebaseAuthStorageError``.
    func remove() throws
}

/// Why a ``FirebaseAuthStorage`` failed. Messages name the file and the field, never a token.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseAuthStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The saved session cannot be read back (damaged, truncated, or not a session).
    case corrupt(String)
    /// The file system refused.
    case io(String)

    /// A human-readable description.
    public var description: String {
        switch self {
        case .corrupt(let message): return "Firebase Auth session corrupt: \(message)"
        case .io(let message): return "Firebase Auth session storage I/O error: \(message)"
        }
    }
}

/// A storage that keeps the session in memory only: the user is signed out on every launch.
/// ``FirebaseAuth``'s default.
public final class InMemoryFirebaseAuthStorage: FirebaseAuthStorage, Sendable, CustomStringConvertible {
    private let session: LockedState<FirebaseAuthSession?>

    /// Creates a storage holding `session`.
    public init(_ session: FirebaseAuthSession? = nil) {
        self.session = LockedState(session)
    }

    /// The session held.
    public func load() -> FirebaseAuthSession? {
        session.withLock { $0 }
    }

    /// Replaces the session held.
    public func save(_ session: FirebaseAuthSession) {
        self.session.withLock { $0 = session }
    }

    /// Forgets the session held.
    public func remove() {
        session.withLock { $0 = nil }
    }

    /// Whether a session is held, and whose; never its tokens.
    public var description: String {
        "InMemoryFirebaseAuthStorage(\(load().map { "\($0.user)" } ?? "empty"))"
    }
}
