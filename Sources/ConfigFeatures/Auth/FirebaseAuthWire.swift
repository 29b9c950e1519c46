import Foundation

/// Firebase Authentication's REST wire format (Identity Toolkit v1 and Secure Token v1), as
/// Firebase's SDKs speak it: builds the requests and decodes the answers, as plain values (no I/O).
///
/// - `POST {identityToolkit}/v1/accounts:signUp?key=K` with `{"returnSecureToken": true}` (an
///   anonymous account) or with `email` and `password` too (an email account);
///   `accounts:signInWithPassword` with `email`, `password`; `accounts:signInWithCustomToken` with
///   `token`. Each answers `idToken`, `refreshToken`, `expiresIn` (seconds, as a string) and, except
///   the custom-token one, `localId` (and `email`).
/// - `accounts:delete` with `{"idToken"}`.
/// - `POST {secureToken}/v1/token?key=K`, form-encoded `grant_type=refresh_token&refresh_token=…`,
///   answers `id_token`, `refresh_token`, `expires_in`, `user_id`.
/// - A refusal is `{"error": {"code": 400, "message": "CODE : detail"}}`; the code is the part
///   before ` : `.
///
/// The API key travels as the `key` query parameter, as the REST reference writes it.
package struct FirebaseAuthWire: Sendable, Hashable {
    /// Firebase's Identity Toolkit host.
    package static let defaultIdentityToolkitURL = URL(string: "https://identitytoolkit.googleapis.com")!
    /// Firebase's Secure Token host.
    package static let defaultSecureTokenURL = URL(string: "https://securetoken.googleapis.com")!

    /// The Auth emulator's hosts at `root` (`http://host:port`): each service under a path named
    /// after its production host, as Firebase's Auth emulator serves them.
    package static func emulatorURLs(root: URL) -> (identityToolkit: URL, secureToken: URL) {
        (
            WireURL.make(base: root, encodedPath: "/identitytoolkit.googleapis.com"),
            WireURL.make(base: root, encodedPath: "/securetoken.googleapis.com")
        )
    }

    /// What kind of sign-in an answer belongs to (it decides `isAnonymous` and where the user's
    /// fields come from).
    package enum SignInKind: Sendable, Hashable {
        /// `accounts:signUp` without an email: an anonymous account.
        case anonymous
        /// `accounts:signUp` or `accounts:signInWithPassword` with this email.
        case password(email: String)
        /// `accounts:signInWithCustomToken`: the user is read from the ID token's payload.
        case customToken
    }

    /// The Identity Toolkit host (a path prefix is kept).
    package var identityToolkit: URL
    /// The Secure Token host (a path prefix is kept).
    package var secureToken: URL
    /// The Web API key.
    package var apiKey: String

    /// Creates a wire format description.
    package init(identityToolkit: URL, secureToken: URL, apiKey: String) {
        self.identityToolkit = identityToolkit
        self.secureToken = secureToken
        self.apiKey = apiKey
    }

    // MARK: - Requests

    /// `accounts:signUp`: an anonymous account when `email` is `nil`, else an email account.
    package func signUpRequest(email: String? = nil, password: String? = nil) -> WireRequest {
        var body: [String: JSONValue] = ["returnSecureToken": true]
        if let email { body["email"] = .string(email) }
        if let password { body["password"] = .string(password) }
        return identityToolkitRequest("accounts:signUp", body)
    }

    /// `accounts:signInWithPassword`.
    package func signInWithPasswordRequest(email: String, password: String) -> WireRequest {
        identityToolkitRequest("accounts:signInWithPassword", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    }

    /// `accounts:signInWithCustomToken`.
    package func signInWithCustomTokenRequest(token: String) -> WireRequest {
        identityToolkitRequest("accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": true])
    }

    /// `accounts:delete` of the account `idToken` belongs to.
    package func deleteRequest(idToken: String) -> WireRequest {
        identityToolkitRequest("accounts:delete", ["idToken": .string(idToken)])
    }

    /// Secure Token's `token`: a new ID token for `refreshToken`.
    package func refreshRequest(refreshToken: String) -> WireRequest {
        let body = "grant_type=refresh_token&refresh_token=" + WireURL.encode(refreshToken)
        return WireRequest(
            method: .post, url: WireURL.make(base: secureToken, encodedPath: "/v1/token", query: [("key", apiKey)]),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"], body: Data(body.utf8))
    }

    private func identityToolkitRequest(_ method: String, _ body: [String: JSONValue]) -> WireRequest {
        WireRequest(
            method: .post, url: WireURL.make(base: identityToolkit, encodedPath: "/v1/" + method, query: [("key", apiKey)]),
            headers: ["Content-Type": "application/json", "Accept": "application/json"], body: JSONValue.object(body).data())
    }

    // MARK: - Answers

    /// Decodes the answer to a sign-in request of `kind`: the session, its ID token issued at `now`.
    ///
    /// - Parameter secrets: What the request carried that must not reach an error message (the
    ///   password, the custom token); the API key is always added.
    package func decodeSignIn(_ response: WireResponse, kind: SignInKind, now: Date, secrets: [String]) throws(FirebaseAuthError) -> FirebaseAuthSession {
        let object = try object(in: response, what: "sign-in", secrets: secrets)
        guard let idToken = object["idToken"]?.stringValue, !idToken.isEmpty else { throw .malformedResponse(message: "sign-in: no idToken") }
        guard let refreshToken = object["refreshToken"]?.stringValue, !refreshToken.isEmpty else {
            throw .malformedResponse(message: "sign-in: no refreshToken")
        }
        let expiry = try Self.expiry(object["expiresIn"], now: now, what: "sign-in")
        let claims = Self.claims(ofJWT: idToken)
        let uid = object["localId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? Self.uid(in: claims)
        guard let uid else { throw .malformedResponse(message: "sign-in: no localId, and the ID token names no user") }
        let user: FirebaseUser
        switch kind {
        case .anonymous:
            user = FirebaseUser(uid: uid, isAnonymous: true)
        case .password(let email):
            let answered = object["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            user = FirebaseUser(uid: uid, isAnonymous: false, email: answered ?? email)
        case .customToken:
            guard let claims else { throw .malformedResponse(message: "sign-in: the ID token's payload does not decode") }
            let provider = claims["firebase"]?["sign_in_provider"]?.stringValue
            let email = claims["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            user = FirebaseUser(uid: uid, isAnonymous: provider == "anonymous", email: email)
        }
        return FirebaseAuthSession(user: user, refreshToken: refreshToken, idToken: idToken, idTokenExpiry: expiry)
    }

    /// Decodes the answer to `refreshRequest`: `session` with its new tokens, the ID token issued
    /// at `now`.
    package func decodeRefresh(_ response: WireResponse, of session: FirebaseAuthSession, now: Date) throws(FirebaseAuthError) -> FirebaseAuthSession {
        let object = try object(in: response, what: "token refresh", secrets: [session.refreshToken, session.idToken])
        guard let idToken = object["id_token"]?.stringValue, !idToken.isEmpty else { throw .malformedResponse(message: "token refresh: no id_token") }
        let expiry = try Self.expiry(object["expires_in"], now: now, what: "token refresh")
        if let uid = object["user_id"]?.stringValue, !uid.isEmpty, uid != session.user.uid {
            throw .malformedResponse(message: "token refresh: the answer is for another user")
        }
        var renewed = session
        renewed.idToken = idToken
        renewed.idTokenExpiry = expiry
        if let refreshToken = object["refresh_token"]?.stringValue, !refreshToken.isEmpty { renewed.refreshToken = refreshToken }
        return renewed
    }

    /// Checks the answer to `deleteRequest`.
    package func decodeDelete(_ response: WireResponse, idToken: String) throws(FirebaseAuthError) {
        _ = try object(in: response, what: "delete account", secrets: [idToken])
    }

    // MARK: - Helpers

    /// The JSON object of a 2xx answer; the typed error of any other.
    private func object(in response: WireResponse, what: String, secrets: [String]) throws(FirebaseAuthError) -> [String: JSONValue] {
        guard (200...299).contains(response.statusCode) else { throw error(for: response, secrets: secrets) }
        guard let object = (try? JSONValue(parsing: response.body))?.objectValue else {
            throw .malformedResponse(message: "\(what): the body is not a JSON object")
        }
        return object
    }

    /// The error for a non-2xx answer: Identity Toolkit's code when the body carries one, else by
    /// status (5xx is `.network`: the service failed, the request may be retried; 429 is
    /// `.tooManyRequests` whatever its body says, as Google's quota answers carry a sentence and
    /// `RESOURCE_EXHAUSTED` rather than a code).
    package func error(for response: WireResponse, secrets: [String]) -> FirebaseAuthError {
        let status = response.statusCode
        if (500...599).contains(status) { return .network(message: "HTTP \(status) from the Auth service") }
        if status == 429 { return .tooManyRequests }
        let error = (try? JSONValue(parsing: response.body))?["error"]
        guard let message = error?["message"]?.stringValue, !message.isEmpty else {
            return .malformedResponse(message: "HTTP \(status) without an error code")
        }
        let scrubbed = Self.scrub(message, removing: secrets + [apiKey])
        let parts = scrubbed.components(separatedBy: " : ")
        var code = parts[0].trimmingCharacters(in: .whitespaces)
        var detail = parts.dropFirst().joined(separator: " : ").trimmingCharacters(in: .whitespaces)
        // A sentence rather than a code ("API key not valid. Please pass a valid API key."): the
        // status (`INVALID_ARGUMENT`) is the code, the sentence the detail.
        if code.contains(" ") {
            detail = scrubbed
            code = error?["status"]?.stringValue ?? "HTTP_\(status)"
        }
        return Self.error(code: code, detail: detail)
    }

    /// The typed error for Identity Toolkit's or Secure Token's `code`.
    static func error(code: String, detail: String) -> FirebaseAuthError {
        switch code {
        case "EMAIL_EXISTS": return .emailAlreadyInUse
        case "INVALID_LOGIN_CREDENTIALS", "INVALID_PASSWORD": return .invalidCredential
        case "EMAIL_NOT_FOUND", "USER_NOT_FOUND": return .userNotFound
        case "USER_DISABLED": return .userDisabled
        case "WEAK_PASSWORD": return .weakPassword
        case "INVALID_EMAIL": return .invalidEmail
        case "TOO_MANY_ATTEMPTS_TRY_LATER": return .tooManyRequests
        case "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN", "INVALID_ID_TOKEN": return .sessionExpired
        case "INVALID_CUSTOM_TOKEN", "CREDENTIAL_MISMATCH": return .invalidCustomToken
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": return .requiresRecentLogin
        default: return .server(code: code, message: detail)
        }
    }

    /// `text` with every occurrence of each secret replaced by `<redacted>`.
    static func scrub(_ text: String, removing secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
    }

    /// `now` plus a lifetime in seconds (`"3600"`, as Firebase sends it, or a number).
    private static func expiry(_ value: JSONValue?, now: Date, what: String) throws(FirebaseAuthError) -> Date {
        let seconds = value?.stringValue.flatMap { Double($0) } ?? value?.numberValue
        guard let seconds, seconds.isFinite, seconds > 0 else { throw .malformedResponse(message: "\(what): no valid expiresIn") }
        return now.addingTimeInterval(seconds)
    }

    /// The claims of a JWT: its middle part, base64url-encoded JSON; `nil` when it is not one. The
    /// signature is not checked (the client only reads who it is; the services check the token).
    static func claims(ofJWT token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONValue(parsing: data))?.objectValue
    }

    /// The user ID a token's claims name (`user_id`, else `sub`).
    static func uid(in claims: [String: JSONValue]?) -> String? {
        for key in ["user_id", "sub"] {
            if let uid = claims?[key]?.stringValue, !uid.isEmpty { return uid }
        }
        return nil
    }
}
