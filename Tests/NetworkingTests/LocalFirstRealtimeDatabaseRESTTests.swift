import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `LocalFirstRealtimeDatabase` over `FirebaseRESTDatabase` (the real `URLSessionTransport`)
/// against the loopback `FirebaseTestServer`.
final class LocalFirstRealtimeDatabaseRESTTests: FirebaseTestServerTestCase {
    private func makeDatabase() -> LocalFirstRealtimeDatabase {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "local-first")
        let rest = FirebaseRESTDatabase(
            databaseURL: server.databaseURL,
            auth: .none,
            scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2),
            requestTimeout: networkTimeout
        )
        return LocalFirstRealtimeDatabase(
            remote: rest, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2, jitter: 0))
    }

    func testLocalFirst_writeIsVisibleLocallyBeforeTheServerHasIt() throws {
        try XCTAssertNoLeaksEventually {
            let database = makeDatabase()
            let values = EventRecorder(database.observeValue(at: "posts/p1"))
            XCTAssertTrue(values.waitForElements(1), "the server's value (null)")
            // The write reaches the server only after 1 s.
            server.inject(.delay(1, count: 1, route: .database))
            let write = EventRecorder(database.setValue(["title": "Hello"], at: "posts/p1"))
            XCTAssertTrue(values.wait { $0.contains(.next(["title": "Hello"])) }, "seen locally")
            XCTAssertEqual(try server.databaseValue(at: "posts/p1"), .null, "before the server stored it")
            XCTAssertFalse(write.isTerminated, "not acknowledged yet")
            XCTAssertTrue(write.waitForTermination())
            XCTAssertNil(write.error)
            XCTAssertEqual(try server.databaseValue(at: "posts/p1"), ["title": "Hello"])
            XCTAssertEqual(values.elements, [.null, ["title": "Hello"]], "the echo changes nothing")
            values.dispose()
        }
    }

    func testLocalFirst_writeMadeWhileTheServerRefusesIsDeliveredWhenItIsBack() throws {
        try XCTAssertNoLeaksEventually {
            let database = makeDatabase()
            let values = EventRecorder(database.observeValue(at: "g"))
            let connected = EventRecorder(database.observeValue(at: ".info/connected"))
            XCTAssertTrue(values.waitForElements(1))
            // The server drops the next three database requests: the write and two retries.
            server.inject(.disconnect(count: 3, route: .database))
            let first = EventRecorder(database.setValue("one", at: "g/a"))
            let second = EventRecorder(database.setValue("two", at: "g/b"))
            XCTAssertTrue(values.wait { $0.contains(.next(["a": "one", "b": "two"])) }, "both seen locally at once")
            XCTAssertTrue(first.waitForTermination())
            XCTAssertTrue(second.waitForTermination())
            XCTAssertNil(first.error)
            XCTAssertNil(second.error)
            XCTAssertEqual(try server.databaseValue(at: "g"), ["a": "one", "b": "two"])
            XCTAssertEqual(server.requests(on: .database).filter { $0.method != "GET" }.map(\.method).suffix(2), ["PUT", "PUT"])
            XCTAssertTrue(connected.wait { $0.contains(.next(false)) && $0.last == .next(true) }, "offline, then back")
            values.dispose()
            connected.dispose()
        }
    }
}
