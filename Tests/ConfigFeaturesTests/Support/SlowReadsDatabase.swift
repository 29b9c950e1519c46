import ConfigFeatures
import Streams

/// A server whose reads reach the client `delay` ticks late while writes are acknowledged at
/// once: every observed value (the first snapshot included) is delivered `delay` ticks after
/// `base` emits it, so an acknowledgement can overtake the data that was current before it.
final class SlowReadsDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: immutable references to thread-safe objects.
    let base: InMemoryRealtimeDatabase
    let scheduler: SchedulerType
    let delay: Int

    init(base: InMemoryRealtimeDatabase, scheduler: SchedulerType, delay: Int) {
        self.base = base
        self.scheduler = scheduler
        self.delay = delay
    }

    func observeValue(at path: String) -> Observable<JSONValue> {
        base.observeValue(at: path).delay(.seconds(delay), scheduler: scheduler)
    }
    func getValue(at path: String) -> Observable<JSONValue> { observeValue(at: path).take(1) }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
}
