import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseAuth` and `FirebaseRESTDatabase` with `.user(auth)` (over the real
/// `URLSessionTransport`) against the loopback server as the Auth emulator, with database auth
/// required: each kind of sign-in, the claims the server decoded, reads, writes and streams as the
/// user, a token expired on the server's clock, `auth_revoked`, sign-out, a disabled user and a
/// session restored from a file.
final class AuthEndToEndTests: FirebaseTestServerTestCase {
    private func makeAuth(storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage()) -> FirebaseAuth {
        FirebaseAuth(
            apiKey: server.apiKey, endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "auth"), storage: storage,
            requestTimeout: networkTimeout)
    }

    private func makeDatabase(_ auth: FirebaseAuth) throws -> FirebaseRESTDatabase {
        try FirebaseRESTDatabase(
            endpoints: server.endpoints, auth: .user(auth), scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "database"),
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2), requestTimeout: networkTimeout)
    }

    private func wait<Source: ObservableConvertibleType>(_ source: Source) throws -> Source.Element {
        try source.toBlocking(timeout: networkTimeout).single()
    }

    private func error<Element>(_ source: Observable<Element>) -> Error? {
        if case .failed(_, let error) = source.toBlocking(timeout: networkTimeout).materialize() { return error }
        return nil
    }

    /// Who the server saw on its last database request.
    private var lastDatabaseAuth: FirebaseTestServer.RequestAuth? {
        server.requests(on: .database).last?.auth
    }

    // MARK: - Signing in

    func testEachKindOfSignIn_theServerDecodesTheUsersClaims() throws {
        try server.setDatabaseValue("hello", at: "greeting")
        server.requireDatabaseAuth()

        let ann = makeAuth()
        let created = try wait(ann.createUser(email: "ann@example.com", password: "secret1"))
        XCTAssertEqual(created.email, "ann@example.com")
        XCTAssertFalse(created.isAnonymous)
        XCTAssertEqual(server.user(uid: created.uid)?.email, "ann@example.com", "the account exists on the server")
        ann.signOut()
        let signedIn = try wait(ann.signIn(email: "ann@example.com", password: "secret1"))
        XCTAssertEqual(signedIn.uid, created.uid)
        XCTAssertEqual(try wait(makeDatabase(ann).getValue(at: "greeting")), "hello")
        let annSeen = try XCTUnwrap(lastDatabaseAuth)
        XCTAssertEqual(annSeen.uid, created.uid)
        XCTAssertEqual(annSeen.provider, "password")
        XCTAssertEqual(annSeen.token["email"], "ann@example.com")
        XCTAssertEqual(annSeen.token["user_id"]?.stringValue, created.uid)
        XCTAssertEqual(annSeen.token["aud"]?.stringValue, server.project)
        XCTAssertFalse(annSeen.isAdmin)

        let guest = makeAuth()
        let anonymous = try wait(guest.signInAnonymously())
        XCTAssertTrue(anonymous.isAnonymous)
        XCTAssertNil(anonymous.email)
        XCTAssertEqual(try wait(makeDatabase(guest).getValue(at: "greeting")), "hello")
        XCTAssertEqual(lastDatabaseAuth?.uid, anonymous.uid)
        XCTAssertEqual(lastDatabaseAuth?.provider, "anonymous")
        XCTAssertNil(lastDatabaseAuth?.token["email"])

        let carol = makeAuth()
        let custom = try wait(carol.signIn(customToken: server.mintCustomToken(uid: "carol", claims: ["role": "editor"])))
        XCTAssertEqual(custom.uid, "carol")
        XCTAssertEqual(try wait(makeDatabase(carol).getValue(at: "greeting")), "hello")
        XCTAssertEqual(lastDatabaseAuth?.uid, "carol")
        XCTAssertEqual(lastDatabaseAuth?.provider, "custom")
        XCTAssertEqual(lastDatabaseAuth?.token["role"], "editor")
        XCTAssertEqual(Set(server.authUsers.map(\.uid)), [created.uid, anonymous.uid, "carol"])
    }

    func testWrongPassword_isATypedErrorAndLeavesTheClientSignedOut() throws {
        try server.createUser(email: "ann@example.com", password: "secret1")
        let auth = makeAuth()
        guard case .failed(_, let failure) = auth.signIn(email: "ann@example.com", password: "wrong!").toBlocking(timeout: networkTimeout).materialize()
        else { return XCTFail("the sign-in succeeded") }
        XCTAssertEqual(failure as? FirebaseAuthError, .invalidCredential)
        XCTAssertNil(auth.currentUser)
        XCTAssertFalse("\(failure)".contains("wrong!"), "the password is not in the error")
    }

    // MARK: - The database as the user

    func testRequiredAuth_theUsersClientReadsWritesAndStreams_noUserIsDenied() throws {
        try XCTAssertNoLeaksEventually {
            server.requireDatabaseAuth()
            let auth = makeAuth()
            let user = try wait(auth.signInAnonymously())
            let database = try makeDatabase(auth)

            _ = try wait(database.setValue(["text": "hi"], at: "notes/\(user.uid)"))
            XCTAssertEqual(try server.databaseValue(at: "notes/\(user.uid)"), ["text": "hi"])
            XCTAssertEqual(lastDatabaseAuth?.uid, user.uid)
            let values = EventRecorder(database.observeValue(at: "notes/\(user.uid)/text"))
            XCTAssertTrue(values.waitForElements(1))
            try server.setDatabaseValue("hello again", at: "notes/\(user.uid)/text")
            XCTAssertTrue(values.waitForElements(2))
            XCTAssertEqual(values.elements, ["hi", "hello again"])
            XCTAssertEqual(server.requests(on: .database).filter { $0.header("Accept") == "text/event-stream" }.compactMap(\.auth?.uid), [user.uid])
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))

            let nobody = try makeDatabase(makeAuth())
            guard case .permissionDenied? = error(nobody.getValue(at: "notes")) as? FirebaseRESTDatabaseError else {
                return XCTFail("a request without a user is refused")
            }
            XCTAssertNil(server.requests(on: .database).last?.query["auth"], "no user, no token")
        }
    }

    func testTokenExpiredOnTheServersClock_theNextRequestRefreshesByItself() throws {
        try server.setDatabaseValue(1, at: "a")
        server.requireDatabaseAuth()
        let auth = makeAuth()
        let user = try wait(auth.signIn(customToken: server.mintCustomToken(uid: "ann")))
        let database = try makeDatabase(auth)
        XCTAssertEqual(try wait(database.getValue(at: "a")), 1)
        let first = try XCTUnwrap(server.requests(on: .database).last?.query["auth"])
        XCTAssertTrue(server.requests(on: .authTokenRefresh).isEmpty)

        server.advanceAuthClock(by: server.idTokenLifetime)
        XCTAssertEqual(try wait(database.getValue(at: "a")), 1, "refused once as expired, then refreshed and sent again")
        XCTAssertEqual(server.requests(on: .authTokenRefresh).count, 1)
        let tokens = server.requests(on: .database).map { $0.query["auth"] }
        XCTAssertEqual(tokens.count, 3)
        XCTAssertEqual(tokens[1], first, "the expired token was tried first")
        XCTAssertNotEqual(tokens[2], first)
        XCTAssertEqual(lastDatabaseAuth?.uid, user.uid)
        XCTAssertEqual(try wait(auth.idToken()), tokens[2], "the client keeps the refreshed token")
    }

    func testOpenStream_getsAuthRevokedAndReconnectsWithAFreshToken() throws {
        try server.setDatabaseValue("v1", at: "room")
        server.requireDatabaseAuth()
        let auth = makeAuth()
        let user = try wait(auth.signInAnonymously())
        let values = EventRecorder(try makeDatabase(auth).observeValue(at: "room"))
        defer { values.dispose() }
        XCTAssertTrue(values.waitForElements(1))
        let first = try XCTUnwrap(server.requests(on: .database).last?.query["auth"])

        server.advanceAuthClock(by: server.idTokenLifetime)
        XCTAssertTrue(server.waitForRequests(1, route: .authTokenRefresh), "auth_revoked made the client refresh")
        XCTAssertTrue(waitUntil { server.requests(on: .database).count == 2 && server.openStreamCount(route: .database) == 1 })
        let second = try XCTUnwrap(server.requests(on: .database).last)
        XCTAssertNotEqual(second.query["auth"], first)
        XCTAssertEqual(second.auth?.uid, user.uid)
        try server.setDatabaseValue("v2", at: "room")
        XCTAssertTrue(values.wait { $0.contains(.next("v2")) })
        XCTAssertNil(values.error, "the observation survived the revocation")
    }

    func testSignOut_theStreamReconnectsWithoutATokenAndIsDenied() throws {
        try server.setDatabaseValue("v1", at: "room")
        server.requireDatabaseAuth()
        let auth = makeAuth()
        _ = try wait(auth.signIn(customToken: server.mintCustomToken(uid: "ann")))
        let values = EventRecorder(try makeDatabase(auth).observeValue(at: "room"))
        defer { values.dispose() }
        XCTAssertTrue(values.waitForElements(1))

        auth.signOut()
        XCTAssertTrue(values.waitForTermination())
        guard case .permissionDenied? = values.error as? FirebaseRESTDatabaseError else { return XCTFail("\(values.events)") }
        let reconnect = try XCTUnwrap(server.requests(on: .database).last)
        XCTAssertNil(reconnect.query["auth"])
        XCTAssertNil(reconnect.auth)
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
    }

    // MARK: - The session ending or persisting

    func testDisabledUser_theNextRefreshFailsUserDisabledAndAuthStateEmitsNil() throws {
        let auth = makeAuth()
        let user = try wait(auth.createUser(email: "ann@example.com", password: "secret1"))
        let states = EventRecorder(auth.authState)
        defer { states.dispose() }
        XCTAssertEqual(states.elements, [user])

        server.disableUser(uid: user.uid)
        guard case .failed(_, let failure) = auth.idToken(forcingRefresh: true).toBlocking(timeout: networkTimeout).materialize() else {
            return XCTFail("the refresh succeeded")
        }
        XCTAssertEqual(failure as? FirebaseAuthError, .userDisabled)
        XCTAssertTrue(states.waitForElements(2))
        XCTAssertEqual(states.elements, [user, nil])
        XCTAssertNil(auth.currentUser)
        guard case .failed(_, let again) = auth.signIn(email: "ann@example.com", password: "secret1").toBlocking(timeout: networkTimeout).materialize() else {
            return XCTFail("a disabled user signed in")
        }
        XCTAssertEqual(again as? FirebaseAuthError, .userDisabled)
    }

    func testPersistedSession_isRestoredByASecondClientAndStillWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AuthEndToEnd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("auth-session.json")
        try server.setDatabaseValue("kept", at: "a")
        server.requireDatabaseAuth()

        let first = makeAuth(storage: try FileFirebaseAuthStorage(fileURL: file))
        let user = try wait(first.createUser(email: "ann@example.com", password: "secret1"))
        let token = try wait(first.idToken())
        let saved = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(saved.contains(user.uid))
        let signIns = server.requests(on: .auth).count

        let second = makeAuth(storage: try FileFirebaseAuthStorage(fileURL: file))
        XCTAssertEqual(second.currentUser, user, "restored from the file, before any request")
        XCTAssertEqual(try wait(makeDatabase(second).getValue(at: "a")), "kept")
        XCTAssertEqual(server.requests(on: .database).last?.query["auth"], token, "the stored, still fresh ID token")
        XCTAssertEqual(server.requests(on: .auth).count, signIns, "no new sign-in")

        server.advanceAuthClock(by: server.idTokenLifetime)
        XCTAssertEqual(try wait(makeDatabase(second).getValue(at: "a")), "kept", "the stored refresh token works")
        XCTAssertEqual(server.requests(on: .authTokenRefresh).count, 1)
        XCTAssertEqual(lastDatabaseAuth?.uid, user.uid)
        XCTAssertNotEqual(try String(contentsOf: file, encoding: .utf8), saved, "the refreshed token was saved")
    }
}
