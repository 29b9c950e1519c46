/// How requests to the Firebase Realtime Database REST API authenticate.
///
/// The credential travels as a query parameter, as the REST API requires: a Firebase ID token
/// (or a legacy database secret) as `auth=`, a Google OAuth2 access token as `access_token=`.
/// `description` never shows the token.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseRESTAuth: Sendable, Hashable, CustomStringConvertible {
    /// No credential: only data the security rules make public is readable.
    case none
    /// A Firebase ID token of a signed-in user (or a legacy database secret), sent as `auth=`.
    case idToken(String)
    /// A Google OAuth2 access token (e.g. of a service account), sent as `access_token=`.
    case accessToken(String)

    /// The query item carrying the credential, `nil` for `.none`.
    var queryItem: (name: String, value: String)? {
        switch self {
        case .none: return nil
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
        }
    }
}
