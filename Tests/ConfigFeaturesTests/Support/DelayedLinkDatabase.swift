import ConfigFeatures
import Streams

// article:begin delayed-link
/// A server behind a link with delays, in virtual ticks: `reads` delays every observed value
/// (the first snapshot included), `uplink` delays each write before it reaches `base`, and
/// `acknowledgements` delays each write's acknowledgement after `base` stored it.
///
/// Slow reads let an acknowledgement overtake the data that was current before it; slow
/// acknowledgements let the server's data show a write (and anything written after it) before
/// its acknowledgement; a slow uplink is a real network's round trip.
final class DelayedLinkDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: immutable references to thread-safe objects, and immutable numbers.
    let base: InMemoryRealtimeDatabase
    let scheduler: SchedulerType
    let reads: Int
    let uplink: Int
    let acknowledgements: Int

    init(base: InMemoryRealtimeDatabase, scheduler: SchedulerType, reads: Int = 0, uplink: Int = 0, acknowledgements: Int = 0) {
        self.base = base
        self.scheduler = scheduler
        self.reads = reads
        self.uplink = uplink
        self.acknowledgements = acknowledgements
    }

    func observeValue(at path: String) -> Observable<JSONValue> {
        reads == 0 ? base.observeValue(at: path) : base.observeValue(at: path).delay(.seconds(reads), scheduler: scheduler)
    }
    func getValue(at path: String) -> Observable<JSONValue> {
        reads == 0 ? base.getValue(at: path) : observeValue(at: path).take(1)
    }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        var sent = base.perform(write)
        if uplink > 0 {
            sent = Observable.just(()).delay(.seconds(uplink), scheduler: scheduler).flatMap { [base] in base.perform(write) }
        }
        if acknowledgements > 0 { sent = sent.delay(.seconds(acknowledgements), scheduler: scheduler) }
        return sent
    }
}
// article:end delayed-link
