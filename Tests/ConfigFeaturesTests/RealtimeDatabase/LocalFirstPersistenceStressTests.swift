import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// Threads writing at once through a persisted LocalFirstRealtimeDatabase, on a real dispatch
/// scheduler, while connectivity flaps. Asserts outcomes, never timing.
final class LocalFirstPersistenceStressTests: XCTestCase {
    func testConcurrentWriters_everyWriteIsStoredSentAndSettledOnDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LocalFirstPersistenceStressTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scheduler = SerialDispatchQueueScheduler(serialQueue: DispatchQueue(label: "LocalFirstPersistenceStressTests"))
        let server = InMemoryRealtimeDatabase(scheduler: scheduler)
        let persistence = RealtimeDatabasePersistence.file(directory: directory, maximumCacheSize: 2_000)
        let database = LocalFirstRealtimeDatabase(
            remote: server, persistence: persistence, scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.001, multiplier: 1, maximumDelay: 0.001, jitter: 0))
        let threads = 4
        let writesPerThread = 40
        let group = DispatchGroup()
        let failures = LockedState<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let observation = database.observeValue(at: "t\(thread)").subscribe()
            for index in 0..<writesPerThread {
                if thread == 0, index % 10 == 5 { database.goOffline() }
                if thread == 0, index % 10 == 8 { database.goOnline() }
                group.enter()
                _ = database.setValue(.number(Double(index)), at: "t\(thread)/w\(index)").subscribe(
                    onError: { error in
                        failures.withLock { $0.append("\(error)") }
                        group.leave()
                    },
                    onCompleted: { group.leave() })
            }
            observation.dispose()
        }
        database.goOnline()
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "every write acknowledged")
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertNil(database.persistenceError)
        for thread in 0..<threads {
            let expected = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<writesPerThread).map { ("w\($0)", JSONValue.number(Double($0))) }))
            XCTAssertEqual(try server.value(at: "t\(thread)"), expected)
        }
        // Every write was settled on disk: a restart has nothing to send.
        database.goOffline()
        let remote = RecordingDatabase(base: server)
        let restarted = LocalFirstRealtimeDatabase(remote: remote, persistence: persistence, scheduler: scheduler)
        let counted = DispatchSemaphore(value: 0)
        let count = LockedState<Int?>(nil)
        let subscription = restarted.pendingWriteCount.take(1).subscribe(onNext: { value in
            count.withLock { $0 = value }
            counted.signal()
        })
        XCTAssertEqual(counted.wait(timeout: .now() + 10), .success)
        subscription.dispose()
        XCTAssertEqual(count.withLock { $0 }, 0)
        XCTAssertEqual(remote.sent, [])
    }
}
