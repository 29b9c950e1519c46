import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `LocalFirstRealtimeDatabase` over `FirebaseRESTDatabase` against the loopback
/// `FirebaseTestServer` and its faults: refused connections, a server stopped while a write is
/// in flight and restarted on the same port, dropped event streams, 5xx bursts and permission
/// changes. Each test checks what the client's observers saw, in order (nothing lost, nothing
/// shown twice), what reached the server, in issue order, and the `.info/connected` and
/// `pendingWriteCount` sequences. Real sockets: the tests wait on the server's `wait…` APIs
/// and on the recorders (bounded by `networkTimeout`), never on durations.
final class LocalFirstRealtimeDatabaseRESTFaultTests: FirebaseTestServerTestCase {
    /// A local-first client of `server` with its observers of `g`, `.info/connected` and
    /// `pendingWriteCount`.
    private struct Client {
        let database: LocalFirstRealtimeDatabase
        let values: EventRecorder<JSONValue>
        let connected: EventRecorder<JSONValue>
        let count: EventRecorder<Int>

        func dispose() {
            values.dispose()
            connected.dispose()
            count.dispose()
        }
    }

    private func makeClient(file: StaticString = #filePath, line: UInt = #line) -> Client {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "local-first-faults")
        let rest = FirebaseRESTDatabase(
            databaseURL: server.databaseURL, auth: .none, scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2), requestTimeout: networkTimeout)
        let database = LocalFirstRealtimeDatabase(
            remote: rest, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2, jitter: 0))
        let client = Client(
            database: database, values: EventRecorder(database.observeValue(at: "g")),
            connected: EventRecorder(database.observeValue(at: ".info/connected")), count: EventRecorder(database.pendingWriteCount))
        XCTAssertTrue(client.values.waitForElements(1), "the server's value", file: file, line: line)
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database), file: file, line: line)
        return client
    }

    /// Stops the server and starts a new one, empty, on the same port.
    private func restartServer() throws {
        let port = server.port
        server.stop()
        server = try FirebaseTestServer(port: port)
    }

    /// The writes that reached the server, in order: `METHOD /path body`.
    private func writesReceived() -> [String] {
        server.requests(on: .database).filter { $0.method != "GET" }.map {
            "\($0.method) \($0.path) \(String(decoding: $0.body, as: UTF8.self))"
        }
    }

    private func waitForAll(_ writes: [EventRecorder<Void>], file: StaticString = #filePath, line: UInt = #line) {
        for (index, write) in writes.enumerated() {
            XCTAssertTrue(write.waitForTermination(), "write \(index) completes", file: file, line: line)
            XCTAssertNil(write.error, "write \(index)", file: file, line: line)
            XCTAssertEqual(write.events.count, 2, "write \(index): one element, one completion", file: file, line: line)
        }
    }

    private static let abc: [JSONValue] = [.null, ["a": 1], ["a": 1, "b": 2], ["a": 1, "b": 2, "c": 3]]
    private static let abcWrites = ["PUT /g/a.json 1", "PUT /g/b.json 2", "PATCH /g.json {\"c\":3}"]

    private func writeABC(_ database: LocalFirstRealtimeDatabase) -> [EventRecorder<Void>] {
        [
            EventRecorder(database.setValue(1, at: "g/a")), EventRecorder(database.setValue(2, at: "g/b")),
            EventRecorder(database.updateChildValues(["c": 3], at: "g")),
        ]
    }

    // MARK: - Refused connections, stop and restart

    func testServerStoppedBeforeWriting_writesQueueAndArriveOnceInOrderAfterRestart() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            server.stop()  // connections are refused from now on
            let writes = writeABC(client.database)
            XCTAssertTrue(client.values.wait { $0.count == 4 }, "all three shown at once")
            XCTAssertTrue(client.connected.wait { $0.last == .next(false) }, "a refused write marks the server unreachable")
            try restartServer()
            waitForAll(writes)
            XCTAssertEqual(try server.databaseValue(at: "g"), ["a": 1, "b": 2, "c": 3])
            XCTAssertEqual(writesReceived(), Self.abcWrites, "each write once, in issue order")
            XCTAssertTrue(client.count.wait { $0.last == .next(0) })
            XCTAssertEqual(client.count.elements, [0, 1, 2, 3, 2, 1, 0])
            XCTAssertTrue(client.connected.wait { $0.last == .next(true) })
            XCTAssertEqual(client.connected.elements, [true, false, true])
            XCTAssertTrue(server.waitForOpenStreams(1, route: .database), "the observation reconnected")
            XCTAssertEqual(client.values.elements, Self.abc, "the restarted server's data (empty, then the writes) hides nothing")
            client.dispose()
        }
    }

    func testServerStoppedWhileAWriteIsInFlight_itIsSentAgainAfterRestart() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            // The server holds the first write unanswered (it takes effect only after the
            // delay) and is stopped meanwhile: the client sees the connection end.
            server.inject(.delay(60, count: 1, route: .database))
            let first = EventRecorder(client.database.setValue(1, at: "g/a"))
            XCTAssertTrue(waitUntil { self.writesReceived().count == 1 }, "the write reached the server")
            server.stop()
            XCTAssertTrue(client.connected.wait { $0.last == .next(false) })
            let second = EventRecorder(client.database.setValue(2, at: "g/b"))
            XCTAssertTrue(client.values.wait { $0.count == 3 })
            try restartServer()
            waitForAll([first, second])
            XCTAssertEqual(writesReceived(), ["PUT /g/a.json 1", "PUT /g/b.json 2"], "the restarted server gets each once, in order")
            XCTAssertEqual(try server.databaseValue(at: "g"), ["a": 1, "b": 2])
            XCTAssertTrue(client.count.wait { $0.last == .next(0) })
            XCTAssertEqual(client.count.elements, [0, 1, 2, 1, 0])
            XCTAssertTrue(client.connected.wait { $0.last == .next(true) })
            XCTAssertEqual(client.connected.elements, [true, false, true])
            XCTAssertEqual(client.values.elements, [.null, ["a": 1], ["a": 1, "b": 2]])
            client.dispose()
        }
    }

    func testRefusedConnections_anObservationStartedWhileDownGetsTheDataOnceTheServerIsBack() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            server.stop()
            let later = EventRecorder(client.database.observeValue(at: "h"))
            let write = EventRecorder(client.database.setValue("x", at: "h/k"))
            try restartServer()
            try server.setDatabaseValue("other", at: "h/o")
            waitForAll([write])
            XCTAssertTrue(later.wait { $0.last == .next(["k": "x", "o": "other"]) })
            // Nothing until the server's data for h arrived, then the write on top of it from the
            // first value on (with the other client's child before or after it).
            XCTAssertTrue([[["k": "x", "o": "other"]], [["k": "x"], ["k": "x", "o": "other"]]].contains(later.elements), "\(later.elements)")
            XCTAssertEqual(writesReceived(), ["PUT /h/k.json \"x\""])
            later.dispose()
            client.dispose()
        }
    }

    // MARK: - Dropped streams

    func testDroppedStreams_areReconnectedWithoutLosingOrRepeatingAnything() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            for (round, midMessage) in [false, true].enumerated() {
                server.dropStreams(midMessage: midMessage, route: .database)
                try server.setDatabaseValue(.number(Double(round)), at: "g/other\(round)")  // another client, meanwhile
                let write = EventRecorder(client.database.setValue(.number(Double(round)), at: "g/own\(round)"))
                waitForAll([write])
                XCTAssertTrue(server.waitForOpenStreams(1, route: .database), "reconnected (round \(round))")
                XCTAssertTrue(client.values.wait { $0.last?.element?["other\(round)"] != nil && $0.last?.element?["own\(round)"] != nil })
            }
            let final: JSONValue = ["other0": 0, "own0": 0, "other1": 1, "own1": 1]
            XCTAssertEqual(try server.databaseValue(at: "g"), final)
            let values = client.values.elements
            XCTAssertEqual(values.last, final)
            XCTAssertEqual(zip(values, values.dropFirst()).filter { $0 == $1 }.count, 0, "no value shown twice in a row: \(values)")
            for key in ["own0", "own1"] {
                let shown = values.firstIndex { $0[key] != nil } ?? values.count
                XCTAssertTrue(values[shown...].allSatisfy { $0[key] != nil }, "\(key) never hidden once shown: \(values)")
            }
            XCTAssertEqual(writesReceived(), ["PUT /g/own0.json 0", "PUT /g/own1.json 1"])
            XCTAssertEqual(client.connected.elements, [true], "a dropped stream is reconnected by the REST client, unseen")
            XCTAssertTrue(client.count.waitForElements(5), "the last count is delivered after the last completion")
            XCTAssertEqual(client.count.elements, [0, 1, 0, 1, 0])
            client.dispose()
        }
    }

    // MARK: - 5xx bursts

    func testServiceUnavailableBurst_theWriteIsRetriedAndTheQueueKeepsItsOrder() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            server.inject(.status(503, count: 3, route: .database))
            let writes = writeABC(client.database)
            waitForAll(writes)
            XCTAssertEqual(writesReceived(), Array(repeating: Self.abcWrites[0], count: 4) + Self.abcWrites.dropFirst(), "3 × 503, then each once, in order")
            XCTAssertEqual(try server.databaseValue(at: "g"), ["a": 1, "b": 2, "c": 3])
            XCTAssertTrue(client.count.wait { $0.last == .next(0) })
            XCTAssertEqual(client.count.elements, [0, 1, 2, 3, 2, 1, 0])
            XCTAssertTrue(client.connected.wait { $0.last == .next(true) })
            XCTAssertEqual(client.connected.elements, [true, false, true])
            XCTAssertEqual(client.values.elements, Self.abc)
            XCTAssertTrue(server.pendingFaults.isEmpty)
            client.dispose()
        }
    }

    // MARK: - Permission changes

    func testPermissionChanges_rejectedWritesRevertWithTheTypedErrorAndRefusedObservationsFail() throws {
        try XCTAssertNoLeaksEventually {
            let client = makeClient()
            let allowed = EventRecorder(client.database.setValue(1, at: "g/a"))
            waitForAll([allowed])
            server.requireDatabaseAuth(validTokens: [])  // open streams are not affected
            let rejected = EventRecorder(client.database.setValue(2, at: "g/b"))
            XCTAssertTrue(rejected.waitForTermination())
            guard case .permissionDenied? = rejected.error as? FirebaseRESTDatabaseError else {
                return XCTFail("expected permissionDenied, got \(rejected.events)")
            }
            XCTAssertTrue(client.values.wait { $0.count == 4 })
            XCTAssertEqual(client.values.elements, [.null, ["a": 1], ["a": 1, "b": 2], ["a": 1]], "shown at once, then reverted")
            // A new observation is refused (401), the live one is cancelled by the rules.
            let refused = EventRecorder(client.database.observeValue(at: "h"))
            XCTAssertTrue(refused.waitForTermination())
            guard case .permissionDenied? = refused.error as? FirebaseRESTDatabaseError else {
                return XCTFail("expected permissionDenied, got \(refused.events)")
            }
            server.sendCancel()
            XCTAssertTrue(client.values.waitForTermination())
            guard case .permissionDenied? = client.values.error as? FirebaseRESTDatabaseError else {
                return XCTFail("expected permissionDenied, got \(client.values.events)")
            }
            server.allowUnauthenticatedDatabaseAccess()
            let after = EventRecorder(client.database.setValue(3, at: "g/c"))
            waitForAll([after])
            XCTAssertEqual(try server.databaseValue(at: "g"), ["a": 1, "c": 3])
            let again = EventRecorder(client.database.observeValue(at: "g"))
            XCTAssertTrue(again.wait { $0.last == .next(["a": 1, "c": 3]) }, "observing works again once access is back")
            XCTAssertNil(again.error)
            again.dispose()
            XCTAssertEqual(writesReceived(), ["PUT /g/a.json 1", "PUT /g/b.json 2", "PUT /g/c.json 3"])
            XCTAssertTrue(client.count.wait { $0.last == .next(0) })
            XCTAssertEqual(client.count.elements, [0, 1, 0, 1, 0, 1, 0])
            XCTAssertEqual(client.connected.elements, [true], "a rejection is an answer: the server is reachable")
            refused.dispose()
            client.dispose()
        }
    }
}

extension Event {
    fileprivate var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }
}
