import ConfigFeatures
import Streams

/// A server reached over a slow uplink: each write reaches `base` `delay` ticks after it is
/// sent (reads are immediate), as over a real network.
final class SlowUplinkDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: immutable references to thread-safe objects.
    let base: InMemoryRealtimeDatabase
    let scheduler: SchedulerType
    let delay: Int

    init(base: InMemoryRealtimeDatabase, scheduler: SchedulerType, delay: Int) {
        self.base = base
        self.scheduler = scheduler
        self.delay = delay
    }

    func observeValue(at path: String) -> Observable<JSONValue> { base.observeValue(at: path) }
    func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        Observable.just(()).delay(.seconds(delay), scheduler: scheduler).flatMap { [base] in base.perform(write) }
    }
}
