import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// Scripted Identity Toolkit and Secure Token answers, and a `FirebaseAuth` on a fake transport
/// and virtual time, for the Auth unit tests.
class FirebaseAuthTestCase: XCTestCase {
    /// Secrets the tests check never appear in descriptions, dumps and errors.
    static let apiKey = "AIzaSECRET-api-key-0123"
    static let password = "SECRET-password-42"

    /// The emulator's endpoints: every request stays on loopback (nothing is sent anyway).
    let endpoints = try! FirebaseEndpoints.emulator(port: 9099)

    /// A scheduler whose work for "now" runs now (not a tick later), so a token issued by an
    /// answer at 100 expires at exactly 100 + expiresIn.
    func makeScheduler() -> TestScheduler {
        TestScheduler(initialClock: 0, simulateProcessingDelay: false)
    }

    func makeAuth(
        _ scheduler: TestScheduler, _ transport: FakeHTTPTransport, storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage()
    ) -> FirebaseAuth {
        FirebaseAuth(apiKey: Self.apiKey, endpoints: endpoints, scheduler: scheduler, storage: storage, transport: transport, requestTimeout: 9)
    }

    /// A scheduler, a fake transport answering on it after `latency`, and a client over both.
    func makeFixture(latency: RxTimeInterval = .seconds(0), storage: any FirebaseAuthStorage = InMemoryFirebaseAuthStorage()) -> (
        TestScheduler, FakeHTTPTransport, FirebaseAuth
    ) {
        let scheduler = makeScheduler()
        let transport = FakeHTTPTransport(scheduler: scheduler, latency: latency)
        return (scheduler, transport, makeAuth(scheduler, transport, storage: storage))
    }

    /// An unsigned JWT with `claims` as its payload (base64url, no padding), as the Auth emulator
    /// issues them.
    static func jwt(_ claims: JSONValue) -> String {
        func base64url(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return base64url(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + base64url(claims.data()) + "."
    }

    /// An ID token naming `uid` (and `email`), signed in with `provider`; `serial` tells tokens apart.
    static func idToken(uid: String = "uid-1", email: String? = nil, provider: String = "password", serial: Int = 1) -> String {
        var claims: [String: JSONValue] = [
            "user_id": .string(uid), "sub": .string(uid), "serial": .number(Double(serial)),
            "firebase": ["sign_in_provider": .string(provider)],
        ]
        if let email { claims["email"] = .string(email) }
        return jwt(.object(claims))
    }

    /// A sign-in answer (`accounts:signUp`, `signInWithPassword`; without `localId` for a custom token).
    static func signInAnswer(
        uid: String? = "uid-1", idToken: String = FirebaseAuthTestCase.idToken(), refreshToken: String = "refresh-token-1", expiresIn: String = "3600",
        email: String? = nil
    ) -> FakeHTTPTransport.Reply {
        var body: [String: JSONValue] = [
            "kind": "identitytoolkit#SignupNewUserResponse", "idToken": .string(idToken), "refreshToken": .string(refreshToken),
            "expiresIn": .string(expiresIn),
        ]
        if let uid { body["localId"] = .string(uid) }
        if let email { body["email"] = .string(email) }
        return .json(.object(body))
    }

    /// A Secure Token answer.
    static func refreshAnswer(uid: String = "uid-1", idToken: String, refreshToken: String = "refresh-token-2", expiresIn: String = "3600")
        -> FakeHTTPTransport.Reply
    {
        .json([
            "access_token": .string(idToken), "id_token": .string(idToken), "refresh_token": .string(refreshToken), "expires_in": .string(expiresIn),
            "token_type": "Bearer", "user_id": .string(uid), "project_id": "demo-project",
        ])
    }

    /// Identity Toolkit's refusal: `{"error": {"code": status, "message": message}}`.
    static func errorAnswer(_ message: String, status: Int = 400, errorStatus: String = "INVALID_ARGUMENT") -> FakeHTTPTransport.Reply {
        .json(["error": ["code": .number(Double(status)), "message": .string(message), "status": .string(errorStatus)]], status: status)
    }

    /// Subscribes to `single` at `time`, runs the scheduler until idle, and returns its outcome;
    /// fails the test when it did not finish.
    func outcome<T>(
        of single: Single<T>, at time: TestTime? = nil, on scheduler: TestScheduler, file: StaticString = #filePath, line: UInt = #line
    ) -> Result<T, Error> {
        let box = LockedState<Result<T, Error>?>(nil)
        let subscription = SerialDisposable()
        let subscribe = {
            subscription.disposable = single.subscribe(
                onSuccess: { value in box.withLock { $0 = .success(value) } }, onFailure: { error in box.withLock { $0 = .failure(error) } })
        }
        if let time { _ = scheduler.scheduleAt(time, action: subscribe) } else { subscribe() }
        scheduler.start()
        subscription.dispose()
        guard let result = box.withLock({ $0 }) else {
            XCTFail("the single did not finish", file: file, line: line)
            return .failure(RxError.noElements)
        }
        return result
    }

    /// The outcome of `completable`, as `outcome(of:at:on:)` for a single.
    func outcome(of completable: Completable, at time: TestTime? = nil, on scheduler: TestScheduler, file: StaticString = #filePath, line: UInt = #line)
        -> Result<Void, Error>
    {
        outcome(of: completable.andThen(Single.just(())), at: time, on: scheduler, file: file, line: line)
    }

    /// Waits (up to a generous 60 s, on a condition, not a duration) for `single` on real threads;
    /// `nil` when it did not finish.
    static func blockingOutcome<T>(of single: Single<T>) -> Result<T, Error>? {
        let box = LockedState<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = single.subscribe(
            onSuccess: { value in
                box.withLock { $0 = .success(value) }
                done.signal()
            },
            onFailure: { error in
                box.withLock { $0 = .failure(error) }
                done.signal()
            })
        _ = done.wait(timeout: .now() + 60)
        subscription.dispose()
        return box.withLock { $0 }
    }

    /// The element of a successful outcome (fails the test and throws otherwise).
    func value<T>(of single: Single<T>, at time: TestTime? = nil, on scheduler: TestScheduler, file: StaticString = #filePath, line: UInt = #line) throws
        -> T
    {
        try outcome(of: single, at: time, on: scheduler, file: file, line: line).get()
    }

    /// The ``FirebaseAuthError`` of a failed outcome, `nil` (and a test failure) otherwise.
    func authError<T>(of single: Single<T>, at time: TestTime? = nil, on scheduler: TestScheduler, file: StaticString = #filePath, line: UInt = #line)
        -> FirebaseAuthError?
    {
        switch outcome(of: single, at: time, on: scheduler, file: file, line: line) {
        case .success(let value):
            XCTFail("succeeded with \(value)", file: file, line: line)
            return nil
        case .failure(let error):
            guard let error = error as? FirebaseAuthError else {
                XCTFail("not a FirebaseAuthError: \(error)", file: file, line: line)
                return nil
            }
            return error
        }
    }

    /// Signs in with email and password at `time` (answered with `uid-1`, `idToken()` serial 1,
    /// expiring an hour later).
    @discardableResult
    func signIn(_ auth: FirebaseAuth, _ transport: FakeHTTPTransport, _ scheduler: TestScheduler, at time: TestTime = 100) throws -> FirebaseUser {
        transport.reply(Self.signInAnswer(email: "ada@example.com"))
        return try value(of: auth.signIn(email: "ada@example.com", password: Self.password), at: time, on: scheduler)
    }

    /// A folder of its own under the temporary directory, removed when the test ends.
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("FirebaseAuthTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
