/// A change to the value at an observed location, with the children it touched when known.
package struct RealtimeDatabaseLocationChange: Sendable, Equatable {
    /// The value at the location after the change.
    package let value: JSONValue
    /// The keys of the only children the change may have touched, or `nil` when any child may
    /// have changed (the first value, a write at or above the location).
    package let changedKeys: Set<String>?

    /// A change to `value`, touching the children `changedKeys` (`nil`: any).
    package init(value: JSONValue, changedKeys: Set<String>?) {
        self.value = value
        self.changedKeys = changedKeys
    }
}

/// The children of one location that a query selects, kept up to date change by change.
///
/// It holds every child within the query's range, in the query's order, and the current
/// selection (the range cut to the limit). A change that names the children it touched costs a
/// binary search per touched child plus a diff of the limit window — O(k log n + window) for
/// k touched children of n — instead of the O(n log n) of evaluating the query again; a new
/// child at the end of the order (a new comment ordered by time or push key) is an append.
/// A change without keys rebuilds the index (O(n log n)).
package struct RealtimeDatabaseChildIndex {
    package let query: ResolvedRealtimeDatabaseQuery
    /// The value of every child within the range, by key.
    private var values: [String: JSONValue] = [:]
    /// The children within the range, in the query's order.
    private var ordered: [RealtimeDatabaseChild] = []
    /// What the query selects: `ordered` cut to the limit.
    package private(set) var selection: [RealtimeDatabaseChild] = []

    /// An empty index for `query` (the first change fills it).
    package init(query: ResolvedRealtimeDatabaseQuery) {
        self.query = query
    }

    /// Applies `change` and returns the child events that turn the previous selection into the
    /// new one (Firebase's order; see `ResolvedRealtimeDatabaseQuery.childEvents(from:to:)`).
    package mutating func apply(_ change: RealtimeDatabaseLocationChange) -> [RealtimeDatabaseChildEvent] {
        guard let keys = change.changedKeys else {
            let old = selection
            rebuild(from: change.value)
            return query.childEvents(from: old, to: selection)
        }
        if query.query.limit == nil {
            return applyUnlimited(keys, in: change.value)
        }
        let old = selection
        for key in keys { update(key, to: Self.child(key, of: change.value)) }
        selection = window()
        return query.childEvents(from: old, to: selection)
    }

    // MARK: - Index

    private mutating func rebuild(from value: JSONValue) {
        ordered = query.childrenInRange(of: value)
        values = Dictionary(ordered.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        selection = window()
    }

    /// Moves the child `key` to its new value (`.null`: deleted) in `ordered`.
    /// - Returns: The old value in the range, if any, and whether the new one is in it.
    @discardableResult
    private mutating func update(_ key: String, to value: JSONValue) -> (old: JSONValue?, isInRange: Bool) {
        let old = values[key]
        if let old, old == value { return (old, true) }
        if let old {
            let index = position(of: RealtimeDatabaseChild(key: key, value: old))
            ordered.remove(at: index)
            values[key] = nil
        }
        let child = RealtimeDatabaseChild(key: key, value: value)
        guard value != .null, query.isInRange(child) else { return (old, false) }
        ordered.insert(child, at: position(of: child))
        values[key] = value
        return (old, true)
    }

    /// The index of `child` in `ordered`, or where it belongs (binary search; the last place
    /// is checked first, as new children usually come last).
    private func position(of child: RealtimeDatabaseChild) -> Int {
        if let last = ordered.last, query.compare(last, child) < 0 { return ordered.count }
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if query.compare(ordered[middle], child) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func window() -> [RealtimeDatabaseChild] {
        switch query.query.limit {
        case .first(let count)?: return Array(ordered.prefix(count))
        case .last(let count)?: return Array(ordered.suffix(count))
        case nil: return ordered
        }
    }

    // MARK: - Without a limit

    /// A query without a limit selects its whole range: only the touched children can enter,
    /// leave, move or change, so the events come from them alone (O(k log n)).
    private mutating func applyUnlimited(_ keys: Set<String>, in value: JSONValue) -> [RealtimeDatabaseChildEvent] {
        var removed: [RealtimeDatabaseChild] = []
        var present: [(key: String, old: JSONValue?)] = []
        for key in keys {
            let new = Self.child(key, of: value)
            let (old, isInRange) = update(key, to: new)
            if old == new { continue }
            if isInRange {
                present.append((key, old))
            } else if let old {
                removed.append(RealtimeDatabaseChild(key: key, value: old))
            }
        }
        selection = ordered
        if removed.isEmpty && present.isEmpty { return [] }
        removed.sort { query.compare($0, $1) < 0 }
        var events = removed.map { RealtimeDatabaseChildEvent.removed(key: $0.key, value: $0.value) }
        var placed = present.map { entry -> (index: Int, old: JSONValue?) in
            (position(of: RealtimeDatabaseChild(key: entry.key, value: values[entry.key] ?? .null)), entry.old)
        }
        placed.sort { $0.index < $1.index }
        var moved: [RealtimeDatabaseChildEvent] = []
        var changed: [RealtimeDatabaseChildEvent] = []
        for (index, old) in placed {
            let child = ordered[index]
            let previousKey = index > 0 ? ordered[index - 1].key : nil
            guard let old else {
                events.append(.added(key: child.key, value: child.value, previousKey: previousKey))
                continue
            }
            if query.orderValueChanged(from: old, to: child.value) {
                moved.append(.moved(key: child.key, value: child.value, previousKey: previousKey))
            }
            changed.append(.changed(key: child.key, value: child.value, previousKey: previousKey))
        }
        return events + moved + changed
    }

    /// The child `key` of `value` (array elements are keyed by index), `.null` when absent.
    private static func child(_ key: String, of value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return members[key] ?? .null
        case .array(let elements):
            guard let index = Int(key), String(index) == key, elements.indices.contains(index) else { return .null }
            return elements[index]
        default: return .null
        }
    }
}
