import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseRESTDatabase` signed in through `FirebaseAuth` (`auth: .user(auth)`), both over the
/// real `URLSessionTransport`, against the loopback `FirebaseTestServer` requiring auth.
final class FirebaseRESTDatabaseUserAuthRESTTests: FirebaseTestServerTestCase {
    func testUserAuth_signedInReadsSurviveTokenExpiryAndEndAtSignOut() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue("hello", at: "a")
            server.requireDatabaseAuth()
            _ = try server.createUser(email: "ann@example.com", password: "secret1")
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "user-auth")
            let auth = FirebaseAuth(apiKey: server.apiKey, endpoints: server.endpoints, scheduler: scheduler, requestTimeout: networkTimeout)
            let database = try FirebaseRESTDatabase(
                endpoints: server.endpoints, auth: .user(auth), scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2),
                requestTimeout: networkTimeout)

            // Signed out: no credential, and the rules deny.
            let denied = EventRecorder(database.getValue(at: "a"))
            XCTAssertTrue(denied.waitForTermination())
            guard case .permissionDenied? = denied.error as? FirebaseRESTDatabaseError else { return XCTFail("\(String(describing: denied.error))") }

            let signIn = EventRecorder(auth.signIn(email: "ann@example.com", password: "secret1").asObservable())
            XCTAssertTrue(signIn.waitForTermination())
            let uid = try XCTUnwrap(signIn.elements.first?.uid)
            let read = EventRecorder(database.getValue(at: "a"))
            XCTAssertTrue(read.waitForTermination())
            XCTAssertEqual(read.elements, ["hello"])
            XCTAssertEqual(server.requests(on: .database).last?.auth?.uid, uid, "the server saw the user's ID token")

            // The server's clock passes the token's expiry: it sends auth_revoked on the stream,
            // and the database refreshes the token by force and reconnects, without the app.
            let values = EventRecorder(database.observeValue(at: "a"))
            XCTAssertTrue(values.waitForElements(1))
            server.advanceAuthClock(by: 3600)
            try server.setDatabaseValue("again", at: "a")
            XCTAssertTrue(values.wait { $0.last == .next("again") }, "\(values.elements)")
            XCTAssertNil(values.error)
            XCTAssertEqual(values.elements, ["hello", "again"])
            XCTAssertEqual(server.requests(on: .authTokenRefresh).count, 1, "one forced refresh")
            let streams = server.requests(on: .database).filter { request in
                request.headers.contains { $0.key.lowercased() == "accept" && $0.value == "text/event-stream" }
            }
            XCTAssertEqual(streams.count, 2, "the revoked stream and its reconnection")

            // Signing out reconnects the stream without a credential: the server denies it.
            auth.signOut()
            XCTAssertTrue(values.waitForTermination())
            guard case .permissionDenied? = values.error as? FirebaseRESTDatabaseError else { return XCTFail("\(String(describing: values.error))") }
            XCTAssertEqual(values.elements, ["hello", "again"], "nothing after the sign-out")
            values.dispose()
        }
    }
}
