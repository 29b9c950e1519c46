import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseRESTDatabase` (over the real `URLSessionTransport`) against the loopback
/// `FirebaseTestServer`.
final class FirebaseRESTDatabaseIntegrationTests: FirebaseTestServerTestCase {
    private func makeDatabase(
        auth: FirebaseRESTAuth = .none,
        refresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil,
        requestTimeout: TimeInterval = networkTimeout
    ) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: server.databaseURL,
            auth: auth,
            tokenRefresher: refresher,
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "database"),
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2),
            requestTimeout: requestTimeout
        )
    }

    private func error<Element>(_ source: Observable<Element>) -> Error? {
        if case .failed(_, let error) = source.toBlocking(timeout: networkTimeout).materialize() { return error }
        return nil
    }

    /// Whether the recorded values never repeat the previous one.
    private func hasNoConsecutiveDuplicates(_ values: [JSONValue]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 != $1 }
    }

    // MARK: - One-shot requests

    func testFirebaseRESTDatabase_readsAndWrites() throws {
        try XCTAssertNoLeaksEventually {
            let database = makeDatabase()
            _ = try database.setValue(["title": "Hello", "tags": ["a", "b"]], at: "posts/p1").toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(try server.databaseValue(at: "posts/p1"), ["title": "Hello", "tags": ["a", "b"]])
            XCTAssertEqual(try database.getValue(at: "posts/p1/title").toBlocking(timeout: networkTimeout).single(), "Hello")

            _ = try database.updateChildValues(["title": "Hi", "meta/views": 3, "tags": .null], at: "posts/p1").toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(try server.databaseValue(at: "posts/p1"), ["title": "Hi", "meta": ["views": 3]])

            let key = try database.push(["text": "first"], at: "comments").toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(try server.databaseValue(at: "comments/\(key)"), ["text": "first"])
            XCTAssertNotNil(PushIDGenerator.timestamp(ofPushID: key), "the server generated a push ID")

            _ = try database.removeValue(at: "posts/p1").toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(try database.getValue(at: "posts").toBlocking(timeout: networkTimeout).single(), .null)
            XCTAssertEqual(server.requests(on: .database).map(\.method), ["PUT", "GET", "PATCH", "POST", "DELETE", "GET"])
        }
    }

    func testFirebaseRESTDatabase_wireErrorsAreTyped() throws {
        XCTAssertNoLeaksEventually {
            let database = makeDatabase(auth: .idToken("bad"), requestTimeout: 0.3)
            server.requireDatabaseAuth(validTokens: ["good"])
            guard case .permissionDenied? = error(database.getValue(at: "x")) as? FirebaseRESTDatabaseError else { return XCTFail("401") }
            server.allowUnauthenticatedDatabaseAccess()
            server.inject(.status(503, route: .database))
            guard case .unavailable(503, _)? = error(database.setValue(1, at: "x")) as? FirebaseRESTDatabaseError else { return XCTFail("503") }
            server.inject(.malformedJSON(route: .database))
            guard case .invalidResponse? = error(database.getValue(at: "x")) as? FirebaseRESTDatabaseError else { return XCTFail("malformed") }
            server.inject(.delay(2, route: .database))
            guard case .network(let message)? = error(database.getValue(at: "x")) as? FirebaseRESTDatabaseError, message.contains("timed out") else {
                return XCTFail("timeout")
            }
        }
    }

    // MARK: - observeValue

    func testFirebaseRESTDatabase_observeFollowsServerAndClientWrites() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["a": 1], at: "room")
            let database = makeDatabase()
            let values = EventRecorder(database.observeValue(at: "room"))
            XCTAssertTrue(values.waitForElements(1))
            try server.setDatabaseValue(2, at: "room/b")
            XCTAssertTrue(values.waitForElements(2))
            _ = try database.updateChildValues(["a": .null, "c": true], at: "room").toBlocking(timeout: networkTimeout).single()
            XCTAssertTrue(values.waitForElements(3))
            XCTAssertEqual(values.elements, [["a": 1], ["a": 1, "b": 2], ["b": 2, "c": true]])
            XCTAssertEqual(server.requests(on: .database).first?.header("Accept"), "text/event-stream")
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testFirebaseRESTDatabase_dropMidMessageReconnectsAndCatchesUp() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(["n": 0], at: "counter")
            let database = makeDatabase()
            let values = EventRecorder(database.observeValue(at: "counter"))
            XCTAssertTrue(values.waitForElements(1))
            for round in 1...3 {
                server.dropStreams(midMessage: true, route: .database)
                try server.setDatabaseValue(.number(Double(round)), at: "counter/n")
                let expected = try server.databaseValue(at: "counter")
                XCTAssertTrue(values.wait { $0.last == .next(expected) }, "round \(round): \(values.events)")
            }
            XCTAssertTrue(server.waitForRequests(4, route: .database), "reconnected after every drop")
            XCTAssertFalse(values.isTerminated)
            XCTAssertTrue(hasNoConsecutiveDuplicates(values.elements), "\(values.elements)")
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testFirebaseRESTDatabase_reconnectionWithoutChangesEmitsNothing() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue("same", at: "v")
            let database = makeDatabase()
            let values = EventRecorder(database.observeValue(at: "v"))
            XCTAssertTrue(values.waitForElements(1))
            server.dropStreams(route: .database)
            XCTAssertTrue(server.waitForRequests(2, route: .database))
            XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
            try server.setDatabaseValue("changed", at: "v")
            XCTAssertTrue(values.waitForElements(2))
            XCTAssertEqual(values.elements, ["same", "changed"], "the reconnection's snapshot was not emitted again")
            values.dispose()
        }
    }

    func testFirebaseRESTDatabase_streamFollows307() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue("here", at: "moved")
            server.inject(.redirect307(route: .database))
            let values = EventRecorder(makeDatabase().observeValue(at: "moved"))
            XCTAssertTrue(values.waitForElements(1))
            XCTAssertEqual(values.elements, ["here"])
            XCTAssertEqual(server.requests(on: .database).map(\.wasRedirected), [false, true])
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }

    func testFirebaseRESTDatabase_cancelEndsTheObservation() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(1, at: "secret")
            let values = EventRecorder(makeDatabase().observeValue(at: "secret"))
            XCTAssertTrue(values.waitForElements(1))
            server.sendCancel()
            XCTAssertTrue(values.waitForTermination())
            guard case .permissionDenied? = values.error as? FirebaseRESTDatabaseError else { return XCTFail("\(values.events)") }
            XCTAssertEqual(values.elements, [1])
        }
    }

    func testFirebaseRESTDatabase_authRevokedWithoutRefresherFails() throws {
        try XCTAssertNoLeaksEventually {
            server.requireDatabaseAuth(validTokens: ["t1"])
            try server.setDatabaseValue(1, at: "private")
            let values = EventRecorder(makeDatabase(auth: .idToken("t1")).observeValue(at: "private"))
            XCTAssertTrue(values.waitForElements(1))
            server.revokeAuth("t1")
            XCTAssertTrue(values.waitForTermination())
            guard case .authRevoked? = values.error as? FirebaseRESTDatabaseError else { return XCTFail("\(values.events)") }
        }
    }

    func testFirebaseRESTDatabase_authRevokedRefreshesTheTokenAndGoesOn() throws {
        try XCTAssertNoLeaksEventually {
            server.requireDatabaseAuth(validTokens: ["t1", "t2"])
            try server.setDatabaseValue(1, at: "private")
            let refreshes = LockedState(0)
            let database = makeDatabase(
                auth: .idToken("t1"),
                refresher: {
                    refreshes.withLock { $0 += 1 }
                    return Observable.just(.idToken("t2"))
                })
            let values = EventRecorder(database.observeValue(at: "private"))
            XCTAssertTrue(values.waitForElements(1))
            server.revokeAuth("t1")
            XCTAssertTrue(server.waitForRequests(2, route: .database))
            XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
            try server.setDatabaseValue(2, at: "private")
            XCTAssertTrue(values.waitForElements(2))
            XCTAssertEqual(values.elements, [1, 2])
            XCTAssertEqual(refreshes.withLock { $0 }, 1)
            XCTAssertEqual(server.requests(on: .database).map { $0.query["auth"] }, ["t1", "t2"])
            XCTAssertEqual(database.auth, .idToken("t2"))
            XCTAssertEqual(try database.getValue(at: "private").toBlocking(timeout: networkTimeout).single(), 2, "later requests use the new token")
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        }
    }
}
