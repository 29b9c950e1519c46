import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsInspector
import StreamsTest

/// Tokens, passwords and the API key stay out of every printed form and out of the inspector.
final class FirebaseAuthRedactionTests: FirebaseAuthTestCase {
    func testNoPrintedFormContainsASecret() throws {
        let file = try temporaryFolder().appendingPathComponent("session.json")
        let scheduler = makeScheduler()
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let storage = try FileFirebaseAuthStorage(fileURL: file)
        let auth = makeAuth(scheduler, transport, storage: storage)
        let idToken = Self.idToken(email: "ada@example.com")
        transport.reply(Self.signInAnswer(idToken: idToken, refreshToken: "SECRET-refresh", email: "ada@example.com"))
        let user = try value(of: auth.signIn(email: "ada@example.com", password: Self.password), on: scheduler)
        let session = try XCTUnwrap(try storage.load())
        let memory = InMemoryFirebaseAuthStorage(session)
        transport.reply(Self.errorAnswer("WEIRD : \(Self.password) \(Self.apiKey)"))
        let error = try XCTUnwrap(authError(of: auth.signIn(email: "ada@example.com", password: Self.password), on: scheduler))

        let subjects: [Any] = [auth, user, session, storage, memory, error, FirebaseAuthError.sessionExpired, auth.endpoints]
        for subject in subjects {
            var dumped = ""
            dump(subject, to: &dumped)
            for text in [String(describing: subject), String(reflecting: subject), dumped] {
                for secret in [idToken, "SECRET-refresh", Self.password, Self.apiKey] {
                    XCTAssertFalse(text.contains(secret), "\(type(of: subject)) shows a secret: \(text)")
                }
            }
        }
        XCTAssertTrue(String(describing: auth).contains("uid-1"))
        XCTAssertTrue(String(reflecting: session).contains("uid-1"))
    }

    #if Inspector
    func testTheInspector_recordsNoTokenInsideTheClient() throws {
        Inspector.stop()
        Inspector.reset()
        Inspector.start(Inspector.Configuration(capturesCallStacks: false))
        defer {
            Inspector.stop()
            Inspector.reset()
        }
        let (scheduler, transport, auth) = makeFixture(latency: .seconds(1))
        try signIn(auth, transport, scheduler)
        let renewed = Self.idToken(serial: 2)
        transport.reply(Self.refreshAnswer(idToken: renewed, refreshToken: "SECRET-refresh-2"), .json([:]))
        XCTAssertEqual(try value(of: auth.idToken(forcingRefresh: true), on: scheduler), renewed)
        XCTAssertEqual(try value(of: auth.idToken(), on: scheduler), renewed)
        XCTAssertNoThrow(try outcome(of: auth.deleteUser(), on: scheduler).get())
        let events = Inspector.events()
        XCTAssertFalse(events.isEmpty, "the inspector recorded the client's streams")
        let secrets = [Self.idToken(), renewed, "refresh-token-1", "SECRET-refresh-2", Self.password, Self.apiKey]
        let leaking = events.filter { event in secrets.contains { event.value?.contains($0) == true } }
        // The element `idToken()` hands its subscriber is the bare token, in a chain marked
        // `redactedInInspector()`: the inspector records `<redacted>` for it.
        XCTAssertEqual(leaking, [], "\(leaking)")
        XCTAssertTrue(events.contains { $0.value == "<redacted>" }, "the idToken() chains were recorded, redacted")
        let json = Inspector.exportJSON()
        for secret in secrets {
            XCTAssertFalse(json.contains(secret), secret)
        }
    }
    #endif
}
