/// Why a user could not be created or changed through the `FirebaseTestServer` Swift API. The
/// descriptions never contain a password or token.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseTestServerAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another account has this email (`EMAIL_EXISTS`).
    case emailExists(String)
    /// The email is not an address Firebase accepts (`INVALID_EMAIL`).
    case invalidEmail(String)
    /// The password has fewer than 6 characters (`WEAK_PASSWORD`).
    case weakPassword
    /// An email without a password, or a password without an email.
    case incompleteCredentials
    /// Another account has this uid (`DUPLICATE_LOCAL_ID`).
    case uidExists(String)
    /// The uid is empty or longer than 128 characters.
    case invalidUID(String)
    /// No account has this uid (`USER_NOT_FOUND`).
    case userNotFound(uid: String)
    /// A custom claim Firebase reserves (`iss`, `sub`, `firebase`, …).
    case reservedClaim(String)

    /// A readable description (no secrets).
    public var description: String {
        switch self {
        case .emailExists(let email): return "FirebaseTestServer: another user has the email \(email) (EMAIL_EXISTS)"
        case .invalidEmail(let email): return "FirebaseTestServer: \"\(email)\" is not a valid email address (INVALID_EMAIL)"
        case .weakPassword: return "FirebaseTestServer: the password should be at least 6 characters (WEAK_PASSWORD)"
        case .incompleteCredentials: return "FirebaseTestServer: give both an email and a password, or neither (an anonymous user)"
        case .uidExists(let uid): return "FirebaseTestServer: another user has the uid \(uid) (DUPLICATE_LOCAL_ID)"
        case .invalidUID(let uid): return "FirebaseTestServer: the uid \"\(uid)\" must have 1 to 128 characters"
        case .userNotFound(let uid): return "FirebaseTestServer: no user has the uid \(uid) (USER_NOT_FOUND)"
        case .reservedClaim(let name): return "FirebaseTestServer: \(name) is a claim Firebase reserves; choose another custom claim name"
        }
    }
}
