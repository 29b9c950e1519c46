/// Why a ``FirebaseAuth`` call failed.
///
/// Identity Toolkit answers a refused request with HTTP 400 and
/// `{"error": {"message": "CODE : detail"}}`; the code (the part before ` : `) picks the case.
/// Codes without a case of their own arrive as ``server(code:message:)``. No case ever carries a
/// token, a password or the API key: messages from the server are scrubbed of the secrets sent
/// with the request before they are kept.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `EMAIL_EXISTS`: another account already uses this email address.
    case emailAlreadyInUse
    /// `INVALID_LOGIN_CREDENTIALS` or `INVALID_PASSWORD`: the email and password do not match an
    /// account (with email-enumeration protection on, also an unknown email).
    case invalidCredential
    /// `EMAIL_NOT_FOUND` or `USER_NOT_FOUND`: there is no such account (any more). A token refresh
    /// that gets it signs the user out.
    case userNotFound
    /// `USER_DISABLED`: an administrator disabled the account. A token refresh that gets it signs
    /// the user out.
    case userDisabled
    /// `WEAK_PASSWORD`: the password is too weak (Firebase: shorter than 6 characters).
    case weakPassword
    /// `INVALID_EMAIL`: the email address is malformed.
    case invalidEmail
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` (or HTTP 429): too many requests from this device or for this
    /// account; try again later.
    case tooManyRequests
    /// The signed-in session can no longer be renewed: the refresh token expired or was revoked
    /// (`TOKEN_EXPIRED`, `INVALID_REFRESH_TOKEN`, `INVALID_ID_TOKEN`). The user is signed out and
    /// must sign in again.
    case sessionExpired
    /// `INVALID_CUSTOM_TOKEN` or `CREDENTIAL_MISMATCH`: the custom token is malformed, expired, or
    /// minted for another project.
    case invalidCustomToken
    /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`: the operation (deleting the account) needs a recent
    /// sign-in; sign in again and retry.
    case requiresRecentLogin
    /// The call needs a signed-in user and there is none (``FirebaseAuth/idToken(forcingRefresh:)``,
    /// ``FirebaseAuth/deleteUser()``).
    case notSignedIn
    /// Any other Identity Toolkit or Secure Token error code (`OPERATION_NOT_ALLOWED`,
    /// `API key not valid…`, …), with the server's detail when it gave one.
    case server(code: String, message: String)
    /// The service could not be reached, did not answer in time, or failed (HTTP 5xx). The
    /// signed-in user, if any, stays signed in.
    case network(message: String)
    /// The service answered something that is not a valid Auth response (a body that is not the
    /// expected JSON, a missing token, an ID token whose payload does not decode).
    case malformedResponse(message: String)

    /// What went wrong, for logs and alerts (never contains a token, password or API key).
    public var description: String {
        switch self {
        case .emailAlreadyInUse: return "Firebase Auth: the email address is already in use by another account (EMAIL_EXISTS)"
        case .invalidCredential: return "Firebase Auth: the email or password is wrong (INVALID_LOGIN_CREDENTIALS)"
        case .userNotFound: return "Firebase Auth: there is no such user (USER_NOT_FOUND)"
        case .userDisabled: return "Firebase Auth: the account is disabled (USER_DISABLED)"
        case .weakPassword: return "Firebase Auth: the password is too weak (WEAK_PASSWORD)"
        case .invalidEmail: return "Firebase Auth: the email address is malformed (INVALID_EMAIL)"
        case .tooManyRequests: return "Firebase Auth: too many attempts, try again later (TOO_MANY_ATTEMPTS_TRY_LATER)"
        case .sessionExpired: return "Firebase Auth: the session expired or was revoked; sign in again"
        case .invalidCustomToken: return "Firebase Auth: the custom token is invalid (INVALID_CUSTOM_TOKEN)"
        case .requiresRecentLogin: return "Firebase Auth: this operation needs a recent sign-in (CREDENTIAL_TOO_OLD_LOGIN_AGAIN)"
        case .notSignedIn: return "Firebase Auth: no user is signed in"
        case .server(let code, let message): return "Firebase Auth: \(code)\(message.isEmpty ? "" : ": \(message)")"
        case .network(let message): return "Firebase Auth: network: \(message)"
        case .malformedResponse(let message): return "Firebase Auth: malformed response: \(message)"
        }
    }
}
