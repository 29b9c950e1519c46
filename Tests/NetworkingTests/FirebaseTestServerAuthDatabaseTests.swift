import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The database verifying the ID tokens the Auth emulator issues, and the redaction of
/// credentials in what the server records.
final class FirebaseTestServerAuthDatabaseTests: FirebaseTestServerAuthTestCase {
    private func idToken(_ email: String = "ann@example.com") throws -> String {
        if server.authUsers.first(where: { $0.email == email }) == nil { try server.createUser(email: email, password: "secret1") }
        return try XCTUnwrap(signIn(email, "secret1")["idToken"]?.stringValue)
    }

    func testRequiredAuth_acceptsIDTokensAndRecordsWhoTheServerSaw() throws {
        try server.setDatabaseValue(1, at: "a")
        server.requireDatabaseAuth()
        let token = try idToken()
        let uid = try XCTUnwrap(server.authUsers.first?.uid)
        try server.setCustomClaims(["role": "editor"], uid: uid)
        let withClaims = try XCTUnwrap(signIn("ann@example.com", "secret1")["idToken"]?.stringValue)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": token])).json, 1)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer \(withClaims)"]).json, 1)
        let seen = server.requests.filter { $0.route == .database }.compactMap(\.auth)
        XCTAssertEqual(seen.map(\.uid), [uid, uid])
        XCTAssertEqual(seen.map(\.provider), ["password", "password"])
        XCTAssertEqual(seen.last?.token["role"], "editor")
        XCTAssertEqual(seen.last?.isAdmin, false)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "owner"])).status, 200)
        XCTAssertEqual(server.requests.last?.auth?.isAdmin, true)
        let denied = try client.send("GET", server.databaseURL("/a"))
        XCTAssertEqual(denied.text, #"{"error":"Permission denied"}"#)
        XCTAssertNil(server.requests.last?.auth)
    }

    func testRequiredAuth_rejectsGarbageExpiredDisabledAndDeleted() throws {
        server.idTokenLifetime = 60
        server.requireDatabaseAuth(validTokens: ["legacy"])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "legacy"])).status, 200, "the fixed tokens still work")
        let garbage = try client.send("GET", server.databaseURL("/a", query: ["auth": "garbage"]))
        XCTAssertEqual(garbage.status, 401)
        XCTAssertEqual(garbage.text, #"{"error":"Could not parse auth token."}"#)
        let token = try idToken()
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": token])).status, 200)
        server.advanceAuthClock(by: 61)
        let expired = try client.send("GET", server.databaseURL("/a", query: ["auth": token]))
        XCTAssertEqual(expired.status, 401)
        XCTAssertEqual(expired.text, #"{"error":"Auth token is expired"}"#)

        let fresh = try idToken()
        let uid = try XCTUnwrap(server.authUsers.first?.uid)
        server.disableUser(uid: uid)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": fresh])).text, #"{"error":"Permission denied"}"#)
        try server.setUserDisabled(false, uid: uid)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": fresh])).status, 200)
        try server.deleteUser(uid: uid)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": fresh])).status, 401)
    }

    func testOpenDatabase_staysOpenButRefusesExpiredIDTokens() throws {
        server.idTokenLifetime = 60
        let token = try idToken()
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200, "no auth required by default")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "anything"])).status, 200)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": token])).status, 200)
        XCTAssertNotNil(server.requests.last?.auth, "a valid ID token is known even when auth is not required")
        server.advanceAuthClock(by: 60)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": token])).text, #"{"error":"Auth token is expired"}"#)
    }

    // MARK: Streams

    func testStream_authRevokedWhenItsTokenExpires() throws {
        server.idTokenLifetime = 300
        server.requireDatabaseAuth()
        let token = try idToken()
        let other = try idToken("bob@example.com")
        let expiring = openSSE("/a", query: ["auth": token])
        server.advanceAuthClock(by: 100)
        let later = try idToken("bob@example.com")
        let kept = openSSE("/a", query: ["auth": later])
        _ = other
        server.advanceAuthClock(by: 250)
        wait(for: [expiring.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(expiring.events.last, SSEEvent(event: "auth_revoked", data: "credential is no longer valid"))
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
        XCTAssertFalse(kept.snapshot.isFinished, "a stream whose token is still valid stays open")
    }

    func testStream_authRevokedWhenTheUserIsDisabledOrDeleted() throws {
        let annToken = try idToken()
        let bobToken = try idToken("bob@example.com")
        let ann = try XCTUnwrap(server.authUsers.first { $0.email == "ann@example.com" }?.uid)
        let bob = try XCTUnwrap(server.authUsers.first { $0.email == "bob@example.com" }?.uid)
        let disabled = openSSE("/a", query: ["auth": annToken])
        let deleted = openSSE("/a", query: ["auth": bobToken])
        let anonymous = openSSE("/a")
        server.disableUser(uid: ann)
        wait(for: [disabled.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(disabled.events.last?.event, "auth_revoked")
        try server.deleteUser(uid: bob)
        wait(for: [deleted.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(deleted.events.last?.event, "auth_revoked")
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
        XCTAssertFalse(anonymous.snapshot.isFinished)
    }

    // MARK: Redaction

    func testDescriptions_redactTokensAndPasswords() throws {
        let token = try idToken()
        let refreshToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["refreshToken"]?.stringValue)
        _ = try refresh("grant_type=refresh_token&refresh_token=\(refreshToken)")
        _ = try account("lookup", ["idToken": .string(token)])
        _ = try client.send("GET", server.databaseURL("/a", query: ["auth": token]))
        _ = try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer \(token)"])
        let log = server.requests.map(\.description).joined(separator: "\n")
        for secret in [token, refreshToken, "secret1", FirebaseTestServer.defaultAPIKey] {
            XCTAssertFalse(log.contains(secret), "the log shows a secret:\n\(log)")
        }
        XCTAssertTrue(log.contains("<redacted>"))
        XCTAssertTrue(log.contains("auth uid="), log)
        XCTAssertTrue(log.contains("POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"), log)
    }
}
