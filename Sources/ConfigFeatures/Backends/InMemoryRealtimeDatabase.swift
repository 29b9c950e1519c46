import Foundation
import Streams

/// An embedded Realtime Database: the JSON tree lives in memory and every notification is
/// delivered on an injected scheduler.
///
/// Besides the ``RealtimeDatabase`` observables it offers synchronous, throwing writes that take
/// effect at once (`setValue(_:at:)`, `updateChildValues(_:at:)`, `removeValue(at:)`,
/// `push(_:at:)`), a synchronous read `value(at:)`, and `activeObserverCount` so tests can prove
/// that listeners were removed.
///
///     let database = InMemoryRealtimeDatabase(scheduler: scheduler)
///     try database.setValue(["group0": ["c0", "c1"]], at: "Groups")
///     database.observeValue(at: "Groups/group0")   // ["c0","c1"], then every change
///
/// Calling a write on the concrete type picks the synchronous form (`try database.setValue(…)`);
/// the observable form is chosen when an `Observable` is expected
/// (`database.setValue(v, at: p).subscribe(…)`, or through a ``RealtimeDatabase`` value).
///
/// - Note: Every element, error and completion is delivered through
///   `scheduler.schedule`, so on a `TestScheduler` it arrives one tick after the write or the
///   subscription that caused it. Each observation receives its values one at a time, in the
///   order the writes happened, even when writers and the scheduler run on several threads.
///   See <doc:RealtimeDatabaseGuide>.
public final class InMemoryRealtimeDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: all mutable state (the tree and the registered observations) lives in `state`
    // and is only touched inside `state.withLock`, whose bodies never call observers, the
    // scheduler or `dispose()`. `scheduler` and `pushIDs` are immutable references to
    // thread-safe objects (schedulers are thread-safe by contract).
    private let scheduler: SchedulerType
    private let pushIDs: PushIDGenerator
    private let state = LockedState(State())

    /// The limits every path and value is checked against (Firebase's by default).
    public let limits: RealtimeDatabaseLimits

    /// Creates an empty database delivering on `scheduler`.
    ///
    /// - Parameters:
    ///   - scheduler: Where observers receive values (and write observables complete).
    ///   - pushIDGenerator: The source of push IDs; its clock is `scheduler.now`.
    ///   - limits: The depth and key length limits (Firebase's by default).
    public init(scheduler: SchedulerType, pushIDGenerator: PushIDGenerator = PushIDGenerator(), limits: RealtimeDatabaseLimits = .firebase) {
        self.scheduler = scheduler
        self.pushIDs = pushIDGenerator
        self.limits = limits
    }

    /// Creates a database holding `value` at the root (e.g. an exported JSON file).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidValue`, `.pathTooDeep` or `.keyTooLong` when
    ///   `value` cannot be stored.
    public convenience init(
        scheduler: SchedulerType, value: JSONValue, pushIDGenerator: PushIDGenerator = PushIDGenerator(), limits: RealtimeDatabaseLimits = .firebase
    ) throws {
        self.init(scheduler: scheduler, pushIDGenerator: pushIDGenerator, limits: limits)
        try setValue(value, at: "/")
    }

    /// The simulated connection between clients and this database, for testing a client (a
    /// ``LocalFirstRealtimeDatabase``, a view model) in virtual time. `.online` by default.
    ///
    ///     database.connectivity = .offline           // @300: observations fail with .network
    ///     database.connectivity = .online            // @400: new requests work again
    ///     database.connectivity = .rejectingWrites() // @500: writes fail, reads work
    ///
    /// It affects only the observable API, the one clients use. The synchronous API
    /// (`setValue(_:at:)`, `value(at:)`, …) plays the server side and keeps working, so a
    /// test can change the data while its clients are cut off.
    /// - Note: Setting `.offline` fails every live observation with
    ///   `RealtimeDatabaseError.network` on the scheduler (its pending values are dropped), as
    ///   a dropped connection would; clients resubscribe once it is `.online` again.
    public var connectivity: InMemoryRealtimeDatabaseConnectivity {
        get { state.withLock { $0.connectivity } }
        set {
            let dropped = state.withLock { state -> [Observation] in
                state.connectivity = newValue
                guard newValue == .offline else { return [] }
                let dropped = state.observations.sorted { $0.key < $1.key }.map(\.value)
                state.observations.removeAll()
                return dropped
            }
            for observation in dropped {
                observation.scheduled.values.forEach { $0.dispose() }
                let listener = observation.observer
                _ = scheduler.schedule(listener) { listener in
                    listener.onError(Self.offlineError)
                    return Disposables.create()
                }
            }
        }
    }

    /// What the observable API fails with while `connectivity` is `.offline`.
    static let offlineError = RealtimeDatabaseError.network(message: "the in-memory database is offline (simulated)")

    /// The error a client request fails with under the current connectivity, if any (`path`
    /// is the written path for a write).
    private func connectivityError(writing path: String?) -> RealtimeDatabaseError? {
        switch state.withLock({ $0.connectivity }) {
        case .online: return nil
        case .offline: return Self.offlineError
        case .rejectingWrites(let error):
            guard let path else { return nil }
            return error ?? .permissionDenied(path: path)
        }
    }

    /// The number of live `observeValue(at:)` subscriptions (Firebase's registered listeners).
    public var activeObserverCount: Int {
        state.withLock { $0.observations.count }
    }

    // MARK: - Synchronous API

    /// The current value at `path` (`.null` when absent).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.pathTooDeep` or `.keyTooLong`.
    public func value(at path: String) throws -> JSONValue {
        let location = try RealtimeDatabasePath(path, limits: limits)
        return state.withLock { RealtimeDatabaseTree.value(at: location.segments[...], in: $0.root) }
    }

    /// Replaces the value at `path` with `value` at once; `.null` deletes it and prunes parents
    /// left empty. Observers whose value changes are notified on the scheduler.
    ///
    /// - Complexity: O(depth) amortized, plus the size of `value`, when no snapshot of the
    ///   changed containers is held elsewhere (an undelivered or kept observer value is a
    ///   snapshot: the first write after it copies the containers it shares).
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.invalidValue`, `.pathTooDeep` or
    ///   `.keyTooLong`; nothing is written then.
    public func setValue(_ value: JSONValue, at path: String) throws {
        let location = try RealtimeDatabasePath(path, limits: limits)
        var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
        let normalized = try RealtimeDatabaseTree.normalized(value, at: location, limits: limits, placeholders: &placeholders)
        commit([PendingWrite(location: location, value: normalized, placeholders: placeholders)])
    }

    /// Sets several children of `path` at once, atomically (observers see one change).
    ///
    /// Keys are paths relative to `path` and may contain slashes (`"users/u1/name"`); `.null`
    /// values delete. As in Firebase, no key may be an ancestor of (or equal to) another.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath` (a bad `path` or key), `.invalidValue`,
    ///   `.invalidUpdate` (an empty or overlapping key), `.pathTooDeep` or `.keyTooLong`;
    ///   nothing is written then.
    public func updateChildValues(_ values: [String: JSONValue], at path: String) throws {
        commit(
            try RealtimeDatabaseUpdate.writes(values, at: path, limits: limits).map {
                PendingWrite(location: $0.location, value: $0.value, placeholders: $0.placeholders)
            })
    }

    /// Deletes the value at `path` at once (and prunes parents left empty).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.pathTooDeep` or `.keyTooLong`.
    public func removeValue(at path: String) throws {
        try setValue(.null, at: path)
    }

    /// Stores `value` under a new push ID child of `path` at once and returns the key
    /// (Firebase's `childByAutoId().setValue(value)`).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.invalidValue`, `.pathTooDeep` or
    ///   `.keyTooLong`; nothing is written then.
    @discardableResult
    public func push(_ value: JSONValue, at path: String) throws -> String {
        let parent = try RealtimeDatabasePath(path, limits: limits)
        if parent.depth + 1 > limits.maximumDepth {
            throw RealtimeDatabaseError.pathTooDeep(depth: parent.depth + 1, limit: limits.maximumDepth)
        }
        var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
        let normalized = try RealtimeDatabaseTree.normalized(value, at: parent, keysBelow: 1, limits: limits, placeholders: &placeholders)
        let location = RealtimeDatabasePath(validSegments: parent.segments + [childByAutoId()])
        commit([PendingWrite(location: location, value: normalized, placeholders: placeholders)])
        return location.segments[location.segments.count - 1]
    }

    /// Runs a transaction at `path` at once: `update` gets the current value and returns the
    /// new one (or `nil` to abort); when a concurrent write changed the value before it was
    /// stored, `update` runs again with the new value, up to
    /// `RealtimeDatabaseTransaction.maximumAttempts` times.
    ///
    /// `update` runs on the calling thread, outside the database's lock; the value is stored
    /// only if it is still the one `update` saw (an atomic compare-and-set), so concurrent
    /// transactions never lose an update. Observers are notified on the scheduler.
    /// - Throws: `RealtimeDatabaseError.transactionRetriesExhausted`, what `update` throws, or
    ///   the errors of `setValue(_:at:)` for the new value; nothing is written then.
    public func runTransaction(at path: String, update: (JSONValue) throws -> JSONValue?) throws -> RealtimeDatabaseTransactionResult {
        let location = try RealtimeDatabasePath(path, limits: limits)
        for _ in 0..<RealtimeDatabaseTransaction.maximumAttempts {
            let current = state.withLock { RealtimeDatabaseTree.value(at: location.segments[...], in: $0.root) }
            guard let proposed = try update(current) else {
                return RealtimeDatabaseTransactionResult(committed: false, value: current)
            }
            var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
            let normalized = try RealtimeDatabaseTree.normalized(proposed, at: location, limits: limits, placeholders: &placeholders)
            if let written = commit([PendingWrite(location: location, value: normalized, placeholders: placeholders)], expecting: (location, current)) {
                return RealtimeDatabaseTransactionResult(committed: true, value: written[0])
            }
        }
        throw RealtimeDatabaseError.transactionRetriesExhausted(path: path, attempts: RealtimeDatabaseTransaction.maximumAttempts)
    }

    // MARK: - RealtimeDatabase

    /// Runs a transaction at `path` when subscribed (see the synchronous
    /// `runTransaction(at:update:)`), then emits its outcome on the scheduler.
    ///
    /// - Returns: A `Single` of the outcome, or the synchronous form's error.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide>.
    public func runTransaction(at path: String, update: @escaping (JSONValue) throws -> JSONValue?) -> Single<RealtimeDatabaseTransactionResult> {
        Observable.create { [self] observer in
            if let error = connectivityError(writing: path) { return deliver(.error(error), to: observer) }
            do {
                let result: RealtimeDatabaseTransactionResult = try runTransaction(at: path, update: { try update($0) })
                return deliver(.next(result), to: observer)
            } catch {
                return deliver(.error(error), to: observer)
            }
        }.asSingle()
    }

    /// A new push ID, using the scheduler's clock for its time part. See ``PushIDGenerator``.
    public func childByAutoId() -> String {
        pushIDs.next(at: scheduler.now)
    }

    /// Observes the value at `path`: the current value first, then the value after every write
    /// that changes it.
    ///
    ///     writes (TestScheduler): @300 set x=1   @400 set x=1   @500 set y=2   @600 set x=2
    ///     observeValue(at: "x"):  201: v0        301: 1                        601: 2
    ///                             (subscribed at 200; v0 = the value then, .null if absent)
    ///
    /// - Returns: A sequence that never completes; it fails with
    ///   `RealtimeDatabaseError.invalidPath` for a bad path. Disposing it removes the listener
    ///   (`activeObserverCount` goes down at once).
    /// - Note: Delivers on the scheduler, one tick after the write on a `TestScheduler`. See
    ///   <doc:RealtimeDatabaseGuide>.
    public func observeValue(at path: String) -> Observable<JSONValue> {
        Observable.create { [self] observer in
            let location: RealtimeDatabasePath
            do {
                location = try RealtimeDatabasePath(path, limits: limits)
            } catch {
                return deliver(.error(error), to: observer)
            }
            guard let subscription = register(.value(observer), at: location) else {
                return deliver(.error(Self.offlineError), to: observer)
            }
            return subscription
        }
    }

    /// The value at `location` with the keys of the children each write touched: the current
    /// value first (keys unknown), then one change per write that changed it.
    func observeChanges(at location: RealtimeDatabasePath) -> Observable<RealtimeDatabaseLocationChange> {
        Observable.create { [self] observer in
            register(.changes(observer), at: location) ?? deliver(.error(Self.offlineError), to: observer)
        }
    }

    /// Registers an observation, schedules its first value and returns what removes it; `nil`
    /// (nothing registered) while `connectivity` is `.offline`.
    private func register(_ listener: Listener, at location: RealtimeDatabasePath) -> Disposable? {
        let registered = state.withLock { state -> (UInt64, Delivery)? in
            if state.connectivity == .offline { return nil }
            let id = state.nextObservationID
            state.nextObservationID += 1
            var observation = Observation(path: location, observer: listener)
            let token = observation.enqueue(RealtimeDatabaseTree.value(at: location.segments[...], in: state.root))
            state.observations[id] = observation
            return (id, Delivery(observation: id, token: token))
        }
        guard let (id, delivery) = registered else { return nil }
        schedule([delivery])
        return Disposables.create { [self] in removeObservation(id) }
    }

    /// Reads the value at `path` when subscribed, then emits it and completes.
    ///
    /// - Returns: One element (`.null` when absent) then completion, or
    ///   `RealtimeDatabaseError.invalidPath`.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide>.
    public func getValue(at path: String) -> Observable<JSONValue> {
        Observable.create { [self] observer in
            if let error = connectivityError(writing: nil) { return deliver(.error(error), to: observer) }
            do {
                return deliver(.next(try value(at: path)), to: observer)
            } catch {
                return deliver(.error(error), to: observer)
            }
        }
    }

    /// Performs `write` at once when subscribed, then emits `()` and completes on the scheduler
    /// (after the notifications the write caused were scheduled).
    ///
    /// - Returns: A cold sequence; it fails with a ``RealtimeDatabaseError`` (nothing written) for
    ///   an invalid write.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide>.
    public func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        Observable.create { [self] observer in
            if let error = connectivityError(writing: write.path) { return deliver(.error(error), to: observer) }
            do {
                switch write {
                case .setValue(let value, let path): try setValue(value, at: path)
                case .updateChildValues(let values, let path): try updateChildValues(values, at: path)
                case .removeValue(let path): try removeValue(at: path)
                }
                return deliver(.next(()), to: observer)
            } catch {
                return deliver(.error(error), to: observer)
            }
        }
    }

    // MARK: - Writing

    /// Applies normalized, non-overlapping writes in one critical section and schedules the
    /// resulting notifications after leaving it.
    ///
    /// The tree is changed in place (`RealtimeDatabaseTree.set`), and no copy of the old root
    /// is kept: only the old values of observations below a written location (to tell
    /// whether theirs changed), which lie inside replaced subtrees and so force no copy.
    ///
    /// With `expected`, the writes happen only if the value at that location still equals it
    /// (a transaction's compare-and-set); returns the written values (server values resolved),
    /// or `nil` when `expected` no longer held.
    @discardableResult
    private func commit(_ pending: [PendingWrite], expecting expected: (location: RealtimeDatabasePath, value: JSONValue)? = nil) -> [JSONValue]? {
        let now = pending.contains { !$0.placeholders.isEmpty } ? scheduler.now : Date(timeIntervalSince1970: 0)
        let outcome = state.withLock { state -> (written: [JSONValue], deliveries: [Delivery])? in
            if let expected, RealtimeDatabaseTree.value(at: expected.location.segments[...], in: state.root) != expected.value {
                return nil
            }
            // Server values resolve against the tree as it is now, in the same critical section
            // as the write (so concurrent increments never lose one).
            let writes = pending.map { write -> (RealtimeDatabasePath, JSONValue) in
                var value = write.value
                RealtimeDatabaseServerValue.resolve(write.placeholders, in: &value, writtenAt: write.location, root: state.root, now: now)
                return (write.location, value)
            }
            var overwritten: [UInt64: JSONValue] = [:]
            for (id, observation) in state.observations
            where writes.contains(where: { $0.0.isAncestor(ofOrEqualTo: observation.path) && $0.0 != observation.path }) {
                overwritten[id] = RealtimeDatabaseTree.value(at: observation.path.segments[...], in: state.root)
            }
            var changed: [RealtimeDatabasePath] = []
            for (location, value) in writes {
                if RealtimeDatabaseTree.value(at: location.segments[...], in: state.root) == value { continue }
                RealtimeDatabaseTree.set(value, at: location.segments[...], in: &state.root)
                changed.append(location)
            }
            let written = writes.map(\.1)
            guard !changed.isEmpty else { return (written, []) }
            var deliveries: [Delivery] = []
            for id in state.observations.keys.sorted() {
                guard let index = state.observations.index(forKey: id) else { continue }
                let path = state.observations.values[index].path
                let affected: Bool
                if changed.contains(where: { path.isAncestor(ofOrEqualTo: $0) }) {
                    // The value at `path` contains the value at a changed location, so it changed.
                    affected = true
                } else if let old = overwritten[id], changed.contains(where: { $0.isAncestor(ofOrEqualTo: path) }) {
                    // Overwritten from above: changed only if this part of the subtree differs.
                    affected = old != RealtimeDatabaseTree.value(at: path.segments[...], in: state.root)
                } else {
                    affected = false
                }
                guard affected else { continue }
                let keys = state.observations.values[index].observer.wantsChangedKeys ? Self.changedKeys(below: path, changed) : nil
                let token = state.observations.values[index].enqueue(RealtimeDatabaseTree.value(at: path.segments[...], in: state.root), changedKeys: keys)
                deliveries.append(Delivery(observation: id, token: token))
            }
            return (written, deliveries)
        }
        guard let outcome else { return nil }
        schedule(outcome.deliveries)
        return outcome.written
    }

    /// The keys of the children of `path` that the writes at `changed` touched, or `nil` when
    /// one of them is at or above `path` (any child may have changed).
    private static func changedKeys(below path: RealtimeDatabasePath, _ changed: [RealtimeDatabasePath]) -> Set<String>? {
        var keys = Set<String>()
        for location in changed {
            if location.isAncestor(ofOrEqualTo: path) { return nil }
            if path.isAncestor(ofOrEqualTo: location) { keys.insert(location.segments[path.segments.count]) }
        }
        return keys
    }

    // MARK: - Delivering

    /// Schedules one delivery action per queued value and remembers it so that disposing the
    /// observation cancels it.
    private func schedule(_ deliveries: [Delivery]) {
        for delivery in deliveries {
            let scheduled = scheduler.schedule(delivery) { [self] delivery in
                deliverNext(delivery)
                return Disposables.create()
            }
            let orphaned = state.withLock { state -> Bool in
                guard let index = state.observations.index(forKey: delivery.observation) else { return true }
                if state.observations.values[index].scheduled[delivery.token] != nil {
                    state.observations.values[index].scheduled[delivery.token] = scheduled
                }
                return false
            }
            if orphaned { scheduled.dispose() }
        }
    }

    /// Runs on the scheduler: delivers one queued value to the observation.
    ///
    /// If another delivery to the same observation is in progress (a reentrant call from an
    /// immediate scheduler, or a concurrent scheduler), the value is left for that one, which
    /// delivers it after its current `onNext` returns: values are never delivered concurrently
    /// nor out of order.
    private func deliverNext(_ delivery: Delivery) {
        let id = delivery.observation
        let begin = state.withLock { state -> Bool in
            guard let index = state.observations.index(forKey: id) else { return false }
            state.observations.values[index].scheduled[delivery.token] = nil
            state.observations.values[index].owed += 1
            if state.observations.values[index].isDelivering { return false }
            state.observations.values[index].isDelivering = true
            return true
        }
        guard begin else { return }
        while true {
            let next = state.withLock { state -> (Listener, RealtimeDatabaseLocationChange)? in
                guard let index = state.observations.index(forKey: id) else { return nil }
                return state.observations.values[index].dequeue()
            }
            guard let (observer, value) = next else { return }
            observer.onNext(value)
        }
    }

    /// Schedules a single `next` (followed by completion) or `error` to `observer`.
    func deliver<Element>(_ event: Event<Element>, to observer: AnyObserver<Element>) -> Disposable {
        scheduler.schedule(event) { event in
            observer.on(event)
            if case .next = event { observer.onCompleted() }
            return Disposables.create()
        }
    }

    private func removeObservation(_ id: UInt64) {
        let removed = state.withLock { $0.observations.removeValue(forKey: id) }
        // Cancel its pending deliveries and release the observer outside the lock.
        removed?.scheduled.values.forEach { $0.dispose() }
    }
}

extension InMemoryRealtimeDatabase {
    /// A validated write, with the server values it holds (resolved when it is committed).
    private struct PendingWrite {
        let location: RealtimeDatabasePath
        let value: JSONValue
        let placeholders: [RealtimeDatabaseServerValue.Placeholder]
    }

    private struct State {
        var root: JSONValue = .null
        var connectivity = InMemoryRealtimeDatabaseConnectivity.online
        var observations: [UInt64: Observation] = [:]
        var nextObservationID: UInt64 = 0
    }

    /// One scheduled delivery: which observation, and which scheduled action.
    private struct Delivery {
        let observation: UInt64
        let token: UInt64
    }

    /// Who receives an observation's values: an `observeValue` observer, or an index of a
    /// query's children, which also wants the keys of the children each write touched.
    private enum Listener {
        case value(AnyObserver<JSONValue>)
        case changes(AnyObserver<RealtimeDatabaseLocationChange>)

        var wantsChangedKeys: Bool {
            if case .changes = self { return true } else { return false }
        }

        func onError(_ error: Error) {
            switch self {
            case .value(let observer): observer.onError(error)
            case .changes(let observer): observer.onError(error)
            }
        }

        func onNext(_ change: RealtimeDatabaseLocationChange) {
            switch self {
            case .value(let observer): observer.onNext(change.value)
            case .changes(let observer): observer.onNext(change)
            }
        }
    }

    /// A registered observation (`observeValue`, or a query's child index) and its queue of
    /// values not yet delivered.
    private struct Observation {
        let path: RealtimeDatabasePath
        let observer: Listener
        /// Values in write order, not delivered yet.
        var queue = FIFOQueue<RealtimeDatabaseLocationChange>()
        /// Delivery actions that have run but whose value is not delivered yet.
        var owed = 0
        var isDelivering = false
        /// Actions scheduled and not yet run, by token (a placeholder until `schedule` returns).
        var scheduled: [UInt64: Disposable] = [:]
        var nextToken: UInt64 = 0

        init(path: RealtimeDatabasePath, observer: Listener) {
            self.path = path
            self.observer = observer
        }

        /// Queues `value` and returns the token of the action that will deliver it.
        mutating func enqueue(_ value: JSONValue, changedKeys: Set<String>? = nil) -> UInt64 {
            queue.append(RealtimeDatabaseLocationChange(value: value, changedKeys: changedKeys))
            let token = nextToken
            nextToken += 1
            scheduled[token] = Disposables.create()
            return token
        }

        /// The next value to deliver, or `nil` (ending the delivery role) when none is owed.
        mutating func dequeue() -> (Listener, RealtimeDatabaseLocationChange)? {
            guard owed > 0, !queue.isEmpty else {
                isDelivering = false
                return nil
            }
            owed -= 1
            return (observer, queue.popFirst()!)
        }
    }
}

/// The simulated connectivity of an ``InMemoryRealtimeDatabase`` (its `connectivity`), so that
/// clients and view models can be tested offline, reconnecting, and refused, in virtual time.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum InMemoryRealtimeDatabaseConnectivity: Sendable, Equatable {
    /// Requests work (the default).
    case online
    /// Every request through the observable API fails with `RealtimeDatabaseError.network`,
    /// and live observations fail with it when this is set (a dropped connection).
    case offline
    /// Reads work; every write (`perform`, the observable writes, `runTransaction`) fails with
    /// `error`, or with `RealtimeDatabaseError.permissionDenied` at the written path when
    /// `error` is `nil` (the security rules refusing it).
    case rejectingWrites(RealtimeDatabaseError? = nil)
}
