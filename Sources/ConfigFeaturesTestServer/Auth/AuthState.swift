import ConfigFeatures
import Foundation

/// The Firebase Authentication side of the server state: accounts, refresh tokens, and the
/// auth clock (real time plus an offset that `advanceAuthClock(by:)` grows).
struct AuthState {
    /// One account.
    struct User {
        var uid: String
        var email: String?
        var password: String?
        var displayName: String?
        var photoURL: String?
        var emailVerified = false
        var disabled = false
        var customClaims: [String: JSONValue] = [:]
        /// The providers linked: `password` (with an email and password), `custom`, or none
        /// (anonymous).
        var providers: [String] = []
        var createdAt: TimeInterval
        var lastLoginAt: TimeInterval?
        var passwordUpdatedAt: TimeInterval?
        /// Tokens issued before this auth-clock time are revoked (`validSince`); 0: none.
        var validSince: TimeInterval = 0
    }

    /// What a refresh token stands for.
    struct RefreshGrant {
        var uid: String
        var signInProvider: String
        /// When the user signed in (the ID tokens' `auth_time`), auth clock.
        var authTime: TimeInterval
        /// When the token was issued, auth clock (compared with the user's `validSince`).
        var issuedAt: TimeInterval
        /// The `claims` of the custom token signed in with (in every ID token of the grant).
        var extraClaims: [String: JSONValue] = [:]
    }

    /// Accounts by uid.
    var users: [String: User] = [:]
    /// The uids in creation order (for listing and paging).
    var order: [String] = []
    /// Refresh tokens issued (kept after the user is deleted, so a refresh says `USER_NOT_FOUND`).
    var refreshTokens: [String: RefreshGrant] = [:]
    /// Added to the real time to give the auth clock.
    var clockOffset: TimeInterval = 0
    /// How long an ID token lives (`exp - iat`).
    var idTokenLifetime: TimeInterval = 3600
    /// Whether email enumeration protection is on: a failed password sign-in answers
    /// `INVALID_LOGIN_CREDENTIALS` (on) or `EMAIL_NOT_FOUND` / `INVALID_PASSWORD` (off).
    var emailEnumerationProtection = true
    /// Sign-ins (sign-up, password, custom token, refresh) left to answer `TOO_MANY_ATTEMPTS_TRY_LATER`.
    var tooManyAttemptsRemaining = 0

    /// The auth clock at the real time `now`.
    func clock(_ now: Date) -> TimeInterval { now.timeIntervalSince1970 + clockOffset }

    /// The uid of the account with `email` (case-insensitive, as Firebase compares emails).
    func uid(forEmail email: String) -> String? {
        let wanted = email.lowercased()
        return order.first { users[$0]?.email?.lowercased() == wanted }
    }

    /// Whether `email` looks like an address Firebase accepts: one `@`, something on each side,
    /// no spaces.
    static func isValidEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return !email.contains(where: { $0.isWhitespace }) && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
    }

    /// A new uid: 28 random characters, as Firebase's.
    static func makeUID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<28).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// Claims an ID token may not take from custom claims (Firebase's reserved names).
    static let reservedClaims: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti", "nbf", "nonce", "sub",
        "user_id",
    ]
}

/// The outcome of checking an ID token presented to the server.
enum IDTokenCheck {
    /// Issued here for an existing, enabled user, and unexpired on the auth clock.
    case valid(uid: String, claims: [String: JSONValue])
    /// Issued here, but its `exp` has passed on the auth clock.
    case expired
    /// Issued here, but its user was deleted (`USER_NOT_FOUND`) or disabled (`USER_DISABLED`).
    case userInvalid(code: String)
    /// Not an ID token of this server's project.
    case malformed
}

extension ServerState {
    /// The issuer of this project's ID tokens.
    var idTokenIssuer: String { "https://securetoken.google.com/\(configuration.project)" }

    /// Creates an account; the error code (`EMAIL_EXISTS`, `INVALID_EMAIL`, `WEAK_PASSWORD`,
    /// `DUPLICATE_LOCAL_ID`, `INVALID_LOCAL_ID`) when the input is refused.
    mutating func createUser(
        uid requested: String? = nil, email: String?, password: String?, displayName: String? = nil, disabled: Bool = false,
        emailVerified: Bool = false, customClaims: [String: JSONValue] = [:], now: TimeInterval
    ) -> Result<String, AuthWire.Failure> {
        if let requested, requested.isEmpty || requested.count > 128 {
            return .failure(.init("INVALID_LOCAL_ID"))
        }
        if let requested, auth.users[requested] != nil { return .failure(.init("DUPLICATE_LOCAL_ID")) }
        if let email {
            guard AuthState.isValidEmail(email) else { return .failure(.init("INVALID_EMAIL")) }
            if auth.uid(forEmail: email) != nil { return .failure(.init("EMAIL_EXISTS")) }
        }
        if let password, password.count < 6 { return .failure(AuthWire.weakPassword) }
        let uid = requested ?? AuthState.makeUID()
        var user = AuthState.User(uid: uid, createdAt: now)
        user.email = email
        user.password = password
        user.displayName = displayName
        user.disabled = disabled
        user.emailVerified = emailVerified
        user.customClaims = customClaims
        if email != nil && password != nil {
            user.providers = ["password"]
            user.passwordUpdatedAt = now
        }
        auth.users[uid] = user
        auth.order.append(uid)
        return .success(uid)
    }

    /// Removes the account `uid` (its refresh tokens then answer `USER_NOT_FOUND`); whether it existed.
    mutating func deleteAuthUser(_ uid: String, _ effects: inout Effects) -> Bool {
        guard auth.users.removeValue(forKey: uid) != nil else { return false }
        auth.order.removeAll { $0 == uid }
        endDatabaseStreamsWithInvalidTokens(&effects)
        return true
    }

    /// Signs `uid` in with `provider`: records the login and returns a new ID token and refresh token.
    mutating func signIn(uid: String, provider: String, extraClaims: [String: JSONValue] = [:], now: TimeInterval) -> (idToken: String, refreshToken: String) {
        auth.users[uid]?.lastLoginAt = now
        let grant = AuthState.RefreshGrant(uid: uid, signInProvider: provider, authTime: now, issuedAt: now, extraClaims: extraClaims)
        let refreshToken = AuthJWT.randomToken(prefix: "AMf-")
        auth.refreshTokens[refreshToken] = grant
        return (idToken(for: grant, now: now), refreshToken)
    }

    /// A new ID token for the grant's user, issued at `now`.
    func idToken(for grant: AuthState.RefreshGrant, now: TimeInterval) -> String {
        AuthJWT.encode(.object(idTokenClaims(for: grant, now: now)))
    }

    /// The claims of an ID token for the grant's user issued at `now`.
    func idTokenClaims(for grant: AuthState.RefreshGrant, now: TimeInterval) -> [String: JSONValue] {
        let user = auth.users[grant.uid]
        let issuedAt = now.rounded(.down)
        var claims: [String: JSONValue] = [:]
        for (name, value) in grant.extraClaims.merging(user?.customClaims ?? [:], uniquingKeysWith: { $1 })
        where !AuthState.reservedClaims.contains(name) {
            claims[name] = value
        }
        var identities: [String: JSONValue] = [:]
        if let email = user?.email, user?.providers.contains("password") == true { identities["email"] = [.string(email)] }
        claims["iss"] = .string(idTokenIssuer)
        claims["aud"] = .string(configuration.project)
        claims["auth_time"] = .number(grant.authTime.rounded(.down))
        claims["user_id"] = .string(grant.uid)
        claims["sub"] = .string(grant.uid)
        claims["iat"] = .number(issuedAt)
        claims["exp"] = .number(issuedAt + auth.idTokenLifetime.rounded())
        if let email = user?.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(user?.emailVerified ?? false)
        }
        if let name = user?.displayName { claims["name"] = .string(name) }
        claims["firebase"] = ["identities": .object(identities), "sign_in_provider": .string(grant.signInProvider)]
        return claims
    }

    /// Checks an ID token against the auth clock at `now` and the accounts.
    func checkIDToken(_ token: String, now: TimeInterval) -> IDTokenCheck {
        guard let claims = AuthJWT.payload(of: token), claims["iss"]?.stringValue == idTokenIssuer,
            claims["aud"]?.stringValue == configuration.project, let uid = claims["sub"]?.stringValue, !uid.isEmpty,
            let expiry = claims["exp"]?.numberValue
        else { return .malformed }
        guard expiry > now else { return .expired }
        guard let user = auth.users[uid] else { return .userInvalid(code: "USER_NOT_FOUND") }
        guard !user.disabled else { return .userInvalid(code: "USER_DISABLED") }
        return .valid(uid: uid, claims: claims)
    }

    /// Ends (with `auth_revoked`) every open database stream opened with an ID token of this
    /// server that is no longer valid: expired on the auth clock, or of a deleted or disabled user.
    mutating func endDatabaseStreamsWithInvalidTokens(_ effects: inout Effects) {
        let now = auth.clock(Date())
        for id in openStreamIDs(.database) {
            guard case .database(_, let token?, _)? = streams[id]?.kind else { continue }
            switch checkIDToken(token, now: now) {
            case .expired, .userInvalid: end(stream: id, after: ServerSentEvents.authRevoked, &effects)
            case .valid, .malformed: continue
            }
        }
    }
}
