import ConfigFeatures
import Foundation

extension ServerState {
    /// Answers a client request to `/identitytoolkit.googleapis.com/v1/accounts:{method}` or
    /// `/securetoken.googleapis.com/v1/token` (`method` `token`), after checking the API key.
    mutating func handleAuthClient(_ request: HTTPRequest, method: String, now realNow: Date, _ effects: inout Effects) -> HTTPResponse {
        if let error = authKeyError(request) { return error }
        let now = auth.clock(realNow)
        let result: Result<JSONValue, AuthWire.Failure>
        if method == "token" {
            result = refreshIDToken(request, now: now)
        } else {
            guard let body = try? JSONValue(parsing: request.body.isEmpty ? Data("{}".utf8) : request.body), let fields = body.objectValue else {
                return AuthWire.error(400, "Invalid JSON payload received. The request body must be a JSON object.", grpcStatus: "INVALID_ARGUMENT")
            }
            switch method {
            case "signUp": result = signUp(fields, now: now)
            case "signInWithPassword": result = signInWithPassword(fields, now: now)
            case "signInWithCustomToken": result = signInWithCustomToken(fields, now: now)
            case "lookup": result = lookupSelf(fields, now: now)
            case "update": result = updateSelf(fields, now: now, &effects)
            case "delete": result = deleteSelf(fields, now: now, &effects)
            default:
                return AuthWire.error(404, "Not found: accounts:\(method) is not served by FirebaseTestServer.", grpcStatus: "NOT_FOUND")
            }
        }
        switch result {
        case .success(let body): return .json(200, body)
        case .failure(let failure): return failure.response
        }
    }

    /// The Google error for a missing or wrong API key, if any.
    private func authKeyError(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "POST" else {
            return AuthWire.error(404, "The requested method \(request.method) is not allowed for \(request.path).", grpcStatus: "NOT_FOUND")
        }
        let keyHint = hint(configuration.acceptedKeyHint)
        guard let key = request.query("key") ?? request.header("x-goog-api-key"), !key.isEmpty else {
            return AuthWire.error(
                403,
                "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
                    + keyHint, reason: "forbidden", grpcStatus: "PERMISSION_DENIED")
        }
        guard key == configuration.apiKey else {
            return AuthWire.error(400, "API key not valid. Please pass a valid API key." + keyHint, reason: "badRequest", grpcStatus: "INVALID_ARGUMENT")
        }
        return nil
    }

    /// Consumes one `TOO_MANY_ATTEMPTS_TRY_LATER` answer, if any are queued.
    private mutating func tooManyAttempts() -> AuthWire.Failure? {
        guard auth.tooManyAttemptsRemaining > 0 else { return nil }
        auth.tooManyAttemptsRemaining -= 1
        return AuthWire.Failure(
            "TOO_MANY_ATTEMPTS_TRY_LATER", "Access to this account has been temporarily disabled due to many failed login attempts.")
    }

    /// The sign-in answer members: `idToken`, `refreshToken`, `expiresIn`.
    private func tokenMembers(_ tokens: (idToken: String, refreshToken: String)) -> [String: JSONValue] {
        ["idToken": .string(tokens.idToken), "refreshToken": .string(tokens.refreshToken), "expiresIn": .string(String(Int(auth.idTokenLifetime.rounded())))]
    }

    /// `accounts:signUp`: an email/password account, or an anonymous one without an email.
    private mutating func signUp(_ fields: [String: JSONValue], now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        if let failure = tooManyAttempts() { return .failure(failure) }
        let email = fields["email"]?.stringValue
        let password = fields["password"]?.stringValue
        if email != nil && password == nil { return .failure(.init("MISSING_PASSWORD")) }
        if email == nil && password != nil { return .failure(.init("MISSING_EMAIL")) }
        let created = createUser(email: email, password: password, displayName: fields["displayName"]?.stringValue, now: now)
        switch created {
        case .failure(let failure): return .failure(failure)
        case .success(let uid):
            var members = tokenMembers(signIn(uid: uid, provider: email == nil ? "anonymous" : "password", now: now))
            members["kind"] = "identitytoolkit#SignupNewUserResponse"
            members["localId"] = .string(uid)
            if let email { members["email"] = .string(email) }
            return .success(.object(members))
        }
    }

    /// `accounts:signInWithPassword`.
    private mutating func signInWithPassword(_ fields: [String: JSONValue], now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        if let failure = tooManyAttempts() { return .failure(failure) }
        guard let email = fields["email"]?.stringValue, !email.isEmpty else { return .failure(.init("INVALID_EMAIL")) }
        guard let password = fields["password"]?.stringValue, !password.isEmpty else { return .failure(.init("MISSING_PASSWORD")) }
        guard AuthState.isValidEmail(email) else { return .failure(.init("INVALID_EMAIL")) }
        let protected = auth.emailEnumerationProtection
        guard let uid = auth.uid(forEmail: email), let user = auth.users[uid] else {
            return .failure(
                protected
                    ? .init("INVALID_LOGIN_CREDENTIALS")
                    : .init("EMAIL_NOT_FOUND", "There is no user record corresponding to this identifier. The user may have been deleted."))
        }
        guard user.password == password else {
            return .failure(
                protected
                    ? .init("INVALID_LOGIN_CREDENTIALS") : .init("INVALID_PASSWORD", "The password is invalid or the user does not have a password."))
        }
        guard !user.disabled else { return .failure(.init("USER_DISABLED", "The user account has been disabled by an administrator.")) }
        var members = tokenMembers(signIn(uid: uid, provider: "password", now: now))
        members["kind"] = "identitytoolkit#VerifyPasswordResponse"
        members["localId"] = .string(uid)
        members["email"] = .string(user.email ?? email)
        members["displayName"] = .string(user.displayName ?? "")
        members["registered"] = true
        return .success(.object(members))
    }

    /// `accounts:signInWithCustomToken`: a JWT as firebase-admin mints it (any algorithm, the
    /// signature unchecked, as by the emulator) with `uid` and optional `claims`; a new uid
    /// creates the account.
    private mutating func signInWithCustomToken(_ fields: [String: JSONValue], now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        if let failure = tooManyAttempts() { return .failure(failure) }
        guard let token = fields["token"]?.stringValue, !token.isEmpty else { return .failure(.init("MISSING_CUSTOM_TOKEN")) }
        guard let payload = AuthJWT.payload(of: token) else {
            return .failure(.init("INVALID_CUSTOM_TOKEN", "The custom token format is incorrect. Please check the documentation."))
        }
        guard payload["aud"]?.stringValue == AuthWire.customTokenAudience else {
            return .failure(.init("INVALID_CUSTOM_TOKEN", "The custom token is for another audience."))
        }
        guard let uid = payload["uid"]?.stringValue, !uid.isEmpty, uid.count <= 128 else {
            return .failure(.init("INVALID_CUSTOM_TOKEN", "The custom token has no valid uid."))
        }
        if let expiry = payload["exp"]?.numberValue, expiry <= now {
            return .failure(.init("INVALID_CUSTOM_TOKEN", "Token expired."))
        }
        let claims = payload["claims"]?.objectValue ?? [:]
        let isNew = auth.users[uid] == nil
        if isNew {
            auth.users[uid] = AuthState.User(uid: uid, createdAt: now)
            auth.order.append(uid)
        } else if auth.users[uid]?.disabled == true {
            return .failure(.init("USER_DISABLED", "The user account has been disabled by an administrator."))
        }
        var members = tokenMembers(signIn(uid: uid, provider: "custom", extraClaims: claims, now: now))
        members["kind"] = "identitytoolkit#VerifyCustomTokenResponse"
        members["isNewUser"] = .bool(isNew)
        return .success(.object(members))
    }

    /// The user an `idToken` field names, or the failure Google answers (`INVALID_ID_TOKEN`,
    /// `TOKEN_EXPIRED`, `USER_NOT_FOUND`, `USER_DISABLED`).
    private func user(idToken fields: [String: JSONValue], now: TimeInterval) -> Result<AuthState.User, AuthWire.Failure> {
        guard let token = fields["idToken"]?.stringValue, !token.isEmpty else { return .failure(.init("MISSING_ID_TOKEN")) }
        switch checkIDToken(token, now: now) {
        case .valid(let uid, _): return auth.users[uid].map { .success($0) } ?? .failure(.init("USER_NOT_FOUND"))
        case .expired: return .failure(.init("TOKEN_EXPIRED"))
        case .userInvalid(let code): return .failure(.init(code))
        case .malformed: return .failure(.init("INVALID_ID_TOKEN"))
        }
    }

    /// `accounts:lookup` with an `idToken`: the signed-in user's record.
    private func lookupSelf(_ fields: [String: JSONValue], now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        user(idToken: fields, now: now).map { ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [AuthWire.record($0)]] }
    }

    /// `accounts:update` with an `idToken`: email, password, display name and photo changes; a
    /// password change revokes the user's earlier refresh tokens; new tokens are answered when
    /// `returnSecureToken` is set and the email or password changed.
    private mutating func updateSelf(_ fields: [String: JSONValue], now: TimeInterval, _ effects: inout Effects) -> Result<JSONValue, AuthWire.Failure> {
        let current: AuthState.User
        switch user(idToken: fields, now: now) {
        case .success(let user): current = user
        case .failure(let failure): return .failure(failure)
        }
        switch applyUpdate(fields, to: current.uid, now: now, &effects) {
        case .failure(let failure): return .failure(failure)
        case .success(let credentialsChanged):
            guard let user = auth.users[current.uid] else { return .failure(.init("USER_NOT_FOUND")) }
            var members: [String: JSONValue] = [
                "kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.uid), "emailVerified": .bool(user.emailVerified),
                "providerUserInfo": .array(AuthWire.providerInfo(user)),
            ]
            if let email = user.email { members["email"] = .string(email) }
            if let name = user.displayName { members["displayName"] = .string(name) }
            if credentialsChanged && fields["returnSecureToken"]?.boolValue == true {
                let provider = user.providers.contains("password") ? "password" : "custom"
                members.merge(tokenMembers(signIn(uid: user.uid, provider: provider, now: now))) { $1 }
            }
            return .success(.object(members))
        }
    }

    /// Applies the account fields of an `accounts:update` body (client or admin) to `uid`;
    /// whether the email or password changed.
    mutating func applyUpdate(_ fields: [String: JSONValue], to uid: String, now: TimeInterval, _ effects: inout Effects) -> Result<Bool, AuthWire.Failure> {
        guard var user = auth.users[uid] else { return .failure(.init("USER_NOT_FOUND")) }
        var credentialsChanged = false
        if let email = fields["email"]?.stringValue {
            guard AuthState.isValidEmail(email) else { return .failure(.init("INVALID_EMAIL")) }
            if let owner = auth.uid(forEmail: email), owner != uid { return .failure(.init("EMAIL_EXISTS")) }
            credentialsChanged = credentialsChanged || user.email != email
            user.email = email
        }
        if let password = fields["password"]?.stringValue {
            guard password.count >= 6 else { return .failure(AuthWire.weakPassword) }
            user.password = password
            user.passwordUpdatedAt = now
            // Firebase revokes the sessions of a user whose password changed.
            user.validSince = now
            credentialsChanged = true
        }
        if user.email != nil && user.password != nil && !user.providers.contains("password") { user.providers.append("password") }
        if let name = fields["displayName"]?.stringValue { user.displayName = name }
        if let photo = fields["photoUrl"]?.stringValue { user.photoURL = photo }
        if let verified = fields["emailVerified"]?.boolValue { user.emailVerified = verified }
        for attribute in fields["deleteAttribute"]?.arrayValue ?? [] {
            switch attribute.stringValue {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoURL = nil
            case "EMAIL": user.email = nil
            case "PASSWORD": user.password = nil
            default: return .failure(.init("INVALID_REQ_TYPE", "deleteAttribute \(attribute) is not supported by FirebaseTestServer"))
            }
        }
        for provider in fields["deleteProvider"]?.arrayValue ?? [] {
            user.providers.removeAll { $0 == provider.stringValue }
        }
        auth.users[uid] = user
        return .success(credentialsChanged)
    }

    /// `accounts:delete` with an `idToken`.
    private mutating func deleteSelf(_ fields: [String: JSONValue], now: TimeInterval, _ effects: inout Effects) -> Result<JSONValue, AuthWire.Failure> {
        switch user(idToken: fields, now: now) {
        case .failure(let failure): return .failure(failure)
        case .success(let user):
            _ = deleteAuthUser(user.uid, &effects)
            return .success(["kind": "identitytoolkit#DeleteAccountResponse"])
        }
    }

    /// `POST /securetoken.googleapis.com/v1/token`: `grant_type=refresh_token&refresh_token=…`
    /// (form-encoded or JSON) → a new ID token.
    private mutating func refreshIDToken(_ request: HTTPRequest, now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        if let failure = tooManyAttempts() { return .failure(failure) }
        guard let fields = AuthWire.formOrJSON(request.body) else { return .failure(.init("INVALID_GRANT_TYPE")) }
        guard fields["grant_type"] == "refresh_token" else { return .failure(.init("INVALID_GRANT_TYPE")) }
        guard let token = fields["refresh_token"], !token.isEmpty else { return .failure(.init("MISSING_REFRESH_TOKEN")) }
        guard let grant = auth.refreshTokens[token] else { return .failure(.init("INVALID_REFRESH_TOKEN")) }
        guard let user = auth.users[grant.uid] else { return .failure(.init("USER_NOT_FOUND")) }
        guard !user.disabled else { return .failure(.init("USER_DISABLED")) }
        guard grant.issuedAt >= user.validSince else { return .failure(.init("TOKEN_EXPIRED")) }
        let idToken = idToken(for: grant, now: now)
        let lifetime = String(Int(auth.idTokenLifetime.rounded()))
        return .success([
            "access_token": .string(idToken), "expires_in": .string(lifetime), "id_token": .string(idToken), "project_id": .string(configuration.project),
            "refresh_token": .string(token), "token_type": "Bearer", "user_id": .string(grant.uid),
        ])
    }
}
