import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// `FirebaseRESTAuth.user` and HTTP 401: a Security Rules denial (`{"error":"Permission denied"}`)
/// fails at once; any other 401 (a token error, or a body that cannot be read) earns one forced
/// refresh and one retry.
final class FirebaseRESTDatabaseUserAuthDenialTests: XCTestCase {
    private let base = URL(string: "https://db.test")!
    private let denial = #"{"error" : "Permission denied"}"#

    private func database(_ transport: FakeHTTPTransport, _ scheduler: TestScheduler, auth: FirebaseAuth) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: base, auth: .user(auth), scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 1, maximumDelay: 8), requestTimeout: 9,
            randomSource: { 0.5 }, transport: transport)
    }

    /// The `auth=` parameter of a request (`nil` without one).
    private func token(of request: WireRequest) -> String? {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "auth" }?.value
    }

    /// The requests the client sent to the auth endpoints (refreshes: it is signed in already).
    private func refreshes(_ authTransport: FakeHTTPTransport) -> Int {
        authTransport.sentRequests.count
    }

    func testUserAuth_aRulesDenialFailsAtOnceWithoutARefresh() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.status(401, denial), .status(401, denial))
            let db = database(transport, scheduler, auth: auth)
            let read = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "x") }
            let write = scheduler.recordEvents(subscribed: 200) { db.setValue(1, at: "x") }
            scheduler.start()
            let denied = FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied")
            XCTAssertEqual(read.events.map(\.value), [.error(denied)])
            XCTAssertEqual(write.events.count, 1)
            guard case .error(let error)? = write.events.first?.value else { return XCTFail("\(write.events)") }
            XCTAssertEqual(error as? FirebaseRESTDatabaseError, denied)
            XCTAssertEqual(transport.sentRequests.map { token(of: $0.request) }, [testIDToken("alice", 1), testIDToken("alice", 1)], "one request each")
            XCTAssertEqual(refreshes(authTransport), 0)
        }
    }

    func testUserAuth_aRulesDenialEndsTheObservationAtOnceWithoutARefresh() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, auth: auth)
            scheduler.scheduleAt(300) {
                transport.stream(0)?.open(status: 401)
                transport.stream(0)?.send(self.denial)
                transport.stream(0)?.complete()
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.map(\.value), [.error(FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied"))])
            XCTAssertEqual(transport.streams.count, 1, "no second connection")
            XCTAssertEqual(refreshes(authTransport), 0)
        }
    }

    func testUserAuth_a401WithAnUnreadableBodyStillRefreshesOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler)
            authTransport.reply(.refreshed("alice", 2), .refreshed("alice", 3))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.status(401, "<html>Unauthorized</html>"), .json(1), .status(401), .json(2))
            let db = database(transport, scheduler, auth: auth)
            let html = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "x") }
            let empty = scheduler.recordEvents(subscribed: 200) { db.getValue(at: "x") }
            scheduler.start()
            XCTAssertEqual(html.events.map(\.value), [.next(1), .completed])
            XCTAssertEqual(empty.events.map(\.value), [.next(2), .completed])
            XCTAssertEqual(
                transport.sentRequests.map { token(of: $0.request) },
                [testIDToken("alice", 1), testIDToken("alice", 2), testIDToken("alice", 2), testIDToken("alice", 3)])
            XCTAssertEqual(refreshes(authTransport), 2)
        }
    }

    func testUserAuth_isStaleTokenRefusalReadsTheBody() {
        func response(_ status: Int, _ body: String) -> WireResponse { WireResponse(statusCode: status, headers: [:], body: Data(body.utf8)) }
        XCTAssertFalse(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, denial)))
        XCTAssertFalse(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, #"{"error":"permission denied"}"#)))
        XCTAssertTrue(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, #"{"error":"Auth token is expired"}"#)))
        XCTAssertTrue(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, #"{"error":"Could not parse auth token."}"#)))
        XCTAssertTrue(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, #"{"error":"Invalid token in path"}"#)))
        XCTAssertTrue(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, "")))
        XCTAssertTrue(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(401, "\u{FF}not json")))
        XCTAssertFalse(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(403, #"{"error":"Auth token is expired"}"#)), "only a 401")
        XCTAssertFalse(RealtimeDatabaseRESTWire.isStaleTokenRefusal(response(200, "1")))
    }
}
