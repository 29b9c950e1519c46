/// How requests to the Firebase Realtime Database REST API authenticate.
///
/// The credential travels as a query parameter, as the REST API requires: a Firebase ID token
/// (or a legacy database secret) as `auth=`, a Google OAuth2 access token as `access_token=`.
/// `description`, `debugDescription` and the mirror `dump` uses never show the token.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseRESTAuth: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// No credential: only data the security rules make public is readable.
    case none
    /// A Firebase ID token of a signed-in user (or a legacy database secret), sent as `auth=`.
    case idToken(String)
    /// A Google OAuth2 access token (e.g. of a service account), sent as `access_token=`.
    case accessToken(String)
    /// The user signed in to a ``FirebaseAuth``: every request and stream connection asks it for
    /// the current ID token (`idToken()`, refreshed when close to expiry) and sends it as `auth=`;
    /// with no one signed in, requests go without a credential, as Firebase's SDKs send them.
    /// Compares by the client's identity.
    case user(FirebaseAuth)

    /// The query item carrying the credential, `nil` for `.none` (and for `.user`, whose token
    /// is looked up per request: see `FirebaseRESTDatabase.Core.credential(pin:forcingRefresh:)`).
    var queryItem: (name: String, value: String)? {
        switch self {
        case .none, .user: return nil
        case .idToken(let token): return ("auth", token)
        case .accessToken(let token): return ("access_token", token)
        }
    }

    /// The kind of credential, without the token.
    public var description: String {
        switch self {
        case .none: return "none"
        case .idToken: return "idToken(<redacted>)"
        case .accessToken: return "accessToken(<redacted>)"
        case .user: return "user(<FirebaseAuth>)"
        }
    }

    /// The same as `description`: the token is never printed.
    public var debugDescription: String { description }

    /// The kind of credential only (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": description], displayStyle: .enum)
    }

    /// Whether both are the same credential (`.user`: the same ``FirebaseAuth`` instance).
    public static func == (lhs: FirebaseRESTAuth, rhs: FirebaseRESTAuth) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): return true
        case (.idToken(let left), .idToken(let right)), (.accessToken(let left), .accessToken(let right)): return left == right
        case (.user(let left), .user(let right)): return left === right
        default: return false
        }
    }

    /// Hashes the kind and the token (`.user`: the client's identity).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none:
            hasher.combine(0)
        case .idToken(let token):
            hasher.combine(1)
            hasher.combine(token)
        case .accessToken(let token):
            hasher.combine(2)
            hasher.combine(token)
        case .user(let auth):
            hasher.combine(3)
            hasher.combine(ObjectIdentifier(auth))
        }
    }
}
