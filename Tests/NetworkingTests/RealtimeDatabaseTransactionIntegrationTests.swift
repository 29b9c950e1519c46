import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// Conditional requests, server values and Bearer auth on `FirebaseTestServer`, and
/// `FirebaseRESTDatabase` transactions built on them.
final class RealtimeDatabaseTransactionIntegrationTests: FirebaseTestServerTestCase {
    private func makeDatabase(auth: FirebaseRESTAuth = .none) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: server.databaseURL, auth: auth, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "transactions"),
            requestTimeout: networkTimeout)
    }

    // MARK: - The server's conditional requests

    func testTestServer_eTagOnRequest_412OnAStaleIfMatch_304OnAMatchingIfNoneMatch() throws {
        try server.setDatabaseValue(["n": 1], at: "c")
        let url = server.databaseURL("/c")
        let read = try client.send("GET", url, headers: ["X-Firebase-ETag": "true"])
        let eTag = try XCTUnwrap(read.header("ETag"))
        XCTAssertNil(try client.send("GET", url).header("ETag"), "only when asked")

        let notModified = try client.send("GET", url, headers: ["if-none-match": eTag])
        XCTAssertEqual(notModified.status, 304)
        XCTAssertTrue(notModified.body.isEmpty)

        let stored = try client.send("PUT", url, json: ["n": 2], headers: ["if-match": eTag])
        XCTAssertEqual(stored.status, 200)
        let newETag = try XCTUnwrap(stored.header("ETag"))
        XCTAssertNotEqual(newETag, eTag)

        // The old ETag is stale now: 412 with the current value and ETag, nothing written.
        let stale = try client.send("PUT", url, json: ["n": 99], headers: ["if-match": eTag])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale.json, ["n": 2])
        XCTAssertEqual(stale.header("ETag"), newETag)
        XCTAssertEqual(try server.databaseValue(at: "c"), ["n": 2])
        XCTAssertEqual(try client.send("DELETE", url, headers: ["if-match": eTag]).status, 412)

        let changed = try client.send("GET", url, headers: ["if-none-match": eTag])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.json, ["n": 2])
        XCTAssertEqual(changed.header("ETag"), newETag)
        // Equal values have equal ETags (a digest of the content).
        try server.setDatabaseValue(["n": 1], at: "c")
        XCTAssertEqual(try client.send("GET", url, headers: ["X-Firebase-ETag": "true"]).header("ETag"), eTag)
    }

    func testTestServer_bearerTokensAuthenticate() throws {
        server.requireDatabaseAuth(validTokens: ["owner"])
        let url = server.databaseURL("/x")
        XCTAssertEqual(try client.send("GET", url).status, 401)
        XCTAssertEqual(try client.send("GET", url, headers: ["Authorization": "Bearer wrong"]).status, 401)
        XCTAssertEqual(try client.send("GET", url, headers: ["Authorization": "Bearer owner"]).status, 200)
    }

    func testTestServer_resolvesServerValues() throws {
        try server.setDatabaseValue(5, at: "n")
        let before = Date().timeIntervalSince1970 * 1000
        let answer = try client.send(
            "PUT", server.databaseURL("/m"), json: ["at": RealtimeDatabaseServerValue.timestamp, "n": RealtimeDatabaseServerValue.increment(1)])
        XCTAssertEqual(answer.status, 200)
        let stored = try server.databaseValue(at: "m")
        let at = try XCTUnwrap(stored["at"]?.numberValue)
        XCTAssertGreaterThanOrEqual(at, before.rounded(.down))
        XCTAssertEqual(stored["n"], 1)
        XCTAssertEqual(answer.json, stored, "the answer holds the stored value")
        _ = try client.send("PATCH", server.databaseURL("/"), json: ["n": RealtimeDatabaseServerValue.increment(2)])
        XCTAssertEqual(try server.databaseValue(at: "n"), 7)
    }

    // MARK: - FirebaseRESTDatabase

    func testRESTTransaction_commitsWithConditionalRequests() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(41, at: "n")
            let result = try makeDatabase().runTransaction(at: "n") { .number(($0.numberValue ?? 0) + 1) }.toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(result, RealtimeDatabaseTransactionResult(committed: true, value: 42))
            let requests = server.requests(on: .database)
            XCTAssertEqual(requests.map(\.method), ["GET", "PUT"])
            XCTAssertEqual(requests[0].header("X-Firebase-ETag"), "true")
            XCTAssertNotNil(requests[1].header("if-match"))
        }
    }

    func testRESTTransaction_retriesAfterA412WithTheValueItCarried() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(1, at: "n")
            let server = self.server!
            let seen = LockedBox<[JSONValue]>([])
            let result = try makeDatabase().runTransaction(at: "n") { current in
                let first = seen.mutate {
                    $0.append(current); return $0.count == 1
                }
                // Another client writes between this transaction's read and its write.
                if first { try server.setDatabaseValue(10, at: "n") }
                return .number((current.numberValue ?? 0) * 2)
            }.toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(seen.value, [1, 10])
            XCTAssertEqual(result, RealtimeDatabaseTransactionResult(committed: true, value: 20))
            XCTAssertEqual(server.requests(on: .database).map(\.method), ["GET", "PUT", "PUT"])
        }
    }

    /// A storm of 412s shorter than the retry limit ends in a commit of the update of the
    /// latest value, with one GET and one PUT per attempt.
    func testRESTTransaction_a412StormShorterThanTheLimitEndsInACommit() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(0, at: "storm")
            let server = self.server!
            let rounds = LockedBox(0)
            let result = try makeDatabase().runTransaction(at: "storm") { current in
                let round = rounds.mutate {
                    $0 += 1; return $0
                }
                // Another client wins the race for the first 10 attempts.
                if round <= 10 { try server.setDatabaseValue(.number(Double(100 * round)), at: "storm") }
                return .number((current.numberValue ?? 0) + 1)
            }.toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(rounds.value, 11)
            XCTAssertEqual(result, RealtimeDatabaseTransactionResult(committed: true, value: 1_001))
            XCTAssertEqual(try server.databaseValue(at: "storm"), 1_001)
            XCTAssertEqual(server.requests(on: .database).filter { $0.method == "PUT" }.count, 11)
        }
    }

    func testRESTTransaction_abortAndExhaustedRetries() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue("v", at: "x")
            let database = makeDatabase()
            let aborted = try database.runTransaction(at: "x") { _ in nil }.toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(aborted, RealtimeDatabaseTransactionResult(committed: false, value: "v"))
            let server = self.server!
            let counter = LockedBox(0)
            let outcome = database.runTransaction(at: "x") { _ in
                let round = counter.mutate {
                    $0 += 1; return $0
                }
                try server.setDatabaseValue(.number(Double(round)), at: "x")
                return "never stored"
            }.toBlocking(timeout: networkTimeout).materialize()
            guard case .failed(_, let error) = outcome else { return XCTFail("\(outcome)") }
            XCTAssertEqual(error as? RealtimeDatabaseError, .transactionRetriesExhausted(path: "x", attempts: 25))
            XCTAssertEqual(counter.value, 25)
            XCTAssertEqual(try server.databaseValue(at: "x"), 25)
        }
    }

    func testRESTTransactions_concurrentClientsNeverLoseAnIncrement() throws {
        try XCTAssertNoLeaksEventually {
            let clients = 4
            let perClient = 10
            let databases = (0..<clients).map { _ in makeDatabase() }
            DispatchQueue.concurrentPerform(iterations: clients) { index in
                for _ in 0..<perClient {
                    // A transaction that loses 25 races in a row gives up having written
                    // nothing (as Firebase's do); run it again, as an app would.
                    while true {
                        do {
                            let result = try databases[index].runTransaction(at: "counter") { .number(($0.numberValue ?? 0) + 1) }.toBlocking(
                                timeout: networkTimeout
                            ).single()
                            XCTAssertTrue(result.committed)
                            break
                        } catch RealtimeDatabaseError.transactionRetriesExhausted {
                            continue
                        } catch {
                            XCTFail("\(error)")
                            break
                        }
                    }
                }
            }
            XCTAssertEqual(try server.databaseValue(at: "counter"), .number(Double(clients * perClient)))
        }
    }

    func testRESTServerValues_areSentAsPlaceholdersAndResolvedByTheServer() throws {
        try XCTAssertNoLeaksEventually {
            let database = makeDatabase()
            _ = try database.setValue(["n": RealtimeDatabaseServerValue.increment(3)], at: "p").toBlocking(timeout: networkTimeout).single()
            _ = try database.updateChildValues(["n": RealtimeDatabaseServerValue.increment(1)], at: "p").toBlocking(timeout: networkTimeout).single()
            XCTAssertEqual(try server.databaseValue(at: "p"), ["n": 4])
            let body = try XCTUnwrap(server.requests(on: .database).first?.body)
            XCTAssertEqual(try JSONValue(parsing: body), ["n": [".sv": ["increment": 3]]])
        }
    }
}

/// A value behind a lock, for closures that run on other threads.
final class LockedBox<Value>: @unchecked Sendable {
    // Safety: `stored` is only accessed while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&stored) }
    }
}
