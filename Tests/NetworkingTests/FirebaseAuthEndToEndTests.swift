import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseAuth` against `FirebaseTestServer`'s Auth emulator, over loopback: every sign-in kind,
/// refresh, revocation, deletion and the typed errors, with the server's own answers.
final class FirebaseAuthEndToEndTests: FirebaseTestServerTestCase {
    private let password = "SECRET-end-to-end-pw"

    private func makeAuth(storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage()) -> FirebaseAuth {
        FirebaseAuth(
            apiKey: server.apiKey, endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "auth-e2e"),
            storage: storage, requestTimeout: networkTimeout)
    }

    private func value<T>(_ single: Single<T>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        try single.toBlocking(timeout: networkTimeout).single()
    }

    private func authError<T>(_ single: Single<T>, file: StaticString = #filePath, line: UInt = #line) -> FirebaseAuthError? {
        switch single.toBlocking(timeout: networkTimeout).materialize() {
        case .completed(let elements):
            XCTFail("succeeded with \(elements)", file: file, line: line)
            return nil
        case .failed(_, let error):
            XCTAssertTrue(error is FirebaseAuthError, "\(error)", file: file, line: line)
            return error as? FirebaseAuthError
        }
    }

    func testEverySignInKind_againstTheServer() throws {
        let auth = makeAuth()
        let anonymous = try value(auth.signInAnonymously())
        XCTAssertTrue(anonymous.isAnonymous)
        XCTAssertEqual(server.user(uid: anonymous.uid)?.uid, anonymous.uid)

        let created = try value(auth.createUser(email: "ada@example.com", password: password))
        XCTAssertEqual(created.email, "ada@example.com")
        XCTAssertFalse(created.isAnonymous)
        auth.signOut()
        XCTAssertEqual(try value(auth.signIn(email: "ada@example.com", password: password)), created)

        let custom = try value(auth.signIn(customToken: server.mintCustomToken(uid: "backend-user-7")))
        XCTAssertEqual(custom, FirebaseUser(uid: "backend-user-7", isAnonymous: false))
        XCTAssertEqual(auth.currentUser, custom)
        XCTAssertFalse(try value(auth.idToken()).isEmpty)
    }

    func testTheServersErrors_areTyped() throws {
        let auth = makeAuth()
        _ = try value(auth.createUser(email: "ada@example.com", password: password))
        XCTAssertEqual(authError(auth.createUser(email: "ada@example.com", password: password)), .emailAlreadyInUse)
        XCTAssertEqual(authError(auth.createUser(email: "bo@example.com", password: "123")), .weakPassword)
        XCTAssertEqual(authError(auth.createUser(email: "not-an-email", password: password)), .invalidEmail)
        XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "wrong")), .invalidCredential)
        server.emailEnumerationProtection = false
        XCTAssertEqual(authError(auth.signIn(email: "nobody@example.com", password: password)), .userNotFound)
        XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: "wrong")), .invalidCredential)
        server.rejectSignInsAsTooManyAttempts()
        XCTAssertEqual(authError(auth.signIn(email: "ada@example.com", password: password)), .tooManyRequests)
        XCTAssertEqual(auth.currentUser?.email, "ada@example.com", "failed sign-ins left the user signed in")
        let wrongKey = FirebaseAuth(
            apiKey: "wrong-key", endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "auth-e2e"),
            requestTimeout: networkTimeout)
        guard case .server(_, let message)? = authError(wrongKey.signInAnonymously()) else { return XCTFail("expected a server error") }
        XCTAssertFalse(message.contains("wrong-key"), message)
    }

    func testRefresh_revocation_disabling_andDeletion() throws {
        let auth = makeAuth()
        let user = try value(auth.createUser(email: "ada@example.com", password: password))
        let first = try value(auth.idToken())
        XCTAssertEqual(try value(auth.idToken()), first, "fresh: cached")

        // Tokens of 300 s are due for refresh as soon as they are issued: every call refreshes.
        server.idTokenLifetime = 300
        _ = try value(auth.idToken(forcingRefresh: true))
        let refreshes = server.requests.filter { $0.path.hasSuffix("/v1/token") }.count
        _ = try value(auth.idToken())
        XCTAssertEqual(server.requests.filter { $0.path.hasSuffix("/v1/token") }.count, refreshes + 1)
        server.idTokenLifetime = 3600

        try server.revokeRefreshTokens(uid: user.uid)
        XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .sessionExpired)
        XCTAssertNil(auth.currentUser)

        _ = try value(auth.signIn(email: "ada@example.com", password: password))
        server.disableUser(uid: user.uid)
        XCTAssertEqual(authError(auth.idToken(forcingRefresh: true)), .userDisabled)
        XCTAssertNil(auth.currentUser)

        try server.setUserDisabled(false, uid: user.uid)
        _ = try value(auth.signIn(email: "ada@example.com", password: password))
        if case .failed(_, let error) = auth.deleteUser().toBlocking(timeout: networkTimeout).materialize() { XCTFail("\(error)") }
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(server.user(uid: user.uid), "deleted on the server")
    }

    func testTheSessionFile_signsInOnTheNextLaunch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FirebaseAuthEndToEnd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        let user = try value(makeAuth(storage: try FileFirebaseAuthStorage(fileURL: file)).signInAnonymously())
        let relaunched = makeAuth(storage: try FileFirebaseAuthStorage(fileURL: file))
        XCTAssertEqual(relaunched.currentUser, user)
        XCTAssertFalse(try value(relaunched.idToken(forcingRefresh: true)).isEmpty, "the stored refresh token works")
    }
}
