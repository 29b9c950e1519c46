import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Helpers for the Auth tests: the Identity Toolkit and Secure Token requests, JWT decoding.
class FirebaseTestServerAuthTestCase: FirebaseTestServerTestCase {
    /// `POST /identitytoolkit.googleapis.com/v1/accounts:{method}?key=…` with `body`.
    func account(_ method: String, _ body: JSONValue, key: String? = FirebaseTestServer.defaultAPIKey) throws -> HTTPResult {
        var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        components.path = "/identitytoolkit.googleapis.com/v1/accounts:\(method)"
        if let key { components.queryItems = [URLQueryItem(name: "key", value: key)] }
        return try client.send("POST", components.url!, json: body)
    }

    /// `POST /securetoken.googleapis.com/v1/token?key=…` with a form body.
    func refresh(_ form: String) throws -> HTTPResult {
        let url = URL(string: "\(server.baseURL)/securetoken.googleapis.com/v1/token?key=\(FirebaseTestServer.defaultAPIKey)")!
        return try client.send("POST", url, body: Data(form.utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }

    /// An Admin API request as firebase-admin sends it (`Authorization: Bearer owner`).
    func admin(_ method: String, _ suffix: String, json: JSONValue? = nil, query: String = "", bearer: String? = "owner") throws -> HTTPResult {
        let url = URL(string: "\(server.baseURL)/identitytoolkit.googleapis.com/v1/projects/\(server.project)/accounts\(suffix)\(query)")!
        let headers = bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        if let json { return try client.send(method, url, json: json, headers: headers) }
        return try client.send(method, url, headers: headers)
    }

    /// Signs `email`/`password` in and returns the answer's JSON (failing the test otherwise).
    func signIn(_ email: String, _ password: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let result = try account("signInWithPassword", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
        XCTAssertEqual(result.status, 200, result.text, file: file, line: line)
        return try XCTUnwrap(result.json, file: file, line: line)
    }

    /// The Auth error code of a Google error body (`error.message`).
    func errorMessage(_ result: HTTPResult) -> String? {
        result.json?["error"]?["message"]?.stringValue
    }

    /// The header and payload of a JWT, and its signature part.
    func decodeJWT(_ token: String, file: StaticString = #filePath, line: UInt = #line) throws -> (header: JSONValue, payload: JSONValue, signature: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(parts.count, 3, file: file, line: line)
        func decode(_ part: String) throws -> JSONValue {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try JSONValue(parsing: XCTUnwrap(Data(base64Encoded: base64), file: file, line: line))
        }
        return (try decode(parts[0]), try decode(parts[1]), parts[2])
    }
}

/// The client endpoints of the Auth emulator: sign-up, sign-in, lookup, update, delete, refresh.
final class FirebaseTestServerAuthClientTests: FirebaseTestServerAuthTestCase {
    // MARK: signUp

    func testSignUp_emailPasswordIssuesFirebaseIDTokenAndRefreshToken() throws {
        let result = try account("signUp", ["email": "ann@example.com", "password": "secret1", "returnSecureToken": true])
        XCTAssertEqual(result.status, 200, result.text)
        let body = try XCTUnwrap(result.json)
        XCTAssertEqual(body["kind"], "identitytoolkit#SignupNewUserResponse")
        XCTAssertEqual(body["email"], "ann@example.com")
        XCTAssertEqual(body["expiresIn"], "3600")
        let uid = try XCTUnwrap(body["localId"]?.stringValue)
        XCTAssertFalse(try XCTUnwrap(body["refreshToken"]?.stringValue).isEmpty)
        let jwt = try decodeJWT(try XCTUnwrap(body["idToken"]?.stringValue))
        XCTAssertEqual(jwt.header, ["alg": "none", "typ": "JWT"])
        XCTAssertEqual(jwt.signature, "", "unsigned, as the emulator's")
        let claims = jwt.payload
        XCTAssertEqual(claims["iss"], "https://securetoken.google.com/demo-project")
        XCTAssertEqual(claims["aud"], "demo-project")
        XCTAssertEqual(claims["sub"]?.stringValue, uid)
        XCTAssertEqual(claims["user_id"]?.stringValue, uid)
        XCTAssertEqual(claims["email"], "ann@example.com")
        XCTAssertEqual(claims["email_verified"], false)
        XCTAssertEqual(claims["firebase"], ["identities": ["email": ["ann@example.com"]], "sign_in_provider": "password"])
        let iat = try XCTUnwrap(claims["iat"]?.numberValue)
        XCTAssertEqual(claims["exp"]?.numberValue, iat + 3600)
        XCTAssertEqual(claims["auth_time"]?.numberValue, iat)
        XCTAssertEqual(iat, server.authClockNow.timeIntervalSince1970, accuracy: 60)
        XCTAssertEqual(server.user(uid: uid)?.email, "ann@example.com")
        XCTAssertEqual(server.user(uid: uid)?.hasPassword, true)
    }

    func testSignUp_withoutEmailIsAnonymous() throws {
        let result = try account("signUp", ["returnSecureToken": true])
        XCTAssertEqual(result.status, 200, result.text)
        let uid = try XCTUnwrap(result.json?["localId"]?.stringValue)
        let claims = try decodeJWT(try XCTUnwrap(result.json?["idToken"]?.stringValue)).payload
        XCTAssertEqual(claims["firebase"], ["identities": [:], "sign_in_provider": "anonymous"])
        XCTAssertNil(claims["email"])
        XCTAssertEqual(server.authUsers.map(\.uid), [uid])
        XCTAssertNil(server.user(uid: uid)?.email)
    }

    func testSignUp_errorsInGooglesShape() throws {
        _ = try account("signUp", ["email": "ann@example.com", "password": "secret1"])
        let exists = try account("signUp", ["email": "ANN@example.com", "password": "secret1"])
        XCTAssertEqual(exists.status, 400)
        XCTAssertEqual(
            exists.json,
            ["error": ["code": 400, "message": "EMAIL_EXISTS", "errors": [["message": "EMAIL_EXISTS", "domain": "global", "reason": "invalid"]]]])
        XCTAssertEqual(
            errorMessage(try account("signUp", ["email": "b@example.com", "password": "12345"])), "WEAK_PASSWORD : Password should be at least 6 characters")
        XCTAssertEqual(errorMessage(try account("signUp", ["email": "not-an-email", "password": "secret1"])), "INVALID_EMAIL")
        XCTAssertEqual(errorMessage(try account("signUp", ["email": "c@example.com"])), "MISSING_PASSWORD")
        XCTAssertEqual(server.authUsers.count, 1, "nothing created by a refused sign-up")
    }

    func testAPIKeyIsChecked() throws {
        let wrong = try account("signUp", [:], key: "other")
        XCTAssertEqual(wrong.status, 400)
        XCTAssertTrue(errorMessage(wrong)?.hasPrefix("API key not valid. Please pass a valid API key.") == true, wrong.text)
        let missing = try account("signUp", [:], key: nil)
        XCTAssertEqual(missing.status, 403)
        XCTAssertTrue(server.authUsers.isEmpty)
    }

    // MARK: signInWithPassword

    func testSignInWithPassword_successAndEnumerationProtectedFailures() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        let body = try signIn("ann@example.com", "secret1")
        XCTAssertEqual(body["kind"], "identitytoolkit#VerifyPasswordResponse")
        XCTAssertEqual(body["localId"]?.stringValue, uid)
        XCTAssertEqual(body["registered"], true)
        XCTAssertNotNil(server.user(uid: uid)?.lastSignInAt)
        XCTAssertEqual(errorMessage(try account("signInWithPassword", ["email": "ann@example.com", "password": "wrong!!"])), "INVALID_LOGIN_CREDENTIALS")
        XCTAssertEqual(errorMessage(try account("signInWithPassword", ["email": "bob@example.com", "password": "secret1"])), "INVALID_LOGIN_CREDENTIALS")
        XCTAssertEqual(errorMessage(try account("signInWithPassword", ["email": "ann@example.com"])), "MISSING_PASSWORD")
        XCTAssertEqual(errorMessage(try account("signInWithPassword", ["email": "ann", "password": "secret1"])), "INVALID_EMAIL")
    }

    func testSignInWithPassword_legacyErrorsWithoutEnumerationProtection() throws {
        try server.createUser(email: "ann@example.com", password: "secret1")
        server.emailEnumerationProtection = false
        XCTAssertEqual(
            errorMessage(try account("signInWithPassword", ["email": "ann@example.com", "password": "wrong!!"])),
            "INVALID_PASSWORD : The password is invalid or the user does not have a password.")
        XCTAssertEqual(
            errorMessage(try account("signInWithPassword", ["email": "bob@example.com", "password": "secret1"])),
            "EMAIL_NOT_FOUND : There is no user record corresponding to this identifier. The user may have been deleted.")
        // The emulator's config endpoint sets it back.
        let url = URL(string: "\(server.baseURL)/emulator/v1/projects/demo-project/config")!
        let patched = try client.send("PATCH", url, json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
        XCTAssertEqual(patched.json?["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"], true)
        XCTAssertTrue(server.emailEnumerationProtection)
    }

    func testSignIn_disabledUserAndTooManyAttempts() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        server.disableUser(uid: uid)
        XCTAssertEqual(
            errorMessage(try account("signInWithPassword", ["email": "ann@example.com", "password": "secret1"])),
            "USER_DISABLED : The user account has been disabled by an administrator.")
        try server.setUserDisabled(false, uid: uid)
        server.rejectSignInsAsTooManyAttempts(count: 1)
        let throttled = try account("signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
        XCTAssertEqual(throttled.status, 400)
        XCTAssertTrue(errorMessage(throttled)?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, throttled.text)
        _ = try signIn("ann@example.com", "secret1")
    }

    // MARK: signInWithCustomToken

    func testSignInWithCustomToken_createsTheUserAndCarriesTheClaims() throws {
        let token = server.mintCustomToken(uid: "player-1", claims: ["role": "admin", "level": 3])
        let first = try account("signInWithCustomToken", ["token": .string(token), "returnSecureToken": true])
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertEqual(first.json?["isNewUser"], true)
        let claims = try decodeJWT(try XCTUnwrap(first.json?["idToken"]?.stringValue)).payload
        XCTAssertEqual(claims["sub"], "player-1")
        XCTAssertEqual(claims["role"], "admin")
        XCTAssertEqual(claims["level"], 3)
        XCTAssertEqual(claims["firebase"]?["sign_in_provider"], "custom")
        XCTAssertNotNil(server.user(uid: "player-1"))
        let again = try account("signInWithCustomToken", ["token": .string(server.mintCustomToken(uid: "player-1"))])
        XCTAssertEqual(again.json?["isNewUser"], false)
    }

    func testSignInWithCustomToken_refusals() throws {
        XCTAssertTrue(errorMessage(try account("signInWithCustomToken", ["token": "garbage"]))?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
        XCTAssertEqual(errorMessage(try account("signInWithCustomToken", [:])), "MISSING_CUSTOM_TOKEN")
        let token = server.mintCustomToken(uid: "u1")
        server.advanceAuthClock(by: 3601)
        XCTAssertEqual(errorMessage(try account("signInWithCustomToken", ["token": .string(token)])), "INVALID_CUSTOM_TOKEN : Token expired.")
        try server.createUser(FirebaseTestServer.NewAuthUser(uid: "u2", disabled: true))
        XCTAssertTrue(
            errorMessage(try account("signInWithCustomToken", ["token": .string(server.mintCustomToken(uid: "u2"))]))?.hasPrefix("USER_DISABLED") == true)
    }

    // MARK: Custom claims

    func testCustomClaims_areMergedAtTheTopLevelOfNewTokens() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        try server.setCustomClaims(["admin": true, "groups": ["a", "b"]], uid: uid)
        let claims = try decodeJWT(try XCTUnwrap(signIn("ann@example.com", "secret1")["idToken"]?.stringValue)).payload
        XCTAssertEqual(claims["admin"], true)
        XCTAssertEqual(claims["groups"], ["a", "b"])
        XCTAssertThrowsError(try server.setCustomClaims(["sub": "x"], uid: uid)) { error in
            XCTAssertEqual(error as? FirebaseTestServerAuthError, .reservedClaim("sub"))
        }
        XCTAssertThrowsError(try server.setCustomClaims([:], uid: "nobody")) { error in
            XCTAssertEqual(error as? FirebaseTestServerAuthError, .userNotFound(uid: "nobody"))
        }
    }

    // MARK: lookup, update, delete

    func testLookupUpdateDelete_withTheIDToken() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        let idToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["idToken"])
        let lookup = try account("lookup", ["idToken": idToken])
        XCTAssertEqual(lookup.json?["users"]?[0]?["localId"]?.stringValue, uid)
        XCTAssertEqual(lookup.json?["users"]?[0]?["email"], "ann@example.com")
        XCTAssertNil(lookup.json?["users"]?[0]?["password"], "the password never leaves the server")
        XCTAssertFalse(lookup.text.contains("secret1"))

        let renamed = try account("update", ["idToken": idToken, "displayName": "Ann", "email": "ann@example.org", "returnSecureToken": true])
        XCTAssertEqual(renamed.status, 200, renamed.text)
        XCTAssertEqual(renamed.json?["displayName"], "Ann")
        XCTAssertEqual(renamed.json?["email"], "ann@example.org")
        XCTAssertNotNil(renamed.json?["idToken"], "an email change answers new tokens")
        XCTAssertEqual(
            errorMessage(try account("update", ["idToken": idToken, "password": "short"])), "WEAK_PASSWORD : Password should be at least 6 characters")
        try server.createUser(email: "bob@example.com", password: "secret2")
        XCTAssertEqual(errorMessage(try account("update", ["idToken": idToken, "email": "bob@example.com"])), "EMAIL_EXISTS")
        XCTAssertEqual(errorMessage(try account("lookup", ["idToken": "garbage"])), "INVALID_ID_TOKEN")

        let deleted = try account("delete", ["idToken": idToken])
        XCTAssertEqual(deleted.json, ["kind": "identitytoolkit#DeleteAccountResponse"])
        XCTAssertNil(server.user(uid: uid))
        XCTAssertEqual(errorMessage(try account("lookup", ["idToken": idToken])), "USER_NOT_FOUND")
    }

    func testLookup_expiredIDTokenIsRefused() throws {
        server.idTokenLifetime = 60
        try server.createUser(email: "ann@example.com", password: "secret1")
        let idToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["idToken"])
        XCTAssertEqual(try account("lookup", ["idToken": idToken]).status, 200)
        server.advanceAuthClock(by: 61)
        XCTAssertEqual(errorMessage(try account("lookup", ["idToken": idToken])), "TOKEN_EXPIRED")
    }

    // MARK: Refresh

    func testRefresh_issuesAFreshIDTokenOnTheAuthClock() throws {
        server.idTokenLifetime = 120
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        let body = try signIn("ann@example.com", "secret1")
        XCTAssertEqual(body["expiresIn"], "120")
        let refreshToken = try XCTUnwrap(body["refreshToken"]?.stringValue)
        let firstClaims = try decodeJWT(try XCTUnwrap(body["idToken"]?.stringValue)).payload
        server.advanceAuthClock(by: 500)
        let refreshed = try refresh("grant_type=refresh_token&refresh_token=\(refreshToken)")
        XCTAssertEqual(refreshed.status, 200, refreshed.text)
        XCTAssertEqual(refreshed.json?["user_id"]?.stringValue, uid)
        XCTAssertEqual(refreshed.json?["project_id"], "demo-project")
        XCTAssertEqual(refreshed.json?["token_type"], "Bearer")
        XCTAssertEqual(refreshed.json?["expires_in"], "120")
        XCTAssertEqual(refreshed.json?["refresh_token"]?.stringValue, refreshToken)
        let claims = try decodeJWT(try XCTUnwrap(refreshed.json?["id_token"]?.stringValue)).payload
        let iat = try XCTUnwrap(claims["iat"]?.numberValue)
        XCTAssertGreaterThanOrEqual(iat, try XCTUnwrap(firstClaims["iat"]?.numberValue) + 500)
        XCTAssertEqual(claims["exp"]?.numberValue, iat + 120)
        XCTAssertEqual(claims["auth_time"], firstClaims["auth_time"], "auth_time is the sign-in's")
    }

    func testRefresh_errors() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        let refreshToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["refreshToken"]?.stringValue)
        let form = "grant_type=refresh_token&refresh_token=\(refreshToken)"
        XCTAssertEqual(errorMessage(try refresh("grant_type=refresh_token&refresh_token=nope")), "INVALID_REFRESH_TOKEN")
        XCTAssertEqual(errorMessage(try refresh("grant_type=password")), "INVALID_GRANT_TYPE")
        XCTAssertEqual(errorMessage(try refresh("grant_type=refresh_token")), "MISSING_REFRESH_TOKEN")
        server.disableUser(uid: uid)
        XCTAssertEqual(errorMessage(try refresh(form)), "USER_DISABLED")
        try server.setUserDisabled(false, uid: uid)
        XCTAssertEqual(try refresh(form).status, 200)
        try server.revokeRefreshTokens(uid: uid)
        XCTAssertEqual(errorMessage(try refresh(form)), "TOKEN_EXPIRED")
        let newToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["refreshToken"]?.stringValue)
        XCTAssertEqual(try refresh("grant_type=refresh_token&refresh_token=\(newToken)").status, 200, "a sign-in after the revocation works")
        try server.deleteUser(uid: uid)
        XCTAssertEqual(errorMessage(try refresh("grant_type=refresh_token&refresh_token=\(newToken)")), "USER_NOT_FOUND")
    }

    func testRefresh_passwordChangeRevokesOlderRefreshTokens() throws {
        try server.createUser(email: "ann@example.com", password: "secret1")
        let body = try signIn("ann@example.com", "secret1")
        let old = try XCTUnwrap(body["refreshToken"]?.stringValue)
        let changed = try account("update", ["idToken": try XCTUnwrap(body["idToken"]), "password": "secret2", "returnSecureToken": true])
        XCTAssertEqual(changed.status, 200, changed.text)
        let new = try XCTUnwrap(changed.json?["refreshToken"]?.stringValue)
        XCTAssertEqual(errorMessage(try refresh("grant_type=refresh_token&refresh_token=\(old)")), "TOKEN_EXPIRED")
        XCTAssertEqual(try refresh("grant_type=refresh_token&refresh_token=\(new)").status, 200)
        _ = try signIn("ann@example.com", "secret2")
    }
}
