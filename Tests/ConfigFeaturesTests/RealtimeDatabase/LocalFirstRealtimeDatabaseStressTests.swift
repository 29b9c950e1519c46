import ConfigFeatures
import Dispatch
import Foundation
import Streams
import StreamsTest
import XCTest

/// Four threads write through one `LocalFirstRealtimeDatabase` (each its own keys, plus keys
/// they share) while a fifth flaps the connection: the server's simulated connectivity and the
/// client's `goOffline()` / `goOnline()`. Nothing may be lost, repeated or reordered.
final class LocalFirstRealtimeDatabaseStressTests: XCTestCase {
    private static let writers = 4
    private static let writesPerThread = 60
    /// The flapper changes the connection once per `flapEvery` writes of any thread.
    private static let flapEvery = 12

    /// The `index`-th write of thread `thread`: its own key, two shared keys, or a removal.
    private static func write(_ index: Int, thread: Int) -> RealtimeDatabaseWrite {
        switch index % 5 {
        case 1, 3:
            let shared = (index + thread) % 4
            let value: JSONValue = .string("t\(thread)-\(index)")
            return .updateChildValues(["s\(shared)": value, "s\((shared + 1) % 4)/by": .number(Double(thread))], at: "shared")
        case 4:
            return .removeValue(at: "t\(thread)/k\(index - 2)")
        default:
            return .setValue(.number(Double(index)), at: "t\(thread)/k\(index)")
        }
    }

    private struct Log {
        /// The writes in the order they were issued (subscribed).
        var issued: [RealtimeDatabaseWrite] = []
        /// Per write (in `issued` order): its events.
        var events: [[String]] = []
    }

    func testConcurrentWritesWhileConnectivityFlaps_serverEndsWithTheirSerialOutcome() throws {
        try XCTAssertNoLeaksEventually {
            try stress()
        }
    }

    private func stress() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "stress-client")
        let server = InMemoryRealtimeDatabase(scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "stress-server"))
        let database = LocalFirstRealtimeDatabase(
            remote: server, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.001, maximumDelay: 0.01, jitter: 0))
        let total = Self.writers * Self.writesPerThread
        let log = LockedState(Log())
        // Issuing and logging happen together, so the log has the issue order.
        let issuing = LockedState(())
        let allAcknowledged = expectation(description: "every write completed")
        allAcknowledged.expectedFulfillmentCount = total
        let progress = DispatchSemaphore(value: 0)
        let observed = LockedState<[JSONValue]>([])
        let observation = database.observeValue(at: "/").subscribe(onNext: { value in observed.withLock { $0.append(value) } })
        let subscriptions = LockedState<[Disposable]>([])

        let flapperDone = DispatchSemaphore(value: 0)
        let flapper = Thread {
            defer { flapperDone.signal() }
            for flap in 0..<(total / Self.flapEvery) {
                progress.wait()
                switch flap % 4 {
                case 0: server.connectivity = .offline
                case 1: server.connectivity = .online
                case 2: database.goOffline()
                default: database.goOnline()
                }
            }
        }
        flapper.start()
        DispatchQueue.concurrentPerform(iterations: Self.writers) { thread in
            for index in 0..<Self.writesPerThread {
                let write = Self.write(index, thread: thread)
                issuing.withLock { _ in
                    let number = log.withLock { log -> Int in
                        log.issued.append(write)
                        log.events.append([])
                        return log.issued.count - 1
                    }
                    let subscription = database.perform(write).subscribe { event in
                        let name: String
                        switch event {
                        case .next: name = "next"
                        case .error(let error): name = "error \(error)"
                        case .completed: name = "completed"
                        }
                        log.withLock { $0.events[number].append(name) }
                        if event.isStopEvent { allAcknowledged.fulfill() }
                    }
                    subscriptions.withLock { $0.append(subscription) }
                }
                if (index + 1) % Self.flapEvery == 0 { progress.signal() }
            }
        }
        wait(for: [allAcknowledged], timeout: 120)
        XCTAssertEqual(flapperDone.wait(timeout: .now() + 120), .success, "the flapper made its last change (goOnline)")

        let (issued, events) = log.withLock { ($0.issued, $0.events) }
        XCTAssertEqual(issued.count, total)
        XCTAssertEqual(events.filter { $0 != ["next", "completed"] }.count, 0, "each write completes exactly once, without error")
        // The serial outcome: the writes replayed in issue order on a database of their own.
        let serial = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))  // no observers: nothing is scheduled
        for write in issued {
            switch write {
            case .setValue(let value, let path): try serial.setValue(value, at: path)
            case .updateChildValues(let values, let path): try serial.updateChildValues(values, at: path)
            case .removeValue(let path): try serial.removeValue(at: path)
            }
        }
        let expected = try serial.value(at: "/")
        XCTAssertEqual(try server.value(at: "/"), expected)

        let drained = expectation(description: "no write pending, the cache shows the server's data")
        let settled = Observable.combineLatest(database.pendingWriteCount, database.observeValue(at: "/"))
            .filter { $0.0 == 0 && $0.1 == expected }
            .take(1)
            .subscribe(onNext: { _ in drained.fulfill() })
        wait(for: [drained], timeout: 120)
        settled.dispose()
        // The first observer's delivery of that value was queued with the one just seen: wait
        // for the client's serial queue to pass it.
        let barrier = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            barrier.signal()
            return Disposables.create()
        }
        XCTAssertEqual(barrier.wait(timeout: .now() + 120), .success)
        observation.dispose()
        subscriptions.withLock { $0.forEach { $0.dispose() } }
        XCTAssertEqual(observed.withLock { $0.last }, expected, "the observer ends on the server's data")
        XCTAssertEqual(server.activeObserverCount, 0)
    }
}
