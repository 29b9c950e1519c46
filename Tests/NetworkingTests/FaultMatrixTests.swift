import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// The Realtime Database fault matrix (issue #7): `FirebaseRESTDatabase.observeValue(at:)`
/// over the real `URLSessionTransport`, at a nested path and at the root, against the loopback
/// server, under every fault the server can inject.
///
/// After each fault the test waits (bounded) until the client's last value equals the server's,
/// writes once more to prove the new stream is live, and checks that nothing crashed or
/// terminated, that no value repeats the previous one, that the values are states the server
/// really had, in its order, that the reconnection took exactly the expected requests, and that
/// disposing closes the stream without leaks. Faults that cannot be retried end the observation
/// with a typed `FirebaseRESTDatabaseError`, and a new subscription catches up.
final class DatabaseFaultMatrixTests: FirebaseTestServerTestCase {
    /// A write made on the server (not through the client under test).
    enum Write {
        case set(JSONValue, String)
        case update([String: JSONValue], String)
        case remove(String)
    }

    /// One `observeValue(at:)` subscription and the states its location went through on the
    /// server (every server write of a scenario goes through `apply`).
    final class Observation {
        let path: String
        let database: FirebaseRESTDatabase
        let values: EventRecorder<JSONValue>
        private let server: FirebaseTestServer
        private(set) var history: [JSONValue] = []

        init(path: String, database: FirebaseRESTDatabase, server: FirebaseTestServer) throws {
            self.path = path
            self.database = database
            self.server = server
            history = [try server.databaseValue(at: path)]
            values = EventRecorder(database.observeValue(at: path))
        }

        var serverValue: JSONValue {
            get throws { try server.databaseValue(at: path) }
        }

        /// Makes `write` on the server and records the location's new state.
        func apply(_ write: Write) throws {
            try server.apply(write, recordingIn: [self])
        }

        /// Records the location's state after a server write.
        func recordServerState() throws {
            let value = try serverValue
            if history.last != value { history.append(value) }
        }

        /// Waits (bounded) until the last value received equals the server's value.
        @discardableResult
        func waitForServerValue() throws -> Bool {
            let expected = try serverValue
            return values.wait { $0.last == .next(expected) }
        }

        /// The checks every scenario ends with: the client follows the server exactly.
        func assertConsistent(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let context = "\(scenario) at \(path)"
            XCTAssertEqual(values.elements.last, try serverValue, "converged: \(context)", file: file, line: line)
            XCTAssertEqual(values.elements.first, history.first, "the first value is the first snapshot: \(context)", file: file, line: line)
            XCTAssertTrue(hasNoConsecutiveDuplicates(values.elements), "no duplicate emission: \(context): \(values.elements)", file: file, line: line)
            XCTAssertTrue(
                isSubsequence(values.elements, of: history), "server states, in server order: \(context): \(values.elements) vs \(history)", file: file,
                line: line)
        }

        /// Disposes the subscription and waits until the server closed the stream.
        func close(file: StaticString = #filePath, line: UInt = #line) {
            values.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database), "the stream closed after dispose (\(path))", file: file, line: line)
            XCTAssertEqual(database.activeObserverCount, 0, file: file, line: line)
        }
    }

    /// The locations observed by every scenario: a nested path and the root.
    static let locations = ["rooms/r1", "/"]

    static let seed: JSONValue = [
        "rooms": ["r1": ["title": "One", "members": ["alice": true, "bob": true], "meta": ["stats": ["views": 1]]]],
        "users": ["u1": ["name": "Ann"]],
    ]

    /// Writes made right after the stream drops: a nested set, a multi-path update (with a
    /// delete), a delete that prunes its empty parents (`stats`, `meta`), and a write outside
    /// `rooms/r1` (only the root observer sees it).
    static let writesWhileDown: [Write] = [
        .set(true, "rooms/r1/members/carol"),
        .update(["title": "Renamed", "meta/stats/views": 2, "members/alice": .null], "rooms/r1"),
        .remove("rooms/r1/meta/stats/views"),
        .set("Zed", "users/u1/name"),
    ]

    private var probeCount = 0

    private func makeDatabase(auth: FirebaseRESTAuth = .none, refresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil, maximumAttempts: Int? = nil)
        -> FirebaseRESTDatabase
    {
        FirebaseRESTDatabase(
            databaseURL: server.databaseURL,
            auth: auth,
            tokenRefresher: refresher,
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "fault-matrix-database"),
            reconnectBackoff: BackoffPolicy(initialDelay: 0.02, multiplier: 2, maximumDelay: 0.1, jitter: 0.5, maximumAttempts: maximumAttempts),
            requestTimeout: networkTimeout,
            randomSource: { 0.5 }
        )
    }

    /// Seeds the server, subscribes at `path` and waits for the first snapshot.
    private func observe(_ path: String, database: FirebaseRESTDatabase? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Observation {
        try server.setDatabaseValue(Self.seed, at: "/")
        let observation = try Observation(path: path, database: database ?? makeDatabase(), server: server)
        XCTAssertTrue(try observation.waitForServerValue(), "first snapshot at \(path): \(observation.values.events)", file: file, line: line)
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database), file: file, line: line)
        return observation
    }

    /// A live write on the server that changes every observed location; waits until it arrived.
    private func probe(_ observation: Observation, _ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
        probeCount += 1
        try observation.apply(.set(.number(Double(probeCount)), "rooms/r1/probe"))
        XCTAssertTrue(
            try observation.waitForServerValue(), "live after \(scenario) at \(observation.path): \(observation.values.events)", file: file, line: line)
    }

    /// The core scenario: a live write, then `faults` for the reconnection, the drop, the
    /// writes while down; the client must reconnect with exactly `reconnectRequests` requests
    /// (faulted ones included), converge, and stay live.
    ///
    /// - Parameter holdReconnect: Hold the first reconnection request on the server (a delay
    ///   fault) and make the writes only once it arrived, so they certainly happen while the
    ///   client has no stream.
    private func assertConverges(
        _ scenario: String,
        faults: [FirebaseTestServer.Fault] = [],
        midMessage: Bool = false,
        reconnectRequests: Int = 1,
        writes: [Write] = writesWhileDown,
        holdReconnect: Bool = false,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("\(scenario) at \(path)", file: file, line: line) {
                server.clearFaults()
                let observation = try observe(path, file: file, line: line)
                try observation.apply(.set("open", "rooms/r1/status"))
                XCTAssertTrue(try observation.waitForServerValue(), "live write before the fault", file: file, line: line)

                let before = server.requests(on: .database).count
                if holdReconnect { server.inject(.delay(0.3, route: .database)) }
                faults.forEach(server.inject)
                server.dropStreams(midMessage: midMessage, route: .database)
                if holdReconnect {
                    XCTAssertTrue(server.waitForRequests(before + 1, route: .database), file: file, line: line)
                    XCTAssertEqual(server.openStreamCount(route: .database), 0, "down while the server holds the reconnection", file: file, line: line)
                }
                for write in writes { try observation.apply(write) }

                XCTAssertTrue(
                    server.waitForRequests(before + reconnectRequests, route: .database), "\(scenario): reconnection requests", file: file, line: line)
                XCTAssertTrue(server.waitForOpenStreams(1, route: .database), "\(scenario): stream reopened", file: file, line: line)
                XCTAssertTrue(try observation.waitForServerValue(), "\(scenario) at \(path): converged: \(observation.values.events)", file: file, line: line)
                try probe(observation, scenario, file: file, line: line)

                XCTAssertFalse(observation.values.isTerminated, "\(scenario): \(observation.values.events)", file: file, line: line)
                try observation.assertConsistent(scenario, file: file, line: line)
                XCTAssertEqual(server.pendingFaults, [], "\(scenario): every fault was used", file: file, line: line)
                XCTAssertEqual(server.requests(on: .database).count, before + reconnectRequests, "\(scenario): no extra connection", file: file, line: line)
                observation.close(file: file, line: line)
            }
        }
    }

    // MARK: - Control: the same writes on a live stream

    func testFaultMatrix_liveWritesWithoutFault() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("live writes at \(path)") {
                let observation = try observe(path)
                for write in Self.writesWhileDown + [.remove("rooms/r1"), .set(["back": true], "rooms/r1")] {
                    try observation.apply(write)
                    XCTAssertTrue(try observation.waitForServerValue(), "\(write) at \(path): \(observation.values.events)")
                }
                try observation.assertConsistent("live writes")
                XCTAssertEqual(server.requests(on: .database).count, 1, "one stream, no reconnection")
                // Each write that changed the location was emitted once (at rooms/r1 the
                // `users` write is not a change).
                XCTAssertEqual(observation.values.elements, observation.history)
                observation.close()
                server.clearRequestLog()
            }
        }
    }

    // MARK: - Drops

    func testFaultMatrix_streamDroppedCleanly() throws {
        try assertConverges("clean drop")
    }

    func testFaultMatrix_streamDroppedMidMessage() throws {
        try assertConverges("mid-message drop", midMessage: true)
    }

    func testFaultMatrix_repeatedDropsNeverExhaustTheBackoff() throws {
        // Two attempts only: each full snapshot starts the backoff over, so drops separated by
        // snapshots never add up.
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("flapping at \(path)") {
                let observation = try observe(path, database: makeDatabase(maximumAttempts: 2))
                for round in 1...4 {
                    let before = server.requests(on: .database).count
                    server.dropStreams(midMessage: round.isMultiple(of: 2), route: .database)
                    try observation.apply(.set(.number(Double(round)), "rooms/r1/round"))
                    XCTAssertTrue(server.waitForRequests(before + 1, route: .database))
                    XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
                    XCTAssertTrue(try observation.waitForServerValue(), "round \(round): \(observation.values.events)")
                }
                try probe(observation, "flapping")
                XCTAssertFalse(observation.values.isTerminated)
                try observation.assertConsistent("flapping")
                observation.close()
            }
        }
    }

    func testFaultMatrix_dropsDuringAStreamOfWrites() throws {
        // Writes keep coming (sets, deletes, multi-path updates) while the stream is dropped
        // five times: whatever the client saw and missed, it ends on the server's value, having
        // emitted only server states, in order, without repeats.
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("write stream at \(path)") {
                let observation = try observe(path)
                for round in 1...5 {
                    let before = server.requests(on: .database).count
                    server.dropStreams(midMessage: round.isMultiple(of: 2), route: .database)
                    for step in 1...12 {
                        let n = Double(round * 100 + step)
                        switch step % 4 {
                        case 0: try observation.apply(.remove("rooms/r1/items/\(step - 1)"))
                        case 1: try observation.apply(.update(["count": .number(n), "items/\(step)": .number(n)], "rooms/r1"))
                        case 2: try observation.apply(.set(.number(n), "rooms/r1/items/\(step)/value"))
                        default: try observation.apply(.set(.number(n), "users/u1/seen"))
                        }
                    }
                    XCTAssertTrue(server.waitForRequests(before + 1, route: .database), "round \(round)")
                    XCTAssertTrue(server.waitForOpenStreams(1, route: .database), "round \(round)")
                }
                XCTAssertTrue(try observation.waitForServerValue(), "\(observation.values.events.suffix(3))")
                try probe(observation, "write stream")
                XCTAssertFalse(observation.values.isTerminated)
                try observation.assertConsistent("write stream")
                observation.close()
            }
        }
    }

    // MARK: - Faults on the reconnection

    func testFaultMatrix_503BurstOnReconnect() throws {
        try assertConverges("3×503 then OK", faults: [.status(503, count: 3, route: .database)], reconnectRequests: 4)
    }

    func testFaultMatrix_429BurstOnReconnect() throws {
        try assertConverges("3×429 then OK", faults: [.status(429, count: 3, route: .database)], midMessage: true, reconnectRequests: 4)
    }

    func testFaultMatrix_disconnectOnReconnect() throws {
        try assertConverges("2×disconnect then OK", faults: [.disconnect(count: 2, route: .database)], reconnectRequests: 3)
    }

    func testFaultMatrix_redirectOnReconnect() throws {
        try assertConverges("307 on the reconnection", faults: [.redirect307(route: .database)], reconnectRequests: 2)
        XCTAssertEqual(server.requests(on: .database).last?.wasRedirected, true)
    }

    func testFaultMatrix_slowReconnect() throws {
        try assertConverges("slow reconnection", faults: [.delay(0.4, route: .database)], midMessage: true)
    }

    func testFaultMatrix_mixedFaultsOnReconnect() throws {
        try assertConverges(
            "503, disconnect, 307, slow",
            faults: [.status(503, route: .database), .disconnect(route: .database), .redirect307(route: .database), .delay(0.2, count: 2, route: .database)],
            reconnectRequests: 4
        )
    }

    // MARK: - Writes while the stream is down

    func testFaultMatrix_writesWhileDown() throws {
        try assertConverges("writes while down", holdReconnect: true)
    }

    func testFaultMatrix_writesWhileDownPruneTheObservedLocation() throws {
        // rooms/r1 loses every child: it is pruned, and so is `rooms` (its only room); the
        // path's value becomes null, the root loses `rooms`. The probe brings both back.
        try assertConverges(
            "writes while down pruning rooms/r1",
            midMessage: true,
            writes: [
                .remove("rooms/r1/meta/stats"),
                .update(["title": .null, "members": .null, "status": .null], "rooms/r1"),
            ],
            holdReconnect: true
        )
    }

    func testFaultMatrix_writesWhileDownDuringA503Burst() throws {
        try assertConverges(
            "writes during 2×503",
            faults: [.status(503, count: 2, route: .database)],
            reconnectRequests: 3,
            writes: Self.writesWhileDown + [.remove("users"), .set(["fresh": ["x": 1]], "rooms/r1/meta")],
            holdReconnect: true
        )
    }

    func testFaultMatrix_writesWhileDownDeleteEverything() throws {
        // The whole database is deleted while down: both locations become null (emitted once),
        // and the probe brings them back.
        try assertConverges("everything deleted while down", writes: [.remove("/")], holdReconnect: true)
    }

    func testFaultMatrix_severalObserversConvergeTogether() throws {
        // Four observations of one client (a nested path, the root, a sibling, an absent
        // location) lose their streams at once and share a 503 burst.
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(Self.seed, at: "/")
            let database = makeDatabase()
            let observations = try ["rooms/r1", "/", "users/u1", "rooms/r2"].map { try Observation(path: $0, database: database, server: server) }
            for observation in observations { XCTAssertTrue(try observation.waitForServerValue(), observation.path) }
            XCTAssertTrue(server.waitForOpenStreams(4, route: .database))
            let before = server.requests(on: .database).count
            server.inject(.status(503, count: 2, route: .database))
            server.dropStreams(midMessage: true, route: .database)
            for write in Self.writesWhileDown + [.set(["title": "Two"], "rooms/r2")] {
                try server.apply(write, recordingIn: observations)
            }
            XCTAssertTrue(server.waitForRequests(before + 6, route: .database), "four reconnections and two faulted attempts")
            XCTAssertTrue(server.waitForOpenStreams(4, route: .database))
            for observation in observations {
                XCTAssertTrue(try observation.waitForServerValue(), "\(observation.path): \(observation.values.events)")
            }
            try server.apply(.update(["rooms/r1/probe": 1, "rooms/r2/probe": 1, "users/u1/probe": 1], "/"), recordingIn: observations)
            for observation in observations {
                XCTAssertTrue(try observation.waitForServerValue(), "\(observation.path) live: \(observation.values.events)")
                XCTAssertFalse(observation.values.isTerminated)
                try observation.assertConsistent("several observers")
            }
            XCTAssertEqual(server.requests(on: .database).count, before + 6, "no extra connection")
            observations.forEach { $0.values.dispose() }
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
            XCTAssertEqual(database.activeObserverCount, 0)
        }
    }

    func testFaultMatrix_deleteAndRecreateWhileDownEmitsOnlyTheResult() throws {
        // The location goes null and back to its old value while the client is down: the
        // reconnection's snapshot equals the last value, so nothing is emitted for it.
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("delete and recreate at \(path)") {
                let observation = try observe(path)
                let emitted = observation.values.elements.count
                let before = server.requests(on: .database).count
                server.inject(.delay(0.3, route: .database))
                server.dropStreams(route: .database)
                XCTAssertTrue(server.waitForRequests(before + 1, route: .database))
                let old = try observation.serverValue
                try observation.apply(.remove("rooms"))
                try observation.apply(.set(Self.seed["rooms"]!, "rooms"))
                XCTAssertEqual(try observation.serverValue, old)
                XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
                try probe(observation, "delete and recreate")
                XCTAssertEqual(observation.values.elements.count, emitted + 1, "only the probe: \(observation.values.elements)")
                try observation.assertConsistent("delete and recreate")
                observation.close()
            }
        }
    }

    // MARK: - Faults that end the observation (typed errors), then a new subscription

    /// Waits for the observation to fail, checks it stopped cleanly, then shows that a new
    /// subscription (made by `resubscribe`) catches up with the server.
    private func assertFailsThenResubscribes(
        _ observation: Observation,
        _ scenario: String,
        requestsBefore: Int,
        attempts: Int,
        error matches: (FirebaseRESTDatabaseError) -> Bool,
        resubscribe: () -> FirebaseRESTDatabase,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        XCTAssertTrue(observation.values.waitForTermination(), "\(scenario): \(observation.values.events)", file: file, line: line)
        let error = observation.values.error as? FirebaseRESTDatabaseError
        XCTAssertTrue(error.map(matches) ?? false, "\(scenario): typed error, got \(String(describing: observation.values.error))", file: file, line: line)
        XCTAssertTrue(hasNoConsecutiveDuplicates(observation.values.elements), file: file, line: line)
        XCTAssertTrue(
            isSubsequence(observation.values.elements, of: observation.history), "\(scenario): \(observation.values.elements)", file: file, line: line)
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database), "\(scenario): no stream left", file: file, line: line)
        XCTAssertTrue(waitUntil { observation.database.activeObserverCount == 0 }, "\(scenario): the failed observation ended", file: file, line: line)
        XCTAssertEqual(server.requests(on: .database).count, requestsBefore + attempts, "\(scenario): no retry of a fatal error", file: file, line: line)
        observation.values.dispose()

        // Writes made while nobody listens, then a new subscription.
        try observation.apply(.set(.string("after \(scenario)"), "rooms/r1/title"))
        let again = try Observation(path: observation.path, database: resubscribe(), server: server)
        XCTAssertTrue(try again.waitForServerValue(), "\(scenario): resubscribed: \(again.values.events)", file: file, line: line)
        try probe(again, scenario, file: file, line: line)
        try again.assertConsistent("\(scenario), resubscribed", file: file, line: line)
        again.close(file: file, line: line)
    }

    func testFaultMatrix_401OnReconnectWithoutRefresherFailsTyped() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("401 at \(path)") {
                server.allowUnauthenticatedDatabaseAccess()
                let observation = try observe(path, database: makeDatabase(auth: .idToken("t1")))
                server.requireDatabaseAuth(validTokens: ["t2"])  // t1 no longer accepted; the open stream goes on
                let before = server.requests(on: .database).count
                server.dropStreams(route: .database)
                try observation.apply(.set(false, "rooms/r1/members/bob"))
                try assertFailsThenResubscribes(
                    observation, "401 on reconnect", requestsBefore: before, attempts: 1,
                    error: {
                        if case .permissionDenied = $0 { return true } else { return false }
                    }, resubscribe: { makeDatabase(auth: .idToken("t2")) })
            }
        }
    }

    func testFaultMatrix_cancelFailsTyped() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("cancel at \(path)") {
                let observation = try observe(path)
                let before = server.requests(on: .database).count
                server.sendCancel()
                try assertFailsThenResubscribes(
                    observation, "cancel", requestsBefore: before, attempts: 0,
                    error: {
                        if case .permissionDenied = $0 { return true } else { return false }
                    }, resubscribe: { makeDatabase() })
            }
        }
    }

    func testFaultMatrix_authRevokedWithoutRefresherFailsTyped() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("auth_revoked at \(path)") {
                server.allowUnauthenticatedDatabaseAccess()
                let observation = try observe(path, database: makeDatabase(auth: .idToken("t\(path.count)")))
                let before = server.requests(on: .database).count
                server.revokeAuth("t\(path.count)")
                try assertFailsThenResubscribes(
                    observation, "auth_revoked", requestsBefore: before, attempts: 0,
                    error: {
                        if case .authRevoked = $0 { return true } else { return false }
                    }, resubscribe: { makeDatabase(auth: .idToken("fresh\(path.count)")) })
            }
        }
    }

    func testFaultMatrix_malformedEventOnReconnectFailsTyped() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("malformed at \(path)") {
                let observation = try observe(path)
                let before = server.requests(on: .database).count
                server.inject(.malformedJSON(route: .database))
                server.dropStreams(midMessage: true, route: .database)
                try observation.apply(.set("while down", "rooms/r1/title"))
                try assertFailsThenResubscribes(
                    observation, "malformed event on reconnect", requestsBefore: before, attempts: 1,
                    error: {
                        if case .invalidResponse = $0 { return true } else { return false }
                    }, resubscribe: { makeDatabase() })
            }
        }
    }

    func testFaultMatrix_exhaustedBackoffFailsWithTheLastError() throws {
        // Three attempts: the drop and two 503s are retried, the third 503 is the end.
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("exhausted at \(path)") {
                let observation = try observe(path, database: makeDatabase(maximumAttempts: 3))
                let before = server.requests(on: .database).count
                server.inject(.status(503, count: 3, route: .database))
                server.dropStreams(route: .database)
                try assertFailsThenResubscribes(
                    observation, "3×503 with 3 attempts", requestsBefore: before, attempts: 3,
                    error: {
                        if case .unavailable(503, _) = $0 { return true } else { return false }
                    }, resubscribe: { makeDatabase() })
                XCTAssertEqual(server.pendingFaults, [])
            }
        }
    }

    // MARK: - Refreshed credential (recovers)

    func testFaultMatrix_authRevokedWithRefresherCatchesUpWithWritesMadeMeanwhile() throws {
        for path in Self.locations {
            try XCTAssertNoLeaksEventually("auth_revoked + refresher at \(path)") {
                // Tokens per location: a revoked token stays refused.
                let (old, new) = ("old\(path.count)", "new\(path.count)")
                server.requireDatabaseAuth(validTokens: [old, new])
                let refreshes = LockedState(0)
                let database = makeDatabase(
                    auth: .idToken(old),
                    refresher: {
                        refreshes.withLock { $0 += 1 }
                        return Observable.just(.idToken(new))
                    })
                let observation = try observe(path, database: database)
                let before = server.requests(on: .database).count
                server.inject(.delay(0.3, route: .database))
                server.revokeAuth(old)
                XCTAssertTrue(server.waitForRequests(before + 1, route: .database), "reconnected with the refreshed token")
                for write in Self.writesWhileDown { try observation.apply(write) }
                XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
                XCTAssertTrue(try observation.waitForServerValue(), "\(observation.values.events)")
                try probe(observation, "auth_revoked + refresher")
                XCTAssertFalse(observation.values.isTerminated)
                try observation.assertConsistent("auth_revoked + refresher")
                XCTAssertEqual(refreshes.withLock { $0 }, 1)
                XCTAssertEqual(server.requests(on: .database).suffix(2).map { $0.query["auth"] }, [old, new])
                observation.close()
                server.allowUnauthenticatedDatabaseAccess()
            }
        }
    }
}

extension FirebaseTestServer {
    /// Makes `write` and records the new state of every observed location.
    func apply(_ write: DatabaseFaultMatrixTests.Write, recordingIn observations: [DatabaseFaultMatrixTests.Observation]) throws {
        switch write {
        case .set(let value, let at): try setDatabaseValue(value, at: at)
        case .update(let children, let at): try updateDatabaseChildren(children, at: at)
        case .remove(let at): try removeDatabaseValue(at: at)
        }
        for observation in observations { try observation.recordServerState() }
    }
}
