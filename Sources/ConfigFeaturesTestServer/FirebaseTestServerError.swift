/// Why a `FirebaseTestServer` could not start.
public enum FirebaseTestServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `socket(2)` failed with `errno`.
    case socketFailed(errno: Int32)
    /// `bind(2)` (or `getsockname(2)`) on 127.0.0.1 failed with `errno`.
    case bindFailed(errno: Int32)
    /// `listen(2)` failed with `errno`.
    case listenFailed(errno: Int32)
    /// `pipe(2)` (used to wake the server's threads) failed with `errno`.
    case pipeFailed(errno: Int32)

    /// A readable description.
    public var description: String {
        switch self {
        case .socketFailed(let code): return "FirebaseTestServer: socket() failed (errno \(code))"
        case .bindFailed(let code): return "FirebaseTestServer: bind() to 127.0.0.1 failed (errno \(code))"
        case .listenFailed(let code): return "FirebaseTestServer: listen() failed (errno \(code))"
        case .pipeFailed(let code): return "FirebaseTestServer: pipe() failed (errno \(code))"
        }
    }
}
