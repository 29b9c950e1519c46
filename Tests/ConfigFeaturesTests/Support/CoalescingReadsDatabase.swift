import ConfigFeatures
import Streams

/// A server whose observations skip intermediate values: each observation emits a value only
/// once `quiet` ticks have passed without another (a debounce), as a stream that reconnected
/// and read a fresh snapshot would. A write followed quickly by another client's change never
/// shows its own value there.
final class CoalescingReadsDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: immutable references to thread-safe objects.
    let base: InMemoryRealtimeDatabase
    let scheduler: SchedulerType
    let quiet: Int

    init(base: InMemoryRealtimeDatabase, scheduler: SchedulerType, quiet: Int) {
        self.base = base
        self.scheduler = scheduler
        self.quiet = quiet
    }

    func observeValue(at path: String) -> Observable<JSONValue> {
        base.observeValue(at: path).debounce(.seconds(quiet), scheduler: scheduler)
    }
    func getValue(at path: String) -> Observable<JSONValue> { observeValue(at: path).take(1) }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
}
