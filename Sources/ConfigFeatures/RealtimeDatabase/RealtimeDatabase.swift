import Streams

/// A Firebase Realtime Database: a JSON tree addressed by slash paths, observed as streams of values.
///
/// Reads are observables of ``JSONValue`` (absent data is `.null`); writes are cold observables
/// that perform the write when subscribed and then emit `()` and complete. Paths follow
/// ``RealtimeDatabasePath``; a bad path or value makes the observable fail with a
/// ``RealtimeDatabaseError``.
///
/// | Firebase (`DatabaseReference`)             | ``RealtimeDatabase``                         |
/// |--------------------------------------------|--------------------------------------------|
/// | `observe(.value, with:)`                   | `observeValue(at:)` (subscribe)            |
/// | `removeObserver(withHandle:)`              | dispose the subscription                   |
/// | `observeSingleEvent(of: .value)`/`getData` | `getValue(at:)`                            |
/// | `setValue(_:)`                             | `setValue(_:at:)`                          |
/// | `updateChildValues(_:)`                    | `updateChildValues(_:at:)`                 |
/// | `removeValue()`                            | `removeValue(at:)`                         |
/// | `childByAutoId()` + `setValue(_:)`         | `push(_:at:)`, or `childByAutoId()` + `setValue` |
///
/// Implementations only provide `observeValue(at:)`, `getValue(at:)`, `perform(_:)` and
/// `childByAutoId()`; the named writes have default implementations on top of `perform(_:)`.
/// ``InMemoryRealtimeDatabase`` is the embedded implementation. See <doc:RealtimeDatabaseGuide>.
public protocol RealtimeDatabase: Sendable {
    /// Observes the value at `path`: the current value first, then the new value after every
    /// write that changes it (a write at, above or below `path`).
    ///
    ///     writes (TestScheduler): @300 set x=1   @400 set x=1   @500 set y=2   @600 set x=2
    ///     observeValue(at: "x"):  201: v0        301: 1                        601: 2
    ///                             (subscribed at 200; v0 = the value then, .null if absent)
    ///
    /// Writes that leave the value equal (the same value again, or another path) emit nothing.
    /// Absent data is `.null`. The sequence never completes; it fails only for an invalid
    /// path. Disposing the subscription removes the listener (Firebase's
    /// `removeObserver(withHandle:)`).
    /// - Note: Delivers on the database's scheduler.
    func observeValue(at path: String) -> Observable<JSONValue>

    /// Reads the value at `path` once: emits it (`.null` when absent) and completes
    /// (Firebase's `observeSingleEvent(of: .value)` / `getData`).
    /// - Note: Delivers on the database's scheduler.
    func getValue(at path: String) -> Observable<JSONValue>

    /// Observes the value a query selects: an object of the selected children (`.null` when
    /// none), first the current one, then after every write that changes it.
    ///
    ///     children of "g": a:1 b:2 c:3        then @300 set g/d=4
    ///     query(at: "g").orderedByValue().limited(toLast: 2):
    ///                      {b:2, c:3}         301: {c:3, d:4}
    ///
    /// A write that leaves the selection equal (outside its range, or past its limit) emits
    /// nothing. The sequence never completes; it fails with
    /// `RealtimeDatabaseError.invalidQuery` for an invalid query (or a path error).
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    func observeValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue>

    /// Reads the value a query selects once: emits it (`.null` when nothing matches) and
    /// completes.
    /// - Note: Delivers on the database's scheduler.
    func getValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue>

    /// Observes the children a query selects, in its order (what iterating a Firebase query
    /// snapshot's `children` gives): the current list first, then the list after every write
    /// that changes it.
    /// - Note: Delivers on the database's scheduler.
    func observeChildren(of query: RealtimeDatabaseQuery) -> Observable<[RealtimeDatabaseChild]>

    /// Observes a query's children as child events: an `added` for each selected child, in
    /// order, then an event per change (Firebase's `childAdded`, `childChanged`,
    /// `childRemoved`, `childMoved`).
    ///
    ///     children of "g": a:1 b:2 c:3        then @300 set g/d=4
    ///     query(at: "g").orderedByValue().limited(toLast: 2):
    ///       201: added b first, added c after b   301: removed b, added d after c
    ///
    /// One write gives its `removed` events first, then `added`, `moved` and `changed` (each
    /// in the query's order), as Firebase raises them. A child leaving or entering the range or
    /// limit window is `removed` or `added`. The sequence never completes; it fails with
    /// `RealtimeDatabaseError.invalidQuery` for an invalid query.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    func observeChildEvents(of query: RealtimeDatabaseQuery) -> Observable<RealtimeDatabaseChildEvent>

    /// Runs a transaction at `path` when subscribed: `update` gets the current value (`.null`
    /// when absent) and returns the value to store, or `nil` to abort; if another write
    /// changed the value meanwhile, `update` runs again with the new one, up to
    /// `RealtimeDatabaseTransaction.maximumAttempts` (25) times (Firebase's
    /// `runTransactionBlock`).
    ///
    /// `update` may run several times, on any thread; it must only compute. A thrown error
    /// ends the transaction with that error, and nothing is written. Server values
    /// (``RealtimeDatabaseServerValue``) may be part of the new value.
    /// - Returns: A `Single` of the outcome: committed with the stored value, or not committed
    ///   (aborted) with the value `update` last saw; it fails with
    ///   `RealtimeDatabaseError.transactionRetriesExhausted` past the attempts, or with a write's
    ///   errors.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    func runTransaction(at path: String, update: @escaping (JSONValue) throws -> JSONValue?) -> Single<RealtimeDatabaseTransactionResult>

    /// Performs `write` when subscribed, then emits `()` and completes; fails with a
    /// ``RealtimeDatabaseError`` when the write is invalid (nothing is written then).
    /// - Note: Delivers on the database's scheduler.
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void>

    /// A new push ID (20 characters, ordered by creation time), without writing anything
    /// (Firebase's `childByAutoId().key`). See ``PushIDGenerator``.
    func childByAutoId() -> String

    /// Replaces the value at `path` with `value` (`.null` deletes it) when subscribed.
    func setValue(_ value: JSONValue, at path: String) -> Observable<Void>

    /// Sets several children of `path` at once when subscribed; keys are relative paths and may
    /// contain slashes, values `.null` delete. All-or-nothing: one bad key fails the whole update.
    func updateChildValues(_ values: [String: JSONValue], at path: String) -> Observable<Void>

    /// Deletes the value at `path` (and prunes parents left empty) when subscribed.
    func removeValue(at path: String) -> Observable<Void>

    /// Stores `value` under a new push ID child of `path` when subscribed and emits that key.
    ///
    /// The key is generated when `push` is called, so subscribing again rewrites the same child.
    func push(_ value: JSONValue, at path: String) -> Observable<String>
}

extension RealtimeDatabase {
    /// Replaces the value at `path` with `value` (`.null` deletes it) when subscribed.
    ///
    /// - Returns: A cold sequence that writes on subscription, then emits `()` and completes.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    public func setValue(_ value: JSONValue, at path: String) -> Observable<Void> {
        perform(.setValue(value, at: path))
    }

    /// Sets several children of `path` at once when subscribed (Firebase's multi-path update).
    ///
    /// - Returns: A cold sequence that writes on subscription, then emits `()` and completes.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    public func updateChildValues(_ values: [String: JSONValue], at path: String) -> Observable<Void> {
        perform(.updateChildValues(values, at: path))
    }

    /// Deletes the value at `path` when subscribed.
    ///
    /// - Returns: A cold sequence that writes on subscription, then emits `()` and completes.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    public func removeValue(at path: String) -> Observable<Void> {
        perform(.removeValue(at: path))
    }

    /// Stores `value` under a new push ID child of `path` when subscribed and emits the key.
    ///
    /// - Returns: A cold sequence that writes on subscription, then emits the key and completes.
    /// - Note: Delivers on the database's scheduler. See <doc:RealtimeDatabaseGuide>.
    public func push(_ value: JSONValue, at path: String) -> Observable<String> {
        let key = childByAutoId()
        // A bad `path` is passed through unchanged so that the write fails with the error
        // (and on the scheduler) the implementation uses for invalid paths.
        let childPath = (try? RealtimeDatabasePath(path)).map { $0.isRoot ? key : "\($0)/\(key)" } ?? path
        return perform(.setValue(value, at: childPath)).map { key }
    }
}

/// A write to a Realtime Database, as performed by `RealtimeDatabase.perform(_:)`.
///
/// The cases map to Firebase's writes and to its REST verbs (`PUT`, `PATCH`, `DELETE`).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RealtimeDatabaseWrite: Sendable, Equatable {
    /// Replace the value at `path` (`.null` deletes it): `setValue`, REST `PUT`.
    case setValue(JSONValue, at: String)
    /// Set each child (keys are relative paths) of `path`: `updateChildValues`, REST `PATCH`.
    case updateChildValues([String: JSONValue], at: String)
    /// Delete the value at `path`: `removeValue`, REST `DELETE`.
    case removeValue(at: String)

    /// The path the write is addressed to.
    public var path: String {
        switch self {
        case .setValue(_, let path), .updateChildValues(_, let path), .removeValue(let path): return path
        }
    }
}
