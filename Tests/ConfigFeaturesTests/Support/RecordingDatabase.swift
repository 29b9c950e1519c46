import ConfigFeatures
import Streams

/// A server that records every write sent to it (in order) and runs `beforeSend` as each one
/// arrives, before passing it to `base`.
final class RecordingDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: `base` is thread-safe; `sent` is guarded by its LockedState; `beforeSend` is only
    // set before the database is used.
    let base: InMemoryRealtimeDatabase
    private let sentWrites = LockedState<[RealtimeDatabaseWrite]>([])
    var beforeSend: (RealtimeDatabaseWrite) -> Void = { _ in }

    init(base: InMemoryRealtimeDatabase) {
        self.base = base
    }

    /// The writes sent so far, in order.
    var sent: [RealtimeDatabaseWrite] { sentWrites.withLock { $0 } }

    func observeValue(at path: String) -> Observable<JSONValue> { base.observeValue(at: path) }
    func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        Observable.deferred { [self] in
            sentWrites.withLock { $0.append(write) }
            beforeSend(write)
            return base.perform(write)
        }
    }
}
