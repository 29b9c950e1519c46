import ConfigFeatures
import Streams

/// A server whose acknowledgements reach the client `delay` ticks after it stored the write,
/// while its events arrive at once: the server's data shows a write (and anything written
/// after it) before the write's acknowledgement.
final class SlowAcknowledgementsDatabase: RealtimeDatabase, @unchecked Sendable {
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
        base.perform(write).delay(.seconds(delay), scheduler: scheduler)
    }
}
