import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// Our `FirebaseAuth`, with the real `URLSessionTransport`, against an Auth server that is not ours:
/// `Scripts/independent_auth_server.py`, written from Google's REST reference, with faults (5xx,
/// malformed JSON, slow answers, dropped connections, expired refresh tokens). Real I/O: every wait
/// is on a condition with a generous bound, and no test asserts a duration.
final class IndependentAuthServerTests: XCTestCase {
    private var server: IndependentAuthServer!

    /// The bound on any one wait for an answer (a failure guard, not a timing).
    private let answerTimeout: TimeInterval = 60

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try IndependentAuthServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    // MARK: Helpers

    private func makeAuth(storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage(), requestTimeout: TimeInterval = 30) -> FirebaseAuth {
        FirebaseAuth(
            apiKey: IndependentAuthServer.apiKey, endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "auth"),
            storage: storage, requestTimeout: requestTimeout)
    }

    private func value<Element>(_ single: Single<Element>) throws -> Element {
        try single.asObservable().toBlocking(timeout: answerTimeout).single()
    }

    /// The `FirebaseAuthError` `single` fails with (failing the test if it succeeds or fails otherwise).
    private func authError<Element>(_ single: Single<Element>, file: StaticString = #filePath, line: UInt = #line) -> FirebaseAuthError? {
        authError(single.asObservable(), file: file, line: line)
    }

    private func authError<Element>(_ source: Observable<Element>, file: StaticString = #filePath, line: UInt = #line) -> FirebaseAuthError? {
        switch source.toBlocking(timeout: answerTimeout).materialize() {
        case .completed(let elements):
            XCTFail("expected a FirebaseAuthError, got \(elements)", file: file, line: line)
            return nil
        case .failed(_, let error):
            guard let error = error as? FirebaseAuthError else {
                XCTFail("expected a FirebaseAuthError, got \(type(of: error)): \(error)", file: file, line: line)
                return nil
            }
            return error
        }
    }

    /// The claims of a JWT's payload.
    private func claims(_ token: String) throws -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 3, "a JWT has three parts")
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        return try XCTUnwrap(try JSONValue(parsing: try XCTUnwrap(Data(base64Encoded: payload))).objectValue)
    }

    /// A custom token as an app's backend mints one (here unsigned: the server checks its shape
    /// and `uid`, not a service account's signature).
    private func customToken(uid: String) -> String {
        func encode(_ json: JSONValue) -> String {
            json.data().base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let now = Date().timeIntervalSince1970.rounded()
        let payload: JSONValue = [
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "iss": "firebase-adminsdk@demo-independent.iam.gserviceaccount.com", "sub": "firebase-adminsdk@demo-independent.iam.gserviceaccount.com",
            "uid": .string(uid), "iat": .number(now), "exp": .number(now + 3600),
        ]
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(payload) + "."
    }

    /// Signs a new email account in and returns it.
    private func signedInWithEmail(_ auth: FirebaseAuth, email: String = "ada@example.com", password: String = "correct horse") throws -> FirebaseUser {
        try value(auth.createUser(email: email, password: password))
    }

    // MARK: The server itself

    func testWithoutPython3_setUpFailsSayingSo() {
        XCTAssertThrowsError(try IndependentAuthServer(environment: ["PATH": "/nonexistent"])) { error in
            XCTAssertTrue("\(error)".contains("python3 is not on PATH"), "\(error)")
        }
    }

    // MARK: Each kind of sign-in

    func testSignInAnonymously_signsInAnAnonymousUserTheServerKnows() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let states = EventRecorder(auth.authState)
            let user = try value(auth.signInAnonymously())
            XCTAssertTrue(user.isAnonymous)
            XCTAssertNil(user.email)
            XCTAssertEqual(auth.currentUser, user)
            XCTAssertEqual(try server.userIDs(), [user.uid])
            let token = try value(auth.idToken())
            let claims = try claims(token)
            XCTAssertEqual(claims["sub"]?.stringValue, user.uid)
            XCTAssertEqual(claims["aud"]?.stringValue, IndependentAuthServer.project)
            XCTAssertEqual(claims["firebase"]?["sign_in_provider"]?.stringValue, "anonymous")
            XCTAssertTrue(states.wait(timeout: answerTimeout) { $0.count == 2 })
            XCTAssertEqual(states.elements, [nil, user])
            XCTAssertEqual(try server.requests(.signUp), 1)
            XCTAssertEqual(try server.requests(.token), 0, "a fresh token is not refreshed")
            states.dispose()
        }
    }

    func testCreateUserThenSignIn_isTheSameAccount() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let created = try signedInWithEmail(auth)
            XCTAssertFalse(created.isAnonymous)
            XCTAssertEqual(created.email, "ada@example.com")
            auth.signOut()
            XCTAssertNil(auth.currentUser)
            let signedIn = try value(auth.signIn(email: "ada@example.com", password: "correct horse"))
            XCTAssertEqual(signedIn, created)
            XCTAssertEqual(auth.currentUser, created)
            XCTAssertEqual(try claims(try value(auth.idToken()))["email"]?.stringValue, "ada@example.com")
            XCTAssertEqual(try server.requests(.signInWithPassword), 1)
        }
    }

    func testSignInWithCustomToken_isTheTokensUser() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try value(auth.signIn(customToken: customToken(uid: "backend-user-7")))
            XCTAssertEqual(user.uid, "backend-user-7")
            XCTAssertFalse(user.isAnonymous)
            XCTAssertNil(user.email)
            XCTAssertEqual(try claims(try value(auth.idToken()))["firebase"]?["sign_in_provider"]?.stringValue, "custom")
            XCTAssertEqual(try server.requests(.signInWithCustomToken), 1)
        }
    }

    func testDeleteUser_deletesTheAccountOnTheServerAndSignsOut() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try signedInWithEmail(auth)
            let states = EventRecorder(auth.authState)
            XCTAssertNil(authErrorOrNil(auth.deleteUser().asObservable()))
            XCTAssertEqual(try server.userIDs(), [], "the server no longer has \(user.uid)")
            XCTAssertNil(auth.currentUser)
            XCTAssertTrue(states.wait(timeout: answerTimeout) { $0.count == 2 })
            XCTAssertEqual(states.elements, [user, nil])
            XCTAssertEqual(try server.requests(.delete), 1)
            XCTAssertEqual(authError(auth.deleteUser().asObservable()), .notSignedIn)
            states.dispose()
        }
    }

    private func authErrorOrNil<Element>(_ source: Observable<Element>) -> Error? {
        if case .failed(_, let error) = source.toBlocking(timeout: answerTimeout).materialize() { return error }
        return nil
    }

    // MARK: Each error code the server sends

    func testErrorCodes_ofSignUpAndSignIn_mapToTheirCases() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            _ = try signedInWithEmail(auth)
            auth.signOut()
            XCTAssertEqual(authError(auth.createUser(email: "ada@example.com", password: "another one")), .emailAlreadyInUse, "EMAIL_EXISTS")
            XCTAssertEqual(authError(auth.createUser(email: "bob@example.com", password: "123")), .weakPassword, "WEAK_PASSWORD : …")
            XCTAssertEqual(authError(auth.createUser(email: "not an email", password: "long enough")), .invalidEmail, "INVALID_EMAIL")
            XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "wrong horse")), .invalidCredential, "INVALID_LOGIN_CREDENTIALS")
            XCTAssertEqual(authError(auth.signIn(email: "nobody@example.com", password: "wrong horse")), .invalidCredential, "INVALID_LOGIN_CREDENTIALS")
            XCTAssertEqual(authError(auth.signIn(customToken: "not-a-jwt")), .invalidCustomToken, "INVALID_CUSTOM_TOKEN")
            XCTAssertNil(auth.currentUser, "no failed call signs anyone in")
        }
    }

    func testErrorCodes_legacyPasswordErrors_mapToTheirCases() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            _ = try signedInWithEmail(auth)
            auth.signOut()
            try server.setLegacyPasswordErrors(true)
            XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "wrong horse")), .invalidCredential, "INVALID_PASSWORD")
            XCTAssertEqual(authError(auth.signIn(email: "nobody@example.com", password: "wrong horse")), .userNotFound, "EMAIL_NOT_FOUND")
        }
    }

    func testErrorCodes_userDisabled_onSignInAndOnRefresh() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try signedInWithEmail(auth)
            let states = EventRecorder(auth.authState)
            try server.disableUser(email: "ada@example.com")
            XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .userDisabled, "USER_DISABLED on refresh")
            XCTAssertNil(auth.currentUser, "a disabled user is signed out")
            XCTAssertTrue(states.wait(timeout: answerTimeout) { $0.count == 2 })
            XCTAssertEqual(states.elements, [user, nil])
            XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "correct horse")), .userDisabled, "USER_DISABLED on sign-in")
            states.dispose()
        }
    }

    func testErrorCodes_userNotFound_onRefreshSignsOut() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try value(auth.signInAnonymously())
            try server.deleteUser(uid: user.uid)
            XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .userNotFound, "USER_NOT_FOUND")
            XCTAssertNil(auth.currentUser)
        }
    }

    func testErrorCodes_tooManyAttempts_andHTTP429() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            try server.fault(.signInWithPassword, "error", ["message": "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled"])
            XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "whatever1")), .tooManyRequests, "TOO_MANY_ATTEMPTS_TRY_LATER")
            // Google's quota answer: HTTP 429, status RESOURCE_EXHAUSTED, a sentence as the message.
            let quota = "Quota exceeded for quota metric 'Sign-up requests' and limit 'Sign-up requests per minute' of service 'identitytoolkit.googleapis.com'"
            try server.fault(.signUp, "status", ["status": 429, "message": .string(quota)])
            XCTAssertEqual(authError(auth.signInAnonymously()), .tooManyRequests, "HTTP 429")
        }
    }

    func testErrorCodes_anUnknownCode_isAServerErrorNamingIt() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            try server.fault(.signUp, "error", ["message": "BRAND_NEW_CODE : something the client has never seen"])
            guard case .server(let code, let message)? = authError(auth.signInAnonymously()) else {
                return XCTFail("expected .server(code:message:)")
            }
            XCTAssertEqual(code, "BRAND_NEW_CODE")
            XCTAssertTrue(message.contains("never seen"), message)
        }
    }

    func testErrorCodes_aWrongAPIKey_isAServerErrorWithoutTheKey() throws {
        try XCTAssertNoLeaksEventually {
            let auth = FirebaseAuth(
                apiKey: "wrong-key-4711", endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "auth"))
            let error = try XCTUnwrap(authError(auth.signInAnonymously()))
            guard case .server = error else { return XCTFail("expected .server, got \(error)") }
            XCTAssertFalse("\(error)".contains("wrong-key-4711"), "\(error)")
        }
    }

    // MARK: The session: expiry, revocation, refreshing

    func testExpiredRefreshToken_failsWithSessionExpiredAndAuthStateEmitsNil() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try signedInWithEmail(auth)
            let states = EventRecorder(auth.authState)
            try server.expireRefreshTokens()
            XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .sessionExpired, "TOKEN_EXPIRED")
            XCTAssertNil(auth.currentUser)
            XCTAssertTrue(states.wait(timeout: answerTimeout) { $0.count == 2 })
            XCTAssertEqual(states.elements, [user, nil])
            XCTAssertEqual(authError(auth.idToken()), .notSignedIn, "nothing is left to refresh")
            XCTAssertEqual(try server.requests(.token), 1)
            states.dispose()
        }
    }

    func testRevokedRefreshToken_failsWithSessionExpired() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            _ = try value(auth.signInAnonymously())
            try server.expireRefreshTokens(code: "INVALID_REFRESH_TOKEN")
            XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .sessionExpired, "INVALID_REFRESH_TOKEN")
            XCTAssertNil(auth.currentUser)
        }
    }

    func testATokenInsideTheFiveMinuteWindow_isRefreshedByTheNextCall() throws {
        try XCTAssertNoLeaksEventually {
            // 299 s: inside the 5-minute margin as it arrives, so no waiting is needed. (301 s
            // would leave it fresh for its first second, as in Firebase's SDKs, which refresh when
            // 300 s or less are left; a test cannot rely on that second.)
            try server.setTokenLifetime(299)
            let auth = makeAuth()
            let user = try value(auth.signInAnonymously())
            _ = try value(auth.idToken())
            XCTAssertEqual(try server.requests(.token), 1, "a token with 299 s left is refreshed")
            try server.setTokenLifetime(3600)
            let token = try value(auth.idToken())
            XCTAssertEqual(try server.requests(.token), 2, "the refreshed one had 299 s left too")
            XCTAssertEqual(try value(auth.idToken()), token)
            XCTAssertEqual(try server.requests(.token), 2, "an hour-long token is not refreshed")
            XCTAssertEqual(try claims(token)["sub"]?.stringValue, user.uid)
        }
    }

    func testForcingRefresh_refreshesAFreshToken() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            _ = try signedInWithEmail(auth)
            let first = try value(auth.idToken())
            XCTAssertEqual(try server.requests(.token), 0)
            let forced = try value(auth.idToken(forcingRefresh: true))
            XCTAssertEqual(try server.requests(.token), 1)
            XCTAssertEqual(try claims(forced)["sub"], try claims(first)["sub"])
            XCTAssertEqual(try value(auth.idToken()), forced, "the refreshed token is the cached one now")
            XCTAssertEqual(try server.requests(.token), 1)
        }
    }

    func testConcurrentCallers_shareOneRefresh_countedOnTheServer() throws {
        try XCTAssertNoLeaksEventually {
            try server.setTokenLifetime(299)  // the sign-in's token is due for a refresh at once
            let auth = makeAuth()
            _ = try value(auth.signInAnonymously())
            try server.setTokenLifetime(3600)
            try server.fault(.token, "hold")
            let callers = (0..<3).map { _ in EventRecorder(auth.idToken().asObservable()) }
            XCTAssertEqual(try server.awaitHeld(1), 1, "the refresh is in flight (held by the server) while all three wait")
            try server.release()
            for caller in callers { XCTAssertTrue(caller.waitForTermination(timeout: answerTimeout)) }
            let tokens = callers.map(\.elements)
            XCTAssertEqual(tokens.map(\.count), [1, 1, 1])
            XCTAssertEqual(Set(tokens.joined()).count, 1, "all three got the same token")
            XCTAssertEqual(try server.requests(.token), 1, "exactly one refresh request for three concurrent callers")
        }
    }

    func testConcurrentCallers_oneDisposedMidFlight_theOtherStillGetsTheToken() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            _ = try value(auth.signInAnonymously())
            try server.fault(.token, "hold")
            let leaving = EventRecorder(auth.idToken(forcingRefresh: true).asObservable())
            let staying = EventRecorder(auth.idToken(forcingRefresh: true).asObservable())
            XCTAssertEqual(try server.awaitHeld(1), 1)
            leaving.dispose()
            try server.release()
            XCTAssertTrue(staying.waitForTermination(timeout: answerTimeout))
            XCTAssertEqual(staying.elements.count, 1)
            XCTAssertEqual(leaving.events, [], "nothing after dispose")
            XCTAssertEqual(try value(auth.idToken()), staying.elements.first, "the refresh ran to its end and its token is kept")
            XCTAssertEqual(try server.requests(.token), 1)
        }
    }

    func testSignInDuringARefresh_theWaitingCallerGetsTheNewUsersToken() throws {
        try XCTAssertNoLeaksEventually {
            try server.setTokenLifetime(299)
            let auth = makeAuth()
            let first = try value(auth.signInAnonymously())
            try server.setTokenLifetime(3600)
            try server.fault(.token, "hold")
            let waiting = EventRecorder(auth.idToken().asObservable())
            XCTAssertEqual(try server.awaitHeld(1), 1, "the first user's refresh is in flight")
            let second = try signedInWithEmail(auth)
            try server.release()
            XCTAssertTrue(waiting.waitForTermination(timeout: answerTimeout))
            let token = try XCTUnwrap(waiting.elements.first, "\(waiting.events)")
            XCTAssertEqual(try claims(token)["sub"]?.stringValue, second.uid, "not \(first.uid)'s late token")
            XCTAssertEqual(auth.currentUser, second, "the first user's late refresh does not sign them back in")
        }
    }

    func testSignOutDuringARefresh_theLateAnswerDoesNotSignTheUserBackIn() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try value(auth.signInAnonymously())
            let states = EventRecorder(auth.authState)
            try server.fault(.token, "hold")
            let waiting = EventRecorder(auth.idToken(forcingRefresh: true).asObservable())
            XCTAssertEqual(try server.awaitHeld(1), 1)
            auth.signOut()
            try server.release()
            XCTAssertTrue(waiting.waitForTermination(timeout: answerTimeout))
            XCTAssertEqual(waiting.error as? FirebaseAuthError, .notSignedIn, "\(waiting.events)")
            XCTAssertNil(auth.currentUser)
            XCTAssertEqual(states.elements, [user, nil])
            states.dispose()
        }
    }

    func testDeleteUser_withADueToken_refreshesFirst_andA503KeepsTheUser() throws {
        try XCTAssertNoLeaksEventually {
            try server.setTokenLifetime(299)
            let auth = makeAuth()
            let user = try value(auth.signInAnonymously())
            try server.fault(.delete, "status", ["status": 503])
            guard case .network? = authError(auth.deleteUser().asObservable()) else { return XCTFail("HTTP 503 on delete: expected .network") }
            XCTAssertEqual(auth.currentUser, user, "a failed deletion keeps the user")
            XCTAssertEqual(try server.userIDs(), [user.uid])
            XCTAssertNil(authErrorOrNil(auth.deleteUser().asObservable()))
            XCTAssertEqual(try server.userIDs(), [])
            XCTAssertNil(auth.currentUser)
            XCTAssertEqual(try server.requests(.delete), 2)
            XCTAssertEqual(try server.requests(.token), 2, "each deletion sent a fresh ID token (the 299 s ones were due)")
        }
    }

    // MARK: Faults

    func testServerErrors_5xx_areNetworkErrorsAndTheUserStaysSignedIn() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            let user = try signedInWithEmail(auth)
            let states = EventRecorder(auth.authState)
            for status in [500, 503] {
                try server.fault(.token, "status", ["status": .number(Double(status))])
                guard case .network? = authError(auth.idToken(forcingRefresh: true)) else { return XCTFail("HTTP \(status) on refresh: expected .network") }
                XCTAssertEqual(auth.currentUser, user, "HTTP \(status) keeps the user signed in")
            }
            try server.fault(.signInWithPassword, "status", ["status": 503])
            guard case .network? = authError(auth.signIn(email: "ada@example.com", password: "correct horse")) else {
                return XCTFail("HTTP 503 on sign-in: expected .network")
            }
            XCTAssertEqual(auth.currentUser, user)
            _ = try value(auth.idToken(forcingRefresh: true))
            XCTAssertEqual(try server.requests(.token), 3, "the session still refreshes once the server recovers")
            XCTAssertEqual(states.elements, [user], "authState never left the user")
            states.dispose()
        }
    }

    func testMalformedJSON_isAMalformedResponseError() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            try server.fault(.signUp, "malformed")
            guard case .malformedResponse? = authError(auth.signInAnonymously()) else { return XCTFail("a body that is not JSON") }
            try server.fault(.signUp, "malformed", ["body": #"{"kind": "identitytoolkit#SignupNewUserResponse"}"#])
            guard case .malformedResponse? = authError(auth.signInAnonymously()) else { return XCTFail("JSON without the tokens") }
            // A custom-token answer names no user: it must be read from the ID token's payload.
            try server.fault(.signInWithCustomToken, "malformed", ["body": #"{"idToken": "abc", "refreshToken": "r", "expiresIn": "3600"}"#])
            guard case .malformedResponse? = authError(auth.signIn(customToken: customToken(uid: "u"))) else { return XCTFail("an ID token that is no JWT") }
            XCTAssertNil(auth.currentUser)

            let user = try value(auth.signInAnonymously())
            try server.fault(.token, "malformed")
            guard case .malformedResponse? = authError(auth.idToken(forcingRefresh: true)) else { return XCTFail("a refresh that is not JSON") }
            XCTAssertEqual(auth.currentUser, user, "a garbled refresh answer does not sign the user out")
        }
    }

    func testSlowServer_isTheClientsTimeoutError() throws {
        try XCTAssertNoLeaksEventually {
            // A short client timeout (1 s) against a 30 s delay: the test waits for the client's
            // timeout, never for the delay (the server is killed in tearDown). The session is
            // made by a client with the default timeout and shared through the storage, so a
            // loaded machine cannot make the sign-in itself time out.
            let storage = InMemoryFirebaseAuthStorage()
            let user = try signedInWithEmail(makeAuth(storage: storage))
            let auth = makeAuth(storage: storage, requestTimeout: 1)
            XCTAssertEqual(auth.currentUser, user)
            try server.fault(.token, "delay", ["seconds": 30])
            guard case .network? = authError(auth.idToken(forcingRefresh: true)) else { return XCTFail("a refresh past the timeout: expected .network") }
            XCTAssertEqual(auth.currentUser, user, "a timeout keeps the user signed in")
            try server.fault(.signUp, "delay", ["seconds": 30])
            guard case .network? = authError(auth.signInAnonymously()) else { return XCTFail("a sign-in past the timeout: expected .network") }
            XCTAssertEqual(auth.currentUser, user)
        }
    }

    func testDroppedConnection_isANetworkError() throws {
        try XCTAssertNoLeaksEventually {
            let auth = makeAuth()
            try server.fault(.signUp, "drop")
            guard case .network? = authError(auth.signInAnonymously()) else { return XCTFail("expected .network") }
            XCTAssertNil(auth.currentUser)
            let user = try value(auth.signInAnonymously())
            try server.fault(.token, "drop")
            guard case .network? = authError(auth.idToken(forcingRefresh: true)) else { return XCTFail("expected .network") }
            XCTAssertEqual(auth.currentUser, user)
        }
    }

    // MARK: Secrets

    func testFailedCalls_neverShowATokenPasswordOrAPIKey() throws {
        try XCTAssertNoLeaksEventually {
            let storage = InMemoryFirebaseAuthStorage()
            let auth = makeAuth(storage: storage)
            let password = "s3cret-pa55word"
            let user = try signedInWithEmail(auth, password: password)
            let idToken = try value(auth.idToken())
            let refreshToken = try XCTUnwrap(storage.load()).refreshToken
            let custom = customToken(uid: "backend-user-8")
            var errors: [FirebaseAuthError] = []
            // A server that echoes what it was sent (as some proxies and error pages do).
            try server.fault(
                .signInWithPassword, "error", ["message": .string("BRAND_NEW_CODE : rejected \(password) for key \(IndependentAuthServer.apiKey)")])
            errors += [authError(auth.signIn(email: "ada@example.com", password: password))].compactMap { $0 }
            try server.fault(.signInWithCustomToken, "error", ["message": .string("BRAND_NEW_CODE : rejected \(custom)")])
            errors += [authError(auth.signIn(customToken: custom))].compactMap { $0 }
            errors += [authError(auth.signIn(email: "ada@example.com", password: "wrong-\(password)"))].compactMap { $0 }
            try server.fault(.token, "status", ["status": 503, "message": .string("unavailable for \(refreshToken)")])
            errors += [authError(auth.idToken(forcingRefresh: true))].compactMap { $0 }
            try server.fault(.token, "malformed", ["body": .string("<html>\(idToken)")])
            errors += [authError(auth.idToken(forcingRefresh: true))].compactMap { $0 }
            try server.expireRefreshTokens()
            errors += [authError(auth.idToken(forcingRefresh: true))].compactMap { $0 }
            XCTAssertEqual(errors.count, 6)
            let secrets = [password, IndependentAuthServer.apiKey, idToken, refreshToken, custom]
            for error in errors {
                for text in [error.localizedDescription, String(describing: error), String(reflecting: error), "\(error as Error)"] {
                    for secret in secrets { XCTAssertFalse(text.contains(secret), "\(text) shows a secret") }
                }
            }
            var dumped = ""
            dump(auth, to: &dumped)
            for text in [String(describing: auth), String(reflecting: auth), dumped, String(describing: user)] {
                for secret in secrets { XCTAssertFalse(text.contains(secret), "\(text) shows a secret") }
            }
        }
    }
}
