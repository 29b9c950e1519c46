import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// Creates a user and returns its uid: with an email and password, or anonymous when both
    /// are `nil`.
    ///
    /// - Throws: `FirebaseTestServerAuthError` (`.emailExists`, `.invalidEmail`, `.weakPassword`,
    ///   `.incompleteCredentials`); nothing is created then.
    @discardableResult
    public func createUser(email: String?, password: String?) throws(FirebaseTestServerAuthError) -> String {
        try createUser(NewAuthUser(email: email, password: password))
    }

    /// Creates the user `user` describes and returns its uid.
    ///
    /// - Throws: `FirebaseTestServerAuthError`; nothing is created then.
    @discardableResult
    public func createUser(_ user: NewAuthUser) throws(FirebaseTestServerAuthError) -> String {
        if (user.email == nil) != (user.password == nil) { throw .incompleteCredentials }
        if let reserved = user.customClaims?.keys.first(where: { AuthState.reservedClaims.contains($0) }) { throw .reservedClaim(reserved) }
        let result = engine.mutate { state, _ in
            state.createUser(
                uid: user.uid, email: user.email, password: user.password, displayName: user.displayName, disabled: user.disabled ?? false,
                emailVerified: user.emailVerified ?? false, customClaims: user.customClaims ?? [:], now: state.auth.clock(Date()))
        }
        switch result {
        case .success(let uid): return uid
        case .failure(let failure):
            switch failure.code {
            case "EMAIL_EXISTS": throw .emailExists(user.email ?? "")
            case "INVALID_EMAIL": throw .invalidEmail(user.email ?? "")
            case "WEAK_PASSWORD": throw .weakPassword
            case "DUPLICATE_LOCAL_ID": throw .uidExists(user.uid ?? "")
            default: throw .invalidUID(user.uid ?? "")
            }
        }
    }

    /// Creates the users of a JSON array (`[{"uid"?, "email"?, "password"?, "displayName"?,
    /// "disabled"?, "emailVerified"?, "customClaims"?}]`), as `--auth-users` does; returns their uids.
    ///
    /// - Throws: `FirebaseTestServerDataError.invalidJSON` or `.invalidUsers` naming the entry
    ///   and the problem; no user of the list is created then.
    @discardableResult
    public func loadAuthUsers(json: Data, file: String? = nil) throws(FirebaseTestServerDataError) -> [String] {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .invalidJSON(file: file, reason: "\(error)")
        }
        guard let entries = value.arrayValue else { throw .invalidUsers(file: file, index: nil, reason: "expected a JSON array of user objects") }
        var users: [NewAuthUser] = []
        for (index, entry) in entries.enumerated() {
            guard entry.objectValue != nil else { throw .invalidUsers(file: file, index: index, reason: "expected an object") }
            let known: Set<String> = ["uid", "email", "password", "displayName", "disabled", "emailVerified", "customClaims"]
            if let unknown = entry.objectValue?.keys.sorted().first(where: { !known.contains($0) }) {
                throw .invalidUsers(file: file, index: index, reason: "unknown field \"\(unknown)\" (the fields are \(known.sorted().joined(separator: ", ")))")
            }
            do {
                users.append(try entry.decoded(as: NewAuthUser.self))
            } catch {
                throw .invalidUsers(
                    file: file, index: index,
                    reason:
                        "a field has the wrong type (uid, email, password, displayName: strings; disabled, emailVerified: booleans; customClaims: an object)")
            }
        }
        var created: [String] = []
        for (index, user) in users.enumerated() {
            do {
                created.append(try createUser(user))
            } catch {
                for uid in created { try? deleteUser(uid: uid) }
                throw .invalidUsers(file: file, index: index, reason: error.description.replacingOccurrences(of: "FirebaseTestServer: ", with: ""))
            }
        }
        return created
    }

    /// Creates the users of the JSON file at `url` (see `loadAuthUsers(json:file:)`).
    ///
    /// - Throws: `FirebaseTestServerDataError.unreadable`, `.invalidJSON` or `.invalidUsers`.
    @discardableResult
    public func loadAuthUsers(contentsOf url: URL) throws(FirebaseTestServerDataError) -> [String] {
        try loadAuthUsers(json: FirebaseTestServerDataError.read(url), file: url.path)
    }

    /// The user `uid`, `nil` if there is none.
    public func user(uid: String) -> AuthUser? {
        engine.read { state in state.auth.users[uid].map(AuthUser.init) }
    }

    /// Every user, in the order they were created.
    public var authUsers: [AuthUser] {
        engine.read { state in state.auth.order.compactMap { state.auth.users[$0].map(AuthUser.init) } }
    }

    /// Disables the user `uid`: sign-ins and refreshes answer `USER_DISABLED`, its ID tokens stop
    /// being accepted by the database, and its open database streams get `auth_revoked`.
    ///
    /// It does not throw, so a test reads `server.disableUser(uid: uid)`; for the typed error on
    /// an unknown uid, use `setUserDisabled(true, uid:)`.
    /// - Returns: Whether the user exists (`false`: nothing changed).
    @discardableResult
    public func disableUser(uid: String) -> Bool {
        (try? setUserDisabled(true, uid: uid)) != nil
    }

    /// Disables or enables the user `uid` (see `disableUser(uid:)`).
    ///
    /// - Throws: `FirebaseTestServerAuthError.userNotFound`.
    public func setUserDisabled(_ disabled: Bool, uid: String) throws(FirebaseTestServerAuthError) {
        let found = engine.mutate { state, effects -> Bool in
            guard state.auth.users[uid] != nil else { return false }
            state.auth.users[uid]?.disabled = disabled
            state.endDatabaseStreamsWithInvalidTokens(&effects)
            return true
        }
        if !found { throw .userNotFound(uid: uid) }
    }

    /// Deletes the user `uid`: its refreshes answer `USER_NOT_FOUND`, its ID tokens stop being
    /// accepted, and its open database streams get `auth_revoked`.
    ///
    /// - Throws: `FirebaseTestServerAuthError.userNotFound`.
    public func deleteUser(uid: String) throws(FirebaseTestServerAuthError) {
        let found = engine.mutate { state, effects in state.deleteAuthUser(uid, &effects) }
        if !found { throw .userNotFound(uid: uid) }
    }

    /// Sets the custom claims of `uid` (replacing the old ones): ID tokens issued from now on
    /// carry them at the top level, as Firebase's do.
    ///
    /// - Throws: `FirebaseTestServerAuthError.userNotFound`, or `.reservedClaim` for a claim
    ///   Firebase reserves (`iss`, `sub`, `firebase`, …).
    public func setCustomClaims(_ claims: [String: JSONValue], uid: String) throws(FirebaseTestServerAuthError) {
        if let reserved = claims.keys.sorted().first(where: { AuthState.reservedClaims.contains($0) }) { throw .reservedClaim(reserved) }
        let found = engine.mutate { state, _ -> Bool in
            guard state.auth.users[uid] != nil else { return false }
            state.auth.users[uid]?.customClaims = claims
            return true
        }
        if !found { throw .userNotFound(uid: uid) }
    }

    /// Revokes the refresh tokens of `uid` issued until now (they answer `TOKEN_EXPIRED`), as
    /// firebase-admin's `revoke_refresh_tokens` does. ID tokens stay valid until they expire.
    ///
    /// - Throws: `FirebaseTestServerAuthError.userNotFound`.
    public func revokeRefreshTokens(uid: String) throws(FirebaseTestServerAuthError) {
        let found = engine.mutate { state, _ -> Bool in
            guard state.auth.users[uid] != nil else { return false }
            // Strictly after every token issued so far (they compare `issuedAt >= validSince`).
            let now = state.auth.clock(Date())
            state.auth.users[uid]?.validSince = now.nextUp
            return true
        }
        if !found { throw .userNotFound(uid: uid) }
    }

    /// A custom token for `uid` as firebase-admin mints it in emulator mode (unsigned JWT,
    /// `uid`, `claims`, one hour of validity on the auth clock): sign in with it at
    /// `accounts:signInWithCustomToken`. The user is created then if it does not exist.
    public func mintCustomToken(uid: String, claims: [String: JSONValue] = [:]) -> String {
        let now = authClockNow.timeIntervalSince1970.rounded(.down)
        var payload: [String: JSONValue] = [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com", "aud": .string(AuthWire.customTokenAudience),
            "uid": .string(uid), "iat": .number(now), "exp": .number(now + 3600),
        ]
        if !claims.isEmpty { payload["claims"] = .object(claims) }
        return AuthJWT.encode(.object(payload))
    }

    /// How long the ID tokens the server issues live (`exp - iat`, `expiresIn`), 3600 seconds by
    /// default; applies to tokens issued from now on.
    public var idTokenLifetime: TimeInterval {
        get { engine.read { $0.auth.idTokenLifetime } }
        set { engine.mutate { state, _ in state.auth.idTokenLifetime = max(0, newValue) } }
    }

    /// The auth clock: the real time plus what `advanceAuthClock(by:)` added. Tokens' `iat`,
    /// `exp` and `auth_time` are on this clock, and expiry is judged by it.
    public var authClockNow: Date {
        engine.read { Date(timeIntervalSince1970: $0.auth.clock(Date())) }
    }

    /// Moves the auth clock forward by `seconds` (negative values are ignored): ID tokens whose
    /// `exp` it passes are refused from now on (`TOKEN_EXPIRED`, database 401 `Auth token is
    /// expired`) and open database streams opened with them get `auth_revoked` and close.
    public func advanceAuthClock(by seconds: TimeInterval) {
        engine.mutate { state, effects in
            state.auth.clockOffset += max(0, seconds)
            state.endDatabaseStreamsWithInvalidTokens(&effects)
        }
    }

    /// Whether a failed password sign-in answers `INVALID_LOGIN_CREDENTIALS` (`true`, the
    /// default: email enumeration protection, as Firebase projects created since September 2023)
    /// or says which part was wrong (`false`: `EMAIL_NOT_FOUND`, `INVALID_PASSWORD`, the
    /// emulator's default and older projects'). The emulator's `PATCH /emulator/v1/projects/{project}/config`
    /// (`emailPrivacyConfig.enableImprovedEmailPrivacy`) sets it too.
    public var emailEnumerationProtection: Bool {
        get { engine.read { $0.auth.emailEnumerationProtection } }
        set { engine.mutate { state, _ in state.auth.emailEnumerationProtection = newValue } }
    }

    /// Makes the next `count` sign-ins (sign-up, password, custom token) and ID token refreshes
    /// answer 400 `TOO_MANY_ATTEMPTS_TRY_LATER`, as Firebase does when it throttles a client.
    public func rejectSignInsAsTooManyAttempts(count: Int = 1) {
        engine.mutate { state, _ in state.auth.tooManyAttemptsRemaining = max(0, count) }
    }
}
