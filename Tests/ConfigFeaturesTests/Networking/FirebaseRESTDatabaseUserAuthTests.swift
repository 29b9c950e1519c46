import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// A Firebase ID token (an unsigned JWT) for `uid`, numbered `serial` so tests tell tokens apart.
func testIDToken(_ uid: String, _ serial: Int) -> String {
    func encode(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    let claims = #"{"user_id":"\#(uid)","sub":"\#(uid)","serial":\#(serial),"firebase":{"sign_in_provider":"password"}}"#
    return encode(#"{"alg":"none","typ":"JWT"}"#) + "." + encode(claims) + ".sig\(serial)"
}

/// A `FirebaseAuth` over its own scripted transport, signed in as `uid` (its ID token
/// `testIDToken(uid, 1)`, expiring at 3600 s, so fresh until 3300) or signed out.
func makeTestAuth(_ scheduler: TestScheduler, signedInAs uid: String? = "alice") throws -> (FirebaseAuth, FakeHTTPTransport) {
    let transport = FakeHTTPTransport(scheduler: scheduler)
    let session = uid.map {
        FirebaseAuthSession(
            user: FirebaseUser(uid: $0, isAnonymous: false, email: "\($0)@example.com"), refreshToken: "refresh-\($0)", idToken: testIDToken($0, 1),
            idTokenExpiry: Date(timeIntervalSince1970: 3600))
    }
    let auth = FirebaseAuth(
        apiKey: "test-api-key", endpoints: try FirebaseEndpoints.emulator(port: 9099), scheduler: scheduler, storage: InMemoryFirebaseAuthStorage(session),
        transport: transport)
    return (auth, transport)
}

extension FakeHTTPTransport {
    /// The `index`-th stream, `nil` when there are fewer (a test then fails on its assertions
    /// instead of crashing).
    func stream(_ index: Int) -> Stream? {
        let all = streams
        return all.indices.contains(index) ? all[index] : nil
    }
}

extension FakeHTTPTransport.Reply {
    /// Secure Token's answer to a refresh: `testIDToken(uid, serial)`, valid for an hour.
    static func refreshed(_ uid: String, _ serial: Int) -> FakeHTTPTransport.Reply {
        .json(["id_token": .string(testIDToken(uid, serial)), "refresh_token": .string("refresh-\(uid)"), "expires_in": "3600", "user_id": .string(uid)])
    }

    /// Identity Toolkit's answer to a password sign-in as `uid`.
    static func signedIn(_ uid: String, _ serial: Int = 1) -> FakeHTTPTransport.Reply {
        .json([
            "idToken": .string(testIDToken(uid, serial)), "refreshToken": .string("refresh-\(uid)"), "expiresIn": "3600", "localId": .string(uid),
            "email": .string("\(uid)@example.com"),
        ])
    }
}

/// `FirebaseRESTAuth.user`: the database signs in through a `FirebaseAuth`.
final class FirebaseRESTDatabaseUserAuthTests: XCTestCase {
    private let base = URL(string: "https://db.test")!

    private func database(_ transport: FakeHTTPTransport, _ scheduler: TestScheduler, auth: FirebaseAuth) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: base, auth: .user(auth), scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 1, maximumDelay: 8), requestTimeout: 9,
            randomSource: { 0.5 }, transport: transport)
    }

    /// The `auth=` parameter of a request (`nil` without one).
    private func token(of request: WireRequest) -> String? {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "auth" }?.value
    }

    /// The refresh requests the client sent to Secure Token.
    private func refreshes(_ authTransport: FakeHTTPTransport) -> Int {
        authTransport.sentRequests.filter { $0.request.url.absoluteString.contains("token") && !$0.request.url.absoluteString.contains("accounts:") }.count
    }

    func testUserAuth_comparesByTheClientAndNeverShowsAToken() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let (alice, _) = try makeTestAuth(scheduler)
        let (other, _) = try makeTestAuth(scheduler)
        XCTAssertEqual(FirebaseRESTAuth.user(alice), .user(alice))
        XCTAssertNotEqual(FirebaseRESTAuth.user(alice), .user(other))
        XCTAssertNotEqual(FirebaseRESTAuth.user(alice), .none)
        XCTAssertEqual(Set([FirebaseRESTAuth.user(alice), .user(alice), .user(other)]).count, 2)
        XCTAssertEqual(FirebaseRESTAuth.user(alice).description, "user(<FirebaseAuth>)")
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let db = database(transport, scheduler, auth: alice)
        XCTAssertFalse("\(db.auth)".contains(testIDToken("alice", 1)))
        XCTAssertFalse(String(reflecting: db.auth).contains("sig1"))
    }

    func testUserAuth_credentialsNeverPrintTheirToken() {
        let token = testIDToken("alice", 7)
        let credentials: [Any] = [
            FirebaseRESTAuth.idToken(token), FirebaseRESTAuth.accessToken(token), RESTCredential(auth: .idToken(token), isUserToken: true, uid: "alice"),
            (RESTCredential(auth: .idToken(token), isUserToken: true, uid: "alice"), 1),
        ]
        for credential in credentials {
            var dumped = ""
            dump(credential, to: &dumped)
            for text in [String(describing: credential), String(reflecting: credential), dumped] {
                XCTAssertFalse(text.contains("sig7") || text.contains(token), text)
            }
        }
        XCTAssertEqual("\(RESTCredential(auth: .idToken(token), isUserToken: true, uid: "alice"))", "RESTCredential(idToken(<redacted>), user: alice)")
    }

    func testUserAuth_aPinnedRequestIsNeverSentAsAnotherUser() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (bob, _) = try makeTestAuth(scheduler, signedInAs: "bob")
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(.null))
            let db = database(transport, scheduler, auth: bob)
            let forAlice = try XCTUnwrap(db.pinned(to: "alice"))
            let refused = scheduler.recordEvents(subscribed: 100) { forAlice.setValue(1, at: "x") }
            let refusedStream = scheduler.recordEvents(subscribed: 100, disposed: 900) { forAlice.observeValue(at: "x") }
            let forBob = try XCTUnwrap(db.pinned(to: "bob"))
            let sent = scheduler.recordEvents(subscribed: 200) { forBob.setValue(2, at: "x") }
            scheduler.start()
            XCTAssertEqual(refused.events.count, 1)
            XCTAssertTrue(refused.events.first?.value.error is RESTUserChanged, "\(refused.events)")
            XCTAssertEqual(refusedStream.events, [], "a pinned stream retries with its backoff, never connecting as bob")
            XCTAssertEqual(sent.events.count, 2)
            XCTAssertEqual(transport.sentRequests.map { token(of: $0.request) }, [testIDToken("bob", 1)])
            XCTAssertEqual(transport.streams.count, 0)
            XCTAssertNil(FirebaseRESTDatabase(databaseURL: base, auth: .idToken("t"), scheduler: scheduler, transport: transport).pinned(to: "bob"))
        }
    }

    func testUserAuth_aPinnedRequestChecksTheTokensOwnUser() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let session = FirebaseAuthSession(
                user: FirebaseUser(uid: "bob", isAnonymous: false), refreshToken: "r", idToken: testIDToken("alice", 1),
                idTokenExpiry: Date(timeIntervalSince1970: 3600))
            let auth = FirebaseAuth(
                apiKey: "k", endpoints: try FirebaseEndpoints.emulator(port: 9099), scheduler: scheduler, storage: InMemoryFirebaseAuthStorage(session),
                transport: FakeHTTPTransport(scheduler: scheduler))
            let db = database(transport, scheduler, auth: auth)
            let forBob = try XCTUnwrap(db.pinned(to: "bob"))
            let refused = scheduler.recordEvents(subscribed: 100) { forBob.setValue(1, at: "x") }
            scheduler.start()
            XCTAssertTrue(refused.events.first?.value.error is RESTUserChanged, "\(refused.events)")
            XCTAssertEqual(transport.sentRequests.count, 0)
        }
    }

    func testUserAuth_everyRequestCarriesTheCurrentUsersToken() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(1), .json(["name": "-k"]), .json(.null), .json(2))
            let db = database(transport, scheduler, auth: auth)
            let read = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "x") }
            let push = scheduler.recordEvents(subscribed: 110) { db.push("hi", at: "g") }
            let write = scheduler.recordEvents(subscribed: 120) { db.setValue(3, at: "x") }
            scheduler.scheduleAt(200) { auth.signOut() }
            let signedOut = scheduler.recordEvents(subscribed: 300) { db.getValue(at: "x") }
            scheduler.start()
            XCTAssertEqual(read.events.map(\.value), [.next(1), .completed])
            XCTAssertEqual(push.events.map(\.value), [.next("-k"), .completed])
            XCTAssertEqual(write.events.count, 2)
            XCTAssertEqual(signedOut.events.map(\.value), [.next(2), .completed])
            XCTAssertEqual(
                transport.sentRequests.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 1), testIDToken("alice", 1), nil])
        }
    }

    func testUserAuth_anExpiredTokenIsRefreshedBeforeTheRequest() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(1), .json(2), .json(3))
            let db = database(transport, scheduler, auth: auth)
            let fresh = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "x") }
            // 3400 is within five minutes of the expiry (3600): the client refreshes first.
            let nearExpiry = scheduler.recordEvents(subscribed: 3400) { db.getValue(at: "x") }
            let again = scheduler.recordEvents(subscribed: 3500) { db.getValue(at: "x") }
            scheduler.start()
            XCTAssertEqual(fresh.events.map(\.value), [.next(1), .completed])
            XCTAssertEqual(nearExpiry.events.map(\.value), [.next(2), .completed])
            XCTAssertEqual(again.events.map(\.value), [.next(3), .completed])
            XCTAssertEqual(refreshes(authTransport), 1, "one refresh, then the new token is cached")
            XCTAssertEqual(transport.sentRequests.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 2), testIDToken("alice", 2)])
        }
    }

    func testUserAuth_a401RetriesOnceWithAForcedRefresh() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2), .refreshed("alice", 3))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let denied = FakeHTTPTransport.Reply.status(401, #"{"error":"Auth token is expired"}"#)
            transport.reply(denied, .json(1), denied, denied)
            let db = database(transport, scheduler, auth: auth)
            let retried = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "x") }
            let refused = scheduler.recordEvents(subscribed: 200) { db.getValue(at: "x") }
            scheduler.start()
            XCTAssertEqual(retried.events.map(\.value), [.next(1), .completed])
            XCTAssertEqual(refused.events.map(\.value), [.error(FirebaseRESTDatabaseError.permissionDenied(message: "Auth token is expired"))])
            XCTAssertEqual(
                transport.sentRequests.map { token(of: $0.request) },
                [testIDToken("alice", 1), testIDToken("alice", 2), testIDToken("alice", 2), testIDToken("alice", 3)], "one retry each, never more")
            XCTAssertEqual(refreshes(authTransport), 2)
        }
    }

    func testUserAuth_aFailedRefreshFailsTheRequestWithTheAuthError() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 3400)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.status(400, #"{"error":{"message":"TOKEN_EXPIRED"}}"#))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            let res = scheduler.start(created: 3500, subscribed: 3600, disposed: 4000) { db.getValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.error(FirebaseAuthError.sessionExpired)])
            XCTAssertEqual(transport.sentRequests.count, 0, "nothing sent without a credential")
            XCTAssertNil(auth.currentUser, "the client signed the user out")
        }
    }

    // MARK: - Streams

    func testUserAuth_streamsAskForTheTokenOnEveryConnection() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", 1))
            }
            // Dropped near the expiry: the reconnection asks the client, which refreshes.
            scheduler.scheduleAt(3400) { transport.stream(0)?.complete() }
            scheduler.scheduleAt(3450) {
                transport.stream(1)?.open()
                transport.stream(1)?.send(ssePut("/", 2))
            }
            let res = scheduler.start(created: 100, subscribed: 200, disposed: 4000) { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.next(1), .next(2)])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 2)])
            XCTAssertEqual(refreshes(authTransport), 1)
        }
    }

    func testUserAuth_authRevokedForcesARefreshAndReconnects() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", 1))
            }
            scheduler.scheduleAt(400) { transport.stream(0)?.send("event: auth_revoked\ndata: \"expired\"\n\n") }
            scheduler.scheduleAt(450) {
                transport.stream(1)?.open()
                transport.stream(1)?.send(ssePut("/", 1))  // the same snapshot: no duplicate
                transport.stream(1)?.send(ssePut("/", 2))
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.next(1), .next(2)])
            XCTAssertEqual(refreshes(authTransport), 1, "the token was fresh: the refresh was forced")
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 2)])
            XCTAssertTrue(transport.stream(0)?.isDisposed == true)
            XCTAssertEqual(db.auth, .user(auth), "the configured credential stays the client")
        }
    }

    func testUserAuth_a401StreamRetriesOnceWithAForcedRefresh() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open(status: 401)
                transport.stream(0)?.send(#"{"error":"Auth token is expired"}"#)
                transport.stream(0)?.complete()
            }
            scheduler.scheduleAt(400) {
                transport.stream(1)?.open(status: 401)
                transport.stream(1)?.send(#"{"error":"Permission denied"}"#)
                transport.stream(1)?.complete()
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.error(FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied"))])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 2)])
            XCTAssertEqual(refreshes(authTransport), 1)
        }
    }

    func testUserAuth_aFailedRefreshFailsTheObservationTyped() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            // A network failure of the refresh retries like a drop; an expired session ends it.
            authTransport.reply(.failure(HTTPTransportError.cannotConnect(message: "offline")), .status(400, #"{"error":{"message":"TOKEN_EXPIRED"}}"#))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", 1) + "event: auth_revoked\ndata: null\n\n")
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.next(1), .error(FirebaseAuthError.sessionExpired)])
            XCTAssertEqual(refreshes(authTransport), 2)
            XCTAssertEqual(transport.streams.count, 1, "no connection without a credential")
            XCTAssertFalse("\(res.events)".contains("sig1"), "no token in the error")
        }
    }

    func testUserAuth_signingOutReconnectsOpenStreamsWithoutACredential() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", "alice's"))
            }
            scheduler.scheduleAt(400) { auth.signOut() }
            // The rules deny the signed-out: the server answers 401, which ends the observation.
            scheduler.scheduleAt(450) {
                transport.stream(1)?.open(status: 401)
                transport.stream(1)?.send(#"{"error":"Permission denied"}"#)
                transport.stream(1)?.complete()
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.next("alice's"), .error(FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied"))])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), nil])
            XCTAssertTrue(transport.stream(0)?.isDisposed == true, "alice's stream is closed at the sign-out")
        }
    }

    func testUserAuth_anotherUserReconnectsOpenStreamsAndTheSnapshotReplacesTheTree() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.signedIn("bob"))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", ["a": 1, "b": 2]))
            }
            let signIn = scheduler.recordEvents(subscribed: 400) { auth.signIn(email: "bob@example.com", password: "pw-bob") }
            scheduler.scheduleAt(450) {
                transport.stream(1)?.open()
                transport.stream(1)?.send(ssePut("/", ["b": 2]))
                transport.stream(1)?.send(ssePatch("/", ["c": 3]))
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(signIn.events.first?.value.element?.uid, "bob")
            XCTAssertEqual(res.events.map(\.value), [.next(["a": 1, "b": 2]), .next(["b": 2]), .next(["b": 2, "c": 3])])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("bob", 1)])
        }
    }

    func testUserAuth_theDatabaseAndTheClientDoNotKeepEachOtherAlive() throws {
        weak var weakDatabase: FirebaseRESTDatabase?
        weak var weakAuth: FirebaseAuth?
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            weakDatabase = db
            weakAuth = auth
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", 1))
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.next(1)])
            XCTAssertEqual(db.activeObserverCount, 0)
            // After the observation ends, a sign-out opens nothing.
            auth.signOut()
            XCTAssertEqual(transport.streams.count, 1)
        }
        XCTAssertNil(weakDatabase)
        XCTAssertNil(weakAuth)
    }
}
