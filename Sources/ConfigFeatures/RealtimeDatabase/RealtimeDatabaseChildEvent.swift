/// A change to the children a query selects (Firebase's `childAdded`, `childChanged`,
/// `childRemoved` and `childMoved` events).
///
/// `previousKey` is the key of the child just before this one in the query's order after the
/// change (`nil` for the first), as Firebase's `andPreviousSiblingKeyWith:` gives it.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum RealtimeDatabaseChildEvent: Sendable, Hashable, CustomStringConvertible {
    /// A child entered the query (written, or moved into its range or limit window).
    case added(key: String, value: JSONValue, previousKey: String?)
    /// A child the query selects has a new value.
    case changed(key: String, value: JSONValue, previousKey: String?)
    /// A child left the query (deleted, or moved out of its range or limit window); `value` is
    /// its last value.
    case removed(key: String, value: JSONValue)
    /// A child's order value changed (it may have a new place); raised before its `changed`.
    case moved(key: String, value: JSONValue, previousKey: String?)

    /// The child's key.
    public var key: String {
        switch self {
        case .added(let key, _, _), .changed(let key, _, _), .removed(let key, _), .moved(let key, _, _): return key
        }
    }

    /// The child's value (the last one, for `removed`).
    public var value: JSONValue {
        switch self {
        case .added(_, let value, _), .changed(_, let value, _), .removed(_, let value), .moved(_, let value, _): return value
        }
    }

    /// A compact description, e.g. `added c3 after c2: {"text":"hi"}`.
    public var description: String {
        func after(_ key: String?) -> String { key.map { " after \($0)" } ?? " first" }
        switch self {
        case .added(let key, let value, let previous): return "added \(key)\(after(previous)): \(value.serialized())"
        case .changed(let key, let value, let previous): return "changed \(key)\(after(previous)): \(value.serialized())"
        case .removed(let key, let value): return "removed \(key): \(value.serialized())"
        case .moved(let key, let value, let previous): return "moved \(key)\(after(previous)): \(value.serialized())"
        }
    }
}

extension ResolvedRealtimeDatabaseQuery {
    /// The child events that turn the selection `old` into `new` (both in the query's order),
    /// in Firebase's order: every `removed` (in the old order), then `added`, `moved` and
    /// `changed` (each in the new order, with the previous key in `new`).
    ///
    /// - Complexity: O(n) in the number of children of `old` and `new`.
    package func childEvents(from old: [RealtimeDatabaseChild], to new: [RealtimeDatabaseChild]) -> [RealtimeDatabaseChildEvent] {
        if old == new { return [] }
        var oldValues: [String: JSONValue] = [:]
        oldValues.reserveCapacity(old.count)
        for child in old { oldValues[child.key] = child.value }
        var newKeys = Set<String>()
        newKeys.reserveCapacity(new.count)
        for child in new { newKeys.insert(child.key) }

        var events: [RealtimeDatabaseChildEvent] = []
        for child in old where !newKeys.contains(child.key) {
            events.append(.removed(key: child.key, value: child.value))
        }
        var added: [RealtimeDatabaseChildEvent] = []
        var moved: [RealtimeDatabaseChildEvent] = []
        var changed: [RealtimeDatabaseChildEvent] = []
        var previousKey: String?
        for child in new {
            defer { previousKey = child.key }
            guard let oldValue = oldValues[child.key] else {
                added.append(.added(key: child.key, value: child.value, previousKey: previousKey))
                continue
            }
            guard oldValue != child.value else { continue }
            if orderValueChanged(from: oldValue, to: child.value) {
                moved.append(.moved(key: child.key, value: child.value, previousKey: previousKey))
            }
            changed.append(.changed(key: child.key, value: child.value, previousKey: previousKey))
        }
        return events + added + moved + changed
    }
}

extension ObservableType {
    /// Emits, one by one and in order, the child events each element carries (the events of
    /// one change), passing errors and completion through.
    func emittingChildEvents(_ events: @escaping (Element) -> [RealtimeDatabaseChildEvent]) -> Observable<RealtimeDatabaseChildEvent> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element): for childEvent in events(element) { observer.onNext(childEvent) }
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
