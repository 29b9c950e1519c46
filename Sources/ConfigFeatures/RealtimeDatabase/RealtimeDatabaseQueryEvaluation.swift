/// One child of a Realtime Database location: its key and value (Firebase's child
/// `DataSnapshot`).
public struct RealtimeDatabaseChild: Sendable, Hashable, CustomStringConvertible {
    /// The child's key.
    public let key: String
    /// The child's value (never `.null`: absent children are not listed).
    public let value: JSONValue

    /// Creates a child.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }

    /// `key: value` in JSON.
    public var description: String { "\(key): \(value.serialized())" }
}

extension RealtimeDatabaseQuery {
    /// The children of `value` (the value at the query's location) that the query selects, in
    /// the query's order.
    ///
    /// A leaf value (or `.null`) has no children. Array elements are children keyed `"0"`,
    /// `"1"`, …, as Firebase stores arrays.
    /// - Complexity: O(n log n) in the number of children.
    /// - Throws: `RealtimeDatabaseError.invalidQuery` (or a path error) for an invalid query.
    public func children(of value: JSONValue) throws(RealtimeDatabaseError) -> [RealtimeDatabaseChild] {
        try resolved().children(of: value)
    }

    /// The value the query selects from `value` (the value at the query's location): an object
    /// of the selected children (`.null` when none), or `value` itself when the query reads
    /// every child (Firebase's value event for the query).
    /// - Throws: `RealtimeDatabaseError.invalidQuery` (or a path error) for an invalid query.
    public func result(of value: JSONValue) throws(RealtimeDatabaseError) -> JSONValue {
        try resolved().result(of: value)
    }
}

/// A validated query, with its location and child path parsed: evaluates the query on a value.
package struct ResolvedRealtimeDatabaseQuery: Sendable, Hashable {
    /// The parsed order.
    package enum Order: Sendable, Hashable {
        case byKey
        case byValue
        case byChild([String])
    }

    /// The query as built.
    package let query: RealtimeDatabaseQuery
    /// The queried location.
    package let location: RealtimeDatabasePath
    /// The order (by key when the query has none).
    package let order: Order

    /// A bound's key part: below every key, a key, or above every key.
    private enum Name {
        case min
        case key(String)
        case max

        func compare(_ key: String) -> Int {
            switch self {
            case .min: return -1
            case .max: return 1
            case .key(let name): return RealtimeDatabaseOrdering.compareKeys(name, key)
            }
        }
    }

    /// See `RealtimeDatabaseQuery.result(of:)`.
    package func result(of value: JSONValue) -> JSONValue {
        if query.readsAllChildren { return value }
        let selected = children(of: value)
        if selected.isEmpty { return .null }
        return .object(Dictionary(selected.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// See `RealtimeDatabaseQuery.children(of:)`.
    package func children(of value: JSONValue) -> [RealtimeDatabaseChild] {
        var children = childrenInRange(of: value)
        switch query.limit {
        case .first(let count)?: if children.count > count { children.removeLast(children.count - count) }
        case .last(let count)?: if children.count > count { children.removeFirst(children.count - count) }
        case nil: break
        }
        return children
    }

    /// The children of `value` within the query's range, in its order (before the limit).
    package func childrenInRange(of value: JSONValue) -> [RealtimeDatabaseChild] {
        var children: [RealtimeDatabaseChild]
        switch value {
        case .object(let members):
            children = members.compactMap { $0.value == .null ? nil : RealtimeDatabaseChild(key: $0.key, value: $0.value) }
        case .array(let elements):
            children = elements.enumerated().compactMap { $0.element == .null ? nil : RealtimeDatabaseChild(key: String($0.offset), value: $0.element) }
        default:
            return []
        }
        if query.start != nil || query.end != nil {
            children.removeAll { !isInRange($0) }
        }
        children.sort { compare($0, $1) < 0 }
        return children
    }

    /// The value a child is ordered by (its key is the tie-break).
    package func orderValue(of value: JSONValue) -> JSONValue {
        switch order {
        case .byKey: return .null
        case .byValue: return value
        case .byChild(let path): return RealtimeDatabaseTree.value(at: path[...], in: value)
        }
    }

    /// Whether a change of a child's value from `old` to `new` changes its place in the order
    /// (Firebase then raises `childMoved` besides `childChanged`).
    package func orderValueChanged(from old: JSONValue, to new: JSONValue) -> Bool {
        switch order {
        case .byKey: return false
        case .byValue, .byChild: return orderValue(of: old) != orderValue(of: new)
        }
    }

    /// Compares two children in the query's order: negative, zero or positive.
    package func compare(_ a: RealtimeDatabaseChild, _ b: RealtimeDatabaseChild) -> Int {
        if case .byKey = order { return RealtimeDatabaseOrdering.compareKeys(a.key, b.key) }
        let byValue = RealtimeDatabaseOrdering.compareValues(orderValue(of: a.value), orderValue(of: b.value))
        return byValue != 0 ? byValue : RealtimeDatabaseOrdering.compareKeys(a.key, b.key)
    }

    /// Whether `child` lies within the query's range (start and end bounds).
    package func isInRange(_ child: RealtimeDatabaseChild) -> Bool {
        if let start = query.start {
            // A start bound without a key sits before (at) or after (after) every key at its value.
            let name: Name = start.childKey.map(Name.key) ?? (start.isInclusive ? .min : .max)
            let comparison = compare(bound: start, name: name, with: child)
            if start.isInclusive ? comparison > 0 : comparison >= 0 { return false }
        }
        if let end = query.end {
            let name: Name = end.childKey.map(Name.key) ?? (end.isInclusive ? .max : .min)
            let comparison = compare(bound: end, name: name, with: child)
            if end.isInclusive ? comparison < 0 : comparison <= 0 { return false }
        }
        return true
    }

    /// Compares a bound (its value and key part) with a child: negative when the bound comes
    /// first.
    private func compare(bound: RealtimeDatabaseQuery.Bound, name: Name, with child: RealtimeDatabaseChild) -> Int {
        if case .byKey = order {
            guard case .string(let key) = bound.value else { return -1 }
            return RealtimeDatabaseOrdering.compareKeys(key, child.key)
        }
        let byValue = RealtimeDatabaseOrdering.compareValues(bound.value, orderValue(of: child.value))
        return byValue != 0 ? byValue : name.compare(child.key)
    }
}
