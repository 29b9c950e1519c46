/// Why a `FirebaseTestServer` could not start.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseTestServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The requested port is not in 0...65535.
    case invalidPort(Int)
    /// Another socket already listens on the requested port of 127.0.0.1 (`EADDRINUSE`).
    case portInUse(Int)
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
        case .invalidPort(let port): return "FirebaseTestServer: port \(port) is not a TCP port (expected 0...65535, 0 for any free port)"
        case .portInUse(let port): return "FirebaseTestServer: port \(port) on 127.0.0.1 is already in use (choose another port, or 0 for any free port)"
        case .socketFailed(let code): return "FirebaseTestServer: socket() failed (errno \(code))"
        case .bindFailed(let code): return "FirebaseTestServer: bind() to 127.0.0.1 failed (errno \(code))"
        case .listenFailed(let code): return "FirebaseTestServer: listen() failed (errno \(code))"
        case .pipeFailed(let code): return "FirebaseTestServer: pipe() failed (errno \(code))"
        }
    }
}
