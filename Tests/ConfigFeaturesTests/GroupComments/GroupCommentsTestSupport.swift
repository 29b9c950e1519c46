import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Seed 004's data.
enum GroupSeed {
    /// The seed's database.json.
    static let database: JSONValue = [
        "Groups": [
            "group0": ["comment0-0", "comment0-1", "comment0-2"],
            "group1": ["comment1-0", "comment1-1", "comment1-2"],
            "group2": ["comment2-0", "comment2-1", "comment2-2"],
        ],
        "Users": ["user1": ["group0", "group1"]],
    ]
    /// The seed's groups 0 and 1, with user2 as a second member of group0 (posting tests).
    static let databaseWithUser2: JSONValue = [
        "Groups": [
            "group0": ["comment0-0", "comment0-1", "comment0-2"],
            "group1": ["comment1-0", "comment1-1", "comment1-2"],
        ],
        "Users": ["user1": ["group0", "group1"], "user2": ["group0"]],
    ]
    static let comments0 = ["comment0-0", "comment0-1", "comment0-2"]
    static let comments1 = ["comment1-0", "comment1-1", "comment1-2"]
    static let comments2 = ["comment2-0", "comment2-1", "comment2-2"]
}

/// Runs `body` at virtual `time`, failing the test (instead of crashing) if it throws.
func scheduleDatabaseWrite(
    _ scheduler: TestScheduler, at time: TestTime, file: StaticString = #filePath, line: UInt = #line, _ body: @escaping () throws -> Void
) {
    scheduler.scheduleAt(time) {
        do { try body() } catch { XCTFail("unexpected error \(error)", file: file, line: line) }
    }
}

/// A `RealtimeDatabase` in front of an `InMemoryRealtimeDatabase` that records, per path, when
/// each `observeValue` subscription started and ended (in `TestScheduler` time), and can delay
/// the values of chosen paths (a slow group).
final class SpyDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: `log` is guarded by its lock; `base` and `scheduler` are thread-safe, and
    // `latencies` is immutable after init.
    let base: InMemoryRealtimeDatabase
    private let scheduler: TestScheduler
    private let latencies: [String: Int]
    private let log = LockedState<[String: [Subscription]]>([:])

    init(scheduler: TestScheduler, value: JSONValue = GroupSeed.database, latencies: [String: Int] = [:]) throws {
        self.scheduler = scheduler
        self.base = try InMemoryRealtimeDatabase(scheduler: scheduler, value: value)
        self.latencies = latencies
    }

    /// The `observeValue` subscriptions of `path`, in subscription order.
    func subscriptions(_ path: String) -> [Subscription] {
        log.withLock { $0[path] ?? [] }
    }

    /// Every observed path and its subscriptions.
    var allSubscriptions: [String: [Subscription]] {
        log.withLock { $0 }
    }

    var activeObserverCount: Int { base.activeObserverCount }

    func observeValue(at path: String) -> Observable<JSONValue> {
        let base = base, scheduler = scheduler, log = log
        let latency = latencies[path]
        return Observable.create { observer in
            let index = log.withLock { log -> Int in
                log[path, default: []].append(Subscription(scheduler.clock))
                return log[path]!.count - 1
            }
            var source = base.observeValue(at: path)
            if let latency { source = source.delay(.seconds(latency), scheduler: scheduler) }
            let subscription = source.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                log.withLock { log in
                    let started = log[path]![index].subscribe
                    log[path]![index] = Subscription(started, scheduler.clock)
                }
            }
        }
    }

    func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
    func childByAutoId() -> String { base.childByAutoId() }
}
