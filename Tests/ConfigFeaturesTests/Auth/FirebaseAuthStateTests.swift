import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// `authState`, `signOut()` and `deleteUser()`.
final class FirebaseAuthStateTests: FirebaseAuthTestCase {
    func testAuthState_replaysTheUser_thenEveryChange() throws {
        let (scheduler, transport, auth) = makeFixture()
        let states = scheduler.createObserver(FirebaseUser?.self)
        let subscription = auth.authState.subscribe(states)
        let ada = try signIn(auth, transport, scheduler, at: 100)
        try signIn(auth, transport, scheduler, at: 200)  // the same user again: still a sign-in
        transport.reply(Self.signInAnswer(uid: "anon-1"))
        let anonymous = try value(of: auth.signInAnonymously(), at: 300, on: scheduler)
        _ = scheduler.scheduleAt(400) { auth.signOut() }
        _ = scheduler.scheduleAt(450) { auth.signOut() }  // already signed out: no change
        scheduler.start()
        XCTAssertEqual(states.events, [.next(0, nil), .next(100, ada), .next(200, ada), .next(300, anonymous), .next(400, nil)])

        // A late subscriber gets the current user only.
        let late = scheduler.createObserver(FirebaseUser?.self)
        try signIn(auth, transport, scheduler, at: 500)
        let lateSubscription = auth.authState.subscribe(late)
        XCTAssertEqual(late.events, [.next(500, ada)])

        // Disposed mid-stream: nothing more.
        subscription.dispose()
        _ = scheduler.scheduleAt(600) { auth.signOut() }
        scheduler.start()
        XCTAssertEqual(states.events.count, 6)
        XCTAssertEqual(late.events, [.next(500, ada), .next(600, nil)])
        lateSubscription.dispose()
    }

    func testAuthState_anObserverThatChangesTheUser_getsTheChangesInOrder() throws {
        let (scheduler, transport, auth) = makeFixture()
        let ada = try signIn(auth, transport, scheduler, at: 100)
        let seen = LockedState<[FirebaseUser?]>([])
        let second = scheduler.createObserver(FirebaseUser?.self)
        let subscription = auth.authState.subscribe(onNext: { user in
            seen.withLock { $0.append(user) }
            if user != nil { auth.signOut() }  // reentrant: delivered after this call returns
        })
        let other = auth.authState.subscribe(second)
        XCTAssertEqual(seen.withLock { $0 }, [ada, nil])
        XCTAssertEqual(second.events, [.next(100, nil)], "the second subscriber subscribed after the sign-out")
        subscription.dispose()
        other.dispose()
    }

    func testSignOut_forgetsTheSessionAndItsStorage() throws {
        let storage = InMemoryFirebaseAuthStorage()
        let (scheduler, transport, auth) = makeFixture(storage: storage)
        try signIn(auth, transport, scheduler)
        XCTAssertEqual(storage.load()?.refreshToken, "refresh-token-1")
        auth.signOut()
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(storage.load())
        XCTAssertEqual(authError(of: auth.idToken(), on: scheduler), .notSignedIn)
        XCTAssertEqual(transport.sentRequests.count, 1, "signing out sends nothing")
    }

    func testDeleteUser_deletesTheAccountAndSignsOut() throws {
        let storage = InMemoryFirebaseAuthStorage()
        let (scheduler, transport, auth) = makeFixture(storage: storage)
        let user = try signIn(auth, transport, scheduler, at: 100)
        let states = scheduler.createObserver(FirebaseUser?.self)
        _ = auth.authState.subscribe(states)
        transport.reply(.json(["kind": "identitytoolkit#DeleteAccountResponse"]))
        let observer = scheduler.createObserver(Never.self)
        _ = scheduler.scheduleAt(200) { _ = auth.deleteUser().asObservable().subscribe(observer) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.completed(200)])
        let request = try XCTUnwrap(transport.sentRequests.last).request
        XCTAssertEqual(request.url.path, "/identitytoolkit.googleapis.com/v1/accounts:delete")
        XCTAssertEqual(request.bodyJSON, ["idToken": .string(Self.idToken())])
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(storage.load())
        XCTAssertEqual(states.events, [.next(100, user), .next(200, nil)])
    }

    func testDeleteUser_refreshesAStaleTokenFirst() throws {
        let (scheduler, transport, auth) = makeFixture()
        try signIn(auth, transport, scheduler, at: 100)
        let renewed = Self.idToken(serial: 2)
        transport.reply(Self.refreshAnswer(idToken: renewed), .json([:]))
        XCTAssertNoThrow(try outcome(of: auth.deleteUser(), at: 5000, on: scheduler).get())
        XCTAssertEqual(
            transport.sentRequests.map(\.request.url.path).suffix(2),
            ["/securetoken.googleapis.com/v1/token", "/identitytoolkit.googleapis.com/v1/accounts:delete"])
        XCTAssertEqual(transport.sentRequests.last?.request.bodyJSON, ["idToken": .string(renewed)])
    }

    func testDeleteUser_aServerErrorKeepsTheUser() throws {
        let storage = InMemoryFirebaseAuthStorage()
        let (scheduler, transport, auth) = makeFixture(storage: storage)
        let user = try signIn(auth, transport, scheduler)
        for (reply, expected) in [
            (Self.errorAnswer("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"), FirebaseAuthError.requiresRecentLogin),
            (.status(502), .network(message: "HTTP 502 from the Auth service")),
        ] {
            transport.reply(reply)
            let observer = scheduler.createObserver(Never.self)
            _ = auth.deleteUser().asObservable().subscribe(observer)
            scheduler.start()
            XCTAssertEqual(observer.events.first?.value.error as? FirebaseAuthError, expected)
            XCTAssertEqual(auth.currentUser, user)
            XCTAssertNotNil(storage.load())
        }
    }

    func testDeleteUser_signedOut_failsNotSignedIn() {
        let (scheduler, transport, auth) = makeFixture()
        let observer = scheduler.createObserver(Never.self)
        _ = auth.deleteUser().asObservable().subscribe(observer)
        scheduler.start()
        XCTAssertEqual(observer.events.first?.value.error as? FirebaseAuthError, .notSignedIn)
        XCTAssertTrue(transport.sentRequests.isEmpty)
    }

    func testDeleteUser_afterAnotherSignIn_doesNotSignTheNewUserOut() throws {
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(10))
        try signIn(auth, transport, scheduler, at: 100)
        transport.reply(Self.signInAnswer(uid: "uid-2"), .json([:]))
        let deletion = scheduler.createObserver(Never.self)
        _ = scheduler.scheduleAt(195) { _ = auth.signInAnonymously().subscribe() }  // answered at 205
        _ = scheduler.scheduleAt(200) { _ = auth.deleteUser().asObservable().subscribe(deletion) }  // uid-1's token; answered at 210
        scheduler.start()
        XCTAssertEqual(deletion.events, [.completed(210)])
        XCTAssertEqual(auth.currentUser?.uid, "uid-2", "the deletion was of uid-1's account")
    }

    // MARK: - Leaks and threads

    func testNoLeaks_signInTokenAuthStateDeleteSignOut() throws {
        try XCTAssertNoLeaks {
            let scheduler = makeScheduler()
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let auth = makeAuth(scheduler, transport)
            let states = auth.authState.subscribe()
            try signIn(auth, transport, scheduler)
            transport.reply(Self.refreshAnswer(idToken: "t2"), .json([:]))
            _ = try value(of: auth.idToken(forcingRefresh: true), on: scheduler)
            _ = outcome(of: auth.deleteUser(), on: scheduler)
            auth.signOut()
            states.dispose()
        }
    }

    func testManyThreads_readAndSubscribeWhileTheUserChanges() throws {
        // For ThreadSanitizer: state reads, subscriptions and sign-outs from many threads at once,
        // with answers on another thread.
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "auth-answers")
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let auth = FirebaseAuth(
            apiKey: Self.apiKey, endpoints: endpoints, scheduler: scheduler, storage: InMemoryFirebaseAuthStorage(), transport: transport, requestTimeout: 9)
        let emissions = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<20 {
                let subscription = auth.authState.subscribe(onNext: { _ in emissions.withLock { $0 += 1 } })
                transport.reply(Self.signInAnswer(uid: "u\(index)-\(round)"))
                _ = Self.blockingOutcome(of: auth.signInAnonymously())
                _ = auth.currentUser
                _ = Self.blockingOutcome(of: auth.idToken())
                if round % 3 == 0 { auth.signOut() }
                subscription.dispose()
            }
        }
        XCTAssertGreaterThanOrEqual(emissions.withLock { $0 }, 160, "each subscription got at least its replay")
    }
}
