import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// `idToken(forcingRefresh:)`: the cached token while fresh, a refresh 5 minutes before expiry,
/// one refresh in flight, and what a refused refresh does to the session.
final class FirebaseAuthTokenTests: FirebaseAuthTestCase {
    private let renewed = FirebaseAuthTestCase.idToken(serial: 2)

    func testIDToken_isCachedUntilFiveMinutesBeforeExpiry() throws {
        let (scheduler, transport, auth) = makeFixture()
        try signIn(auth, transport, scheduler, at: 100)  // expires at 3700
        XCTAssertEqual(try value(of: auth.idToken(), at: 100 + 3299, on: scheduler), Self.idToken())
        XCTAssertEqual(transport.sentRequests.count, 1, "301 s left: no refresh")

        transport.reply(Self.refreshAnswer(idToken: renewed))
        XCTAssertEqual(try value(of: auth.idToken(), at: 100 + 3301, on: scheduler), renewed)
        XCTAssertEqual(transport.sentRequests.count, 2, "299 s left: refreshed")
        let request = try XCTUnwrap(transport.sentRequests.last).request
        XCTAssertEqual(request.url.absoluteString, "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=\(Self.apiKey)")
        XCTAssertEqual(request.header("Content-Type"), "application/x-www-form-urlencoded")
        XCTAssertEqual(request.body.map { String(decoding: $0, as: UTF8.self) }, "grant_type=refresh_token&refresh_token=refresh-token-1")

        // The renewed token (issued at 3401) is cached in turn, and the new refresh token is used next.
        XCTAssertEqual(try value(of: auth.idToken(), at: 3401 + 3299, on: scheduler), renewed)
        XCTAssertEqual(transport.sentRequests.count, 2)
        transport.reply(Self.refreshAnswer(idToken: Self.idToken(serial: 3), refreshToken: "refresh-token-3"))
        XCTAssertEqual(try value(of: auth.idToken(), at: 3401 + 3301, on: scheduler), Self.idToken(serial: 3))
        XCTAssertEqual(
            transport.sentRequests.last?.request.body.map { String(decoding: $0, as: UTF8.self) }, "grant_type=refresh_token&refresh_token=refresh-token-2")
    }

    func testConcurrentCallers_shareOneRefresh() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        transport.reply(Self.refreshAnswer(idToken: renewed), Self.refreshAnswer(idToken: "unused"))
        let observers = (0..<3).map { _ in scheduler.createObserver(String.self) }
        for (index, observer) in observers.enumerated() {
            _ = scheduler.scheduleAt(4000 + index) { _ = auth.idToken().asObservable().subscribe(observer) }
        }
        scheduler.start()
        for observer in observers { XCTAssertEqual(observer.events, [.next(4010, renewed), .completed(4010)]) }
        XCTAssertEqual(transport.sentRequests.count, 2, "the sign-in and one refresh")
    }

    func testForcingRefresh_refreshesAFreshToken_andJoinsARefreshInFlight() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        transport.reply(Self.refreshAnswer(idToken: renewed), Self.refreshAnswer(idToken: "unused"))
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        _ = scheduler.scheduleAt(200) { _ = auth.idToken(forcingRefresh: true).asObservable().subscribe(first) }
        _ = scheduler.scheduleAt(205) { _ = auth.idToken(forcingRefresh: true).asObservable().subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, renewed), .completed(210)])
        XCTAssertEqual(second.events, [.next(210, renewed), .completed(210)])
        XCTAssertEqual(transport.sentRequests.count, 2, "one refresh for both")
        // Not forced and fresh: no request.
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), renewed)
        XCTAssertEqual(transport.sentRequests.count, 2)
    }

    func testIDToken_signedOut_failsNotSignedIn() {
        let (scheduler, transport, auth) = makeFixture()
        XCTAssertEqual(authError(of: auth.idToken(), on: scheduler), .notSignedIn)
        XCTAssertEqual(authError(of: auth.idToken(forcingRefresh: true), on: scheduler), .notSignedIn)
        XCTAssertTrue(transport.sentRequests.isEmpty)
    }

    func testARefusedRefresh_signsOut() throws {
        let cases: [(String, FirebaseAuthError)] = [
            ("TOKEN_EXPIRED", .sessionExpired), ("INVALID_REFRESH_TOKEN", .sessionExpired), ("USER_NOT_FOUND", .userNotFound),
            ("USER_DISABLED", .userDisabled),
        ]
        for (code, expected) in cases {
            let scheduler = makeScheduler()
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let storage = InMemoryFirebaseAuthStorage()
            let auth = makeAuth(scheduler, transport, storage: storage)
            let user = try signIn(auth, transport, scheduler, at: 100)
            let states = scheduler.createObserver(FirebaseUser?.self)
            _ = auth.authState.subscribe(states)
            XCTAssertNotNil(storage.load())
            transport.reply(Self.errorAnswer(code))
            XCTAssertEqual(authError(of: auth.idToken(forcingRefresh: true), at: 500, on: scheduler), expected, code)
            XCTAssertNil(auth.currentUser, code)
            XCTAssertNil(storage.load(), "the stored session is removed: \(code)")
            XCTAssertEqual(states.events, [.next(100, user), .next(500, nil)], code)
            XCTAssertEqual(authError(of: auth.idToken(), on: scheduler), .notSignedIn)
        }
    }

    func testAFailedRefresh_keepsTheUserSignedIn() throws {
        let failures: [FakeHTTPTransport.Reply] = [
            .failure(HTTPTransportError.connectionLost(message: "reset")), .status(503), .status(200, "garbage"),
            Self.errorAnswer("TOO_MANY_ATTEMPTS_TRY_LATER"),
        ]
        let (scheduler, transport, auth) = makeFixture()
        let user = try signIn(auth, transport, scheduler, at: 100)
        for reply in failures {
            transport.reply(reply)
            XCTAssertNotNil(authError(of: auth.idToken(forcingRefresh: true), on: scheduler))
            XCTAssertEqual(auth.currentUser, user)
        }
        // And the next call refreshes again (the failed refresh is not left in flight).
        transport.reply(Self.refreshAnswer(idToken: renewed))
        XCTAssertEqual(try value(of: auth.idToken(forcingRefresh: true), on: scheduler), renewed)
    }

    func testARefreshAnsweredForAnotherUser_isMalformed_andKeepsTheSession() throws {
        let (scheduler, transport, auth) = makeFixture()
        let user = try signIn(auth, transport, scheduler)
        transport.reply(Self.refreshAnswer(uid: "someone-else", idToken: renewed))
        XCTAssertEqual(
            authError(of: auth.idToken(forcingRefresh: true), on: scheduler), .malformedResponse(message: "token refresh: the answer is for another user"))
        XCTAssertEqual(auth.currentUser, user)
    }

    func testSigningOutDuringARefresh_failsItsCallers_andDiscardsItsAnswer() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        transport.reply(Self.refreshAnswer(idToken: renewed))
        let observer = scheduler.createObserver(String.self)
        _ = scheduler.scheduleAt(200) { _ = auth.idToken(forcingRefresh: true).asObservable().subscribe(observer) }
        _ = scheduler.scheduleAt(205) { auth.signOut() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.error(210, FirebaseAuthError.notSignedIn)])
        XCTAssertNil(auth.currentUser)
    }

    func testAnotherSignInDuringARefresh_givesItsCallersTheNewUsersToken() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        let other = Self.idToken(uid: "uid-2", serial: 9)
        transport.reply(Self.signInAnswer(uid: "uid-2", idToken: other), Self.refreshAnswer(idToken: renewed))
        let observer = scheduler.createObserver(String.self)
        _ = scheduler.scheduleAt(195) { _ = auth.signInAnonymously().subscribe() }  // answered at 205
        _ = scheduler.scheduleAt(200) { _ = auth.idToken(forcingRefresh: true).asObservable().subscribe(observer) }  // answered at 210
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, other), .completed(210)], "the stale refresh is retried for uid-2, whose token is fresh")
        XCTAssertEqual(auth.currentUser?.uid, "uid-2")
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), other)
    }

    func testDisposingACaller_doesNotCancelTheRefresh() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        transport.reply(Self.refreshAnswer(idToken: renewed))
        let observer = scheduler.createObserver(String.self)
        let subscription = SerialDisposable()
        _ = scheduler.scheduleAt(200) { subscription.disposable = auth.idToken(forcingRefresh: true).asObservable().subscribe(observer) }
        _ = scheduler.scheduleAt(205) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), renewed, "the refresh's token was kept")
        XCTAssertEqual(transport.sentRequests.count, 2)
    }
}
