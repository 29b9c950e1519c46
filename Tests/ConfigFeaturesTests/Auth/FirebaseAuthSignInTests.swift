import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// Each kind of sign-in: the request on the wire, the user it makes, and the errors it maps.
final class FirebaseAuthSignInTests: FirebaseAuthTestCase {
    func testSignInAnonymously_signsUpWithoutCredentials() throws {
        let (scheduler, transport, auth) = makeFixture()
        transport.reply(Self.signInAnswer(uid: "anon-1", idToken: Self.idToken(uid: "anon-1", provider: "anonymous")))
        let user = try value(of: auth.signInAnonymously(), on: scheduler)
        XCTAssertEqual(user, FirebaseUser(uid: "anon-1", isAnonymous: true))
        XCTAssertEqual(auth.currentUser, user)
        let request = try XCTUnwrap(transport.sentRequests.first).request
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.url.absoluteString, "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(Self.apiKey)")
        XCTAssertEqual(request.bodyJSON, ["returnSecureToken": true])
        XCTAssertEqual(request.header("content-type"), "application/json")
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), Self.idToken(uid: "anon-1", provider: "anonymous"))
        XCTAssertEqual(transport.sentRequests.count, 1, "the fresh token is the one the sign-in returned")
    }

    func testCreateUser_signsUpWithEmailAndPassword() throws {
        let (scheduler, transport, auth) = makeFixture()
        transport.reply(Self.signInAnswer(uid: "new-1", email: "ada@example.com"))
        let user = try value(of: auth.createUser(email: "ada@example.com", password: Self.password), on: scheduler)
        XCTAssertEqual(user, FirebaseUser(uid: "new-1", isAnonymous: false, email: "ada@example.com"))
        let request = try XCTUnwrap(transport.sentRequests.first).request
        XCTAssertEqual(request.url.path, "/identitytoolkit.googleapis.com/v1/accounts:signUp")
        XCTAssertEqual(request.bodyJSON, ["email": "ada@example.com", "password": .string(Self.password), "returnSecureToken": true])
    }

    func testSignInWithPassword_usesSignInWithPassword() throws {
        let (scheduler, transport, auth) = makeFixture()
        // The answer's email (as the server normalized it) wins over the one typed.
        transport.reply(Self.signInAnswer(uid: "uid-7", email: "ada@example.com"))
        let user = try value(of: auth.signIn(email: "Ada@Example.com", password: Self.password), on: scheduler)
        XCTAssertEqual(user, FirebaseUser(uid: "uid-7", isAnonymous: false, email: "ada@example.com"))
        let request = try XCTUnwrap(transport.sentRequests.first).request
        XCTAssertEqual(request.url.path, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword")
        XCTAssertEqual(request.bodyJSON, ["email": "Ada@Example.com", "password": .string(Self.password), "returnSecureToken": true])
    }

    func testSignInWithCustomToken_readsTheUserFromTheIDToken() throws {
        let (scheduler, transport, auth) = makeFixture()
        transport.reply(Self.signInAnswer(uid: nil, idToken: Self.idToken(uid: "backend-42", email: "bo@example.com", provider: "custom")))
        let user = try value(of: auth.signIn(customToken: "minted-SECRET-custom-token"), on: scheduler)
        XCTAssertEqual(user, FirebaseUser(uid: "backend-42", isAnonymous: false, email: "bo@example.com"))
        let request = try XCTUnwrap(transport.sentRequests.first).request
        XCTAssertEqual(request.url.path, "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken")
        XCTAssertEqual(request.bodyJSON, ["token": "minted-SECRET-custom-token", "returnSecureToken": true])

        // `sub` when there is no `user_id`; an anonymous provider makes an anonymous user.
        transport.reply(Self.signInAnswer(uid: nil, idToken: Self.jwt(["sub": "s-1", "firebase": ["sign_in_provider": "anonymous"]])))
        XCTAssertEqual(try value(of: auth.signIn(customToken: "t"), on: scheduler), FirebaseUser(uid: "s-1", isAnonymous: true))
    }

    func testSignInWithCustomToken_anIDTokenThatIsNoJWT_isAMalformedResponse() {
        let (scheduler, transport, auth) = makeFixture()
        for token in ["opaque", "a.!!!.c", Self.jwt(["no": "user"]), "a." + Data("[1]".utf8).base64EncodedString() + ".c"] {
            transport.reply(Self.signInAnswer(uid: nil, idToken: token))
            guard case .malformedResponse(let message)? = authError(of: auth.signIn(customToken: "t"), on: scheduler) else {
                return XCTFail("expected malformedResponse for \(token)")
            }
            XCTAssertFalse(message.contains(token), message)
        }
        XCTAssertNil(auth.currentUser)
    }

    func testSignIn_replacesTheCurrentUser() throws {
        let (scheduler, transport, auth) = makeFixture()
        try signIn(auth, transport, scheduler)
        transport.reply(Self.signInAnswer(uid: "anon-2", idToken: Self.idToken(uid: "anon-2", serial: 2)))
        _ = try value(of: auth.signInAnonymously(), on: scheduler)
        XCTAssertEqual(auth.currentUser, FirebaseUser(uid: "anon-2", isAnonymous: true))
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), Self.idToken(uid: "anon-2", serial: 2))
    }

    // MARK: - Errors

    func testIdentityToolkitCodes_mapToTypedErrors() {
        let cases: [(String, FirebaseAuthError)] = [
            ("EMAIL_EXISTS", .emailAlreadyInUse),
            ("INVALID_LOGIN_CREDENTIALS", .invalidCredential),
            ("INVALID_PASSWORD", .invalidCredential),
            ("EMAIL_NOT_FOUND", .userNotFound),
            ("USER_NOT_FOUND", .userNotFound),
            ("USER_DISABLED : The user account has been disabled by an administrator.", .userDisabled),
            ("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword),
            ("INVALID_EMAIL", .invalidEmail),
            ("TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled", .tooManyRequests),
            ("TOKEN_EXPIRED", .sessionExpired),
            ("INVALID_REFRESH_TOKEN", .sessionExpired),
            ("INVALID_ID_TOKEN", .sessionExpired),
            ("INVALID_CUSTOM_TOKEN : The custom token format is incorrect", .invalidCustomToken),
            ("CREDENTIAL_MISMATCH", .invalidCustomToken),
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
            ("OPERATION_NOT_ALLOWED : Password sign-in is disabled", .server(code: "OPERATION_NOT_ALLOWED", message: "Password sign-in is disabled")),
            ("API key not valid. Please pass a valid API key.", .server(code: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key.")),
        ]
        let (scheduler, transport, auth) = makeFixture()
        for (message, expected) in cases {
            transport.reply(Self.errorAnswer(message))
            XCTAssertEqual(authError(of: auth.signIn(email: "ada@example.com", password: Self.password), on: scheduler), expected, message)
        }
        XCTAssertNil(auth.currentUser)
    }

    func testServerMessages_areScrubbedOfTheSecretsSent() {
        let (scheduler, transport, auth) = makeFixture()
        transport.reply(Self.errorAnswer("ODD_CODE : echoing \(Self.password) and \(Self.apiKey)"))
        let error = authError(of: auth.signIn(email: "ada@example.com", password: Self.password), on: scheduler)
        XCTAssertEqual(error, .server(code: "ODD_CODE", message: "echoing <redacted> and <redacted>"))
        transport.reply(Self.errorAnswer("ODD_CODE : minted-SECRET"))
        XCTAssertEqual(authError(of: auth.signIn(customToken: "minted-SECRET"), on: scheduler), .server(code: "ODD_CODE", message: "<redacted>"))
    }

    func testMalformedAnswers_andServerFailures_areTyped() {
        let (scheduler, transport, auth) = makeFixture()
        let cases: [(FakeHTTPTransport.Reply, FirebaseAuthError)] = [
            (.status(200, "{not json"), .malformedResponse(message: "sign-in: the body is not a JSON object")),
            (.status(200, "[1, 2]"), .malformedResponse(message: "sign-in: the body is not a JSON object")),
            (.json(["refreshToken": "r", "expiresIn": "3600", "localId": "u"]), .malformedResponse(message: "sign-in: no idToken")),
            (.json(["idToken": "i", "expiresIn": "3600", "localId": "u"]), .malformedResponse(message: "sign-in: no refreshToken")),
            (.json(["idToken": "i", "refreshToken": "r", "expiresIn": "soon", "localId": "u"]), .malformedResponse(message: "sign-in: no valid expiresIn")),
            (.json(["idToken": "i", "refreshToken": "r", "expiresIn": "-5", "localId": "u"]), .malformedResponse(message: "sign-in: no valid expiresIn")),
            (.status(400, "<html>Bad Request</html>"), .malformedResponse(message: "HTTP 400 without an error code")),
            (.status(503, "unavailable"), .network(message: "HTTP 503 from the Auth service")),
            (.status(500), .network(message: "HTTP 500 from the Auth service")),
            (.status(429), .tooManyRequests),
            (.failure(HTTPTransportError.cannotConnect(message: "connection refused")), .network(message: "cannot connect: connection refused")),
            (.failure(HTTPTransportError.timedOut(message: "no answer in 9 s")), .network(message: "timed out: no answer in 9 s")),
        ]
        for (reply, expected) in cases {
            transport.reply(reply)
            XCTAssertEqual(authError(of: auth.signIn(email: "ada@example.com", password: Self.password), on: scheduler), expected)
        }
        XCTAssertNil(auth.currentUser)
        // A JSON `expiresIn` number is accepted too.
        transport.reply(.json(["idToken": "i", "refreshToken": "r", "expiresIn": 3600, "localId": "u"]))
        XCTAssertEqual(try? value(of: auth.signIn(email: "a@b.c", password: "p"), on: scheduler).uid, "u")
    }

    func testAFailedSignIn_keepsTheUserSignedIn() throws {
        let (scheduler, transport, auth) = makeFixture()
        let user = try signIn(auth, transport, scheduler)
        transport.reply(Self.errorAnswer("INVALID_LOGIN_CREDENTIALS"))
        XCTAssertEqual(authError(of: auth.signIn(email: "bo@example.com", password: "wrong"), on: scheduler), .invalidCredential)
        XCTAssertEqual(auth.currentUser, user)
    }

    func testResultsArriveOnTheScheduler() throws {
        let scheduler = TestScheduler(initialClock: 0)  // with its processing delay
        let transport = FakeHTTPTransport(scheduler: scheduler, latency: .seconds(5))
        let auth = makeAuth(scheduler, transport)
        transport.reply(Self.signInAnswer())
        let observer = scheduler.createObserver(String.self)
        _ = scheduler.scheduleAt(100) { _ = auth.signInAnonymously().asObservable().map(\.uid).subscribe(observer) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(106, "uid-1"), .completed(106)])
    }
}
