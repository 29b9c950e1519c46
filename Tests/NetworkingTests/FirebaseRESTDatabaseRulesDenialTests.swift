import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseRESTDatabase` signed in with `.user(auth)` (a real `FirebaseAuth` user, over the real
/// `URLSessionTransport`) against the loopback server's Security Rules: a 401 "Permission denied"
/// fails at once, with no token refresh and no second request; a 401 "Auth token is expired" still
/// earns one forced refresh and one retry.
final class FirebaseRESTDatabaseRulesDenialTests: FirebaseTestServerTestCase {
    private static let rules = """
        {"rules": {
          "open": {".read": "auth != null", ".write": "auth != null"},
          "closed": {".read": false, ".write": false}
        }}
        """

    private var auth: FirebaseAuth!
    private var database: FirebaseRESTDatabase!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.setDatabaseValue(["open": "hello", "closed": "secret"], at: "/")
        try server.setDatabaseRules(Self.rules)
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rules-denial")
        auth = FirebaseAuth(apiKey: server.apiKey, endpoints: server.endpoints, scheduler: scheduler, requestTimeout: networkTimeout)
        _ = try auth.createUser(email: "ann@example.com", password: "secret1").toBlocking(timeout: networkTimeout).single()
        database = try FirebaseRESTDatabase(
            endpoints: server.endpoints, auth: .user(auth), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2), requestTimeout: networkTimeout)
    }

    override func tearDown() {
        database = nil
        auth = nil
        super.tearDown()
    }

    private var databaseRequests: Int { server.requests(on: .database).count }
    private var refreshes: Int { server.requests(on: .authTokenRefresh).count }

    /// The error `source` ends with (`nil` if it completes).
    private func failure<Element>(_ source: Observable<Element>) -> Error? {
        if case .failed(_, let error) = source.toBlocking(timeout: networkTimeout).materialize() { return error }
        return nil
    }

    private func assertRulesDenial(_ error: Error?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            error as? FirebaseRESTDatabaseError, .permissionDenied(message: "Permission denied"), "\(what): \(String(describing: error))", file: file,
            line: line)
    }

    func testRulesDenial_aDeniedGetSetOrListenMakesOneRequestAndNoRefresh() throws {
        try XCTAssertNoLeaksEventually {
            var before = databaseRequests
            assertRulesDenial(failure(database.getValue(at: "closed")), "get")
            XCTAssertEqual(databaseRequests, before + 1, "get: one request")

            before = databaseRequests
            assertRulesDenial(failure(database.setValue("mine", at: "closed").asObservable()), "set")
            XCTAssertEqual(databaseRequests, before + 1, "set: one request")

            before = databaseRequests
            let values = EventRecorder(database.observeValue(at: "closed"))
            XCTAssertTrue(values.waitForTermination())
            assertRulesDenial(values.error, "listen")
            XCTAssertEqual(values.elements, [])
            XCTAssertEqual(databaseRequests, before + 1, "listen: one connection")
            values.dispose()

            XCTAssertEqual(refreshes, 0, "a denial is not a stale token")
            XCTAssertEqual(try server.databaseValue(at: "closed"), "secret")
            XCTAssertEqual(server.requests(on: .database).filter { $0.auth == nil }.count, 0, "every request was made as the user")
        }
    }

    func testRulesDenial_anExpiredTokenStillRefreshesOnceAndSucceeds() throws {
        try XCTAssertNoLeaksEventually {
            server.advanceAuthClock(by: server.idTokenLifetime)
            var before = databaseRequests
            XCTAssertEqual(try database.getValue(at: "open").toBlocking(timeout: networkTimeout).single(), "hello")
            XCTAssertEqual(databaseRequests, before + 2, "get: refused as expired, then sent again")
            XCTAssertEqual(refreshes, 1)

            server.advanceAuthClock(by: server.idTokenLifetime)
            before = databaseRequests
            XCTAssertNil(failure(database.setValue("again", at: "open").asObservable()))
            XCTAssertEqual(databaseRequests, before + 2, "set: refused as expired, then sent again")
            XCTAssertEqual(refreshes, 2)
            XCTAssertEqual(try server.databaseValue(at: "open"), "again")

            server.advanceAuthClock(by: server.idTokenLifetime)
            before = databaseRequests
            let values = EventRecorder(database.observeValue(at: "open"))
            XCTAssertTrue(values.waitForElements(1))
            XCTAssertEqual(values.elements, ["again"])
            XCTAssertNil(values.error)
            XCTAssertEqual(databaseRequests, before + 2, "listen: refused as expired, then connected again")
            XCTAssertEqual(refreshes, 3)
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testRulesDenial_anExpiredTokenOnADeniedPathRefreshesOnceThenFailsDenied() {
        XCTAssertNoLeaksEventually {
            server.advanceAuthClock(by: server.idTokenLifetime)
            let before = databaseRequests
            assertRulesDenial(failure(database.getValue(at: "closed")), "get")
            XCTAssertEqual(databaseRequests, before + 2, "refused as expired, then denied by the rules")
            XCTAssertEqual(refreshes, 1)
            let auths = server.requests(on: .database).suffix(2).map { $0.auth?.uid }
            XCTAssertEqual(auths, [nil, auth.currentUser?.uid], "the expired token, then the refreshed one")
        }
    }
}
