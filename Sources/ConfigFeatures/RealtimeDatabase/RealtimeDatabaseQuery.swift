/// A Realtime Database query: the children of one location, in an order, within a range, up to a
/// limit (Firebase's `DatabaseQuery`).
///
///     let latest = database.query(at: "Groups/g1").ordered(byChild: "time").limited(toLast: 50)
///     database.observeValue(of: latest)        // the last 50 comments, as one value
///     database.observeChildEvents(of: latest)  // .added × 50, then one event per change
///
/// A query is a plain value: the builders return a changed copy and never throw. A combination
/// Firebase rejects (two orders, two limits, a filter without an order, a start or end set twice,
/// a non-string bound when ordering by key, an object as a bound, a limit below 1, an invalid
/// child path) is kept as the query's `problem`; every read of the query then fails with
/// `RealtimeDatabaseError.invalidQuery`, and `validate()` throws it at once.
///
/// Ordering follows Firebase exactly (see ``RealtimeDatabaseOrdering``): by key, keys that are
/// 32-bit integers first (numerically), then the others by UTF-16 code units; by value or by a
/// child, `null` < `false` < `true` < numbers < strings < objects, ties broken by key. Without an
/// order a query is ordered by key and may not filter. Priorities are not supported.
/// See <doc:RealtimeDatabaseGuide#Queries>.
public struct RealtimeDatabaseQuery: Sendable, Hashable, CustomStringConvertible {
    /// How a query orders the children of its location.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Order: Sendable, Hashable {
        /// By key (`queryOrderedByKey`, REST `orderBy="$key"`).
        case byKey
        /// By the child's own value (`queryOrderedByValue`, REST `orderBy="$value"`).
        case byValue
        /// By the value at a path below each child (`queryOrdered(byChild:)`, REST
        /// `orderBy="path"`); a child without it sorts as `null`.
        case byChild(String)
    }

    /// One end of a query's range: children from (or up to) `value`, and among children whose
    /// order value equals it, from (or up to) `childKey`.
    public struct Bound: Sendable, Hashable {
        /// The order value of the bound (a key string when ordering by key).
        public let value: JSONValue
        /// The key that breaks ties among children whose order value equals `value`.
        public let childKey: String?
        /// Whether a child exactly at the bound is included (`at`) or not (`after`/`before`).
        public let isInclusive: Bool

        /// Creates a bound.
        public init(value: JSONValue, childKey: String? = nil, isInclusive: Bool = true) {
            self.value = value
            self.childKey = childKey
            self.isInclusive = isInclusive
        }
    }

    /// How many children a query keeps, and from which end of its order.
    ///
    /// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
    public enum Limit: Sendable, Hashable {
        /// The first `n` children (`queryLimited(toFirst:)`, REST `limitToFirst`).
        case first(Int)
        /// The last `n` children (`queryLimited(toLast:)`, REST `limitToLast`).
        case last(Int)
    }

    /// The queried location, as given.
    public let path: String
    /// The order, `nil` for the default (by key, without filters).
    public private(set) var order: Order?
    /// The start of the range (`starting(at:)`, `starting(after:)`, `equal(to:)`).
    public private(set) var start: Bound?
    /// The end of the range (`ending(at:)`, `ending(before:)`, `equal(to:)`).
    public private(set) var end: Bound?
    /// The limit (`limited(toFirst:)`, `limited(toLast:)`).
    public private(set) var limit: Limit?
    /// Why the query is invalid (the first rejected builder call), `nil` while it is valid as
    /// far as the builders can tell; `validate()` also checks the combination.
    public private(set) var problem: String?

    /// A query of every child of `path`, by key (a location with no order or filter yet).
    public init(path: String) {
        self.path = path
    }

    // MARK: - Ordering

    /// Orders the children by the value at `childPath` below each (`queryOrdered(byChild:)`).
    public func ordered(byChild childPath: String) -> RealtimeDatabaseQuery {
        if ["$key", "$value", "$priority"].contains(childPath) {
            return rejected("ordered(byChild:): \"\(childPath)\" is not a child path; use orderedByKey() or orderedByValue()")
        }
        if childPath.isEmpty || childPath == "/" {
            return rejected("ordered(byChild:): the child path is empty")
        }
        if let error = Self.pathProblem(childPath) {
            return rejected("ordered(byChild:): \(error)")
        }
        return ordered(.byChild(childPath), by: "ordered(byChild:)")
    }

    /// Orders the children by key (`queryOrderedByKey()`).
    public func orderedByKey() -> RealtimeDatabaseQuery {
        ordered(.byKey, by: "orderedByKey()")
    }

    /// Orders the children by their own value (`queryOrderedByValue()`).
    public func orderedByValue() -> RealtimeDatabaseQuery {
        ordered(.byValue, by: "orderedByValue()")
    }

    // MARK: - Limits

    /// Keeps the first `limit` children in the query's order (`queryLimited(toFirst:)`).
    public func limited(toFirst limit: Int) -> RealtimeDatabaseQuery {
        limited(.first(limit), by: "limited(toFirst:)", count: limit)
    }

    /// Keeps the last `limit` children in the query's order (`queryLimited(toLast:)`).
    public func limited(toLast limit: Int) -> RealtimeDatabaseQuery {
        limited(.last(limit), by: "limited(toLast:)", count: limit)
    }

    // MARK: - Ranges

    /// Keeps children from `value` on, inclusive (`queryStarting(atValue:childKey:)`); among
    /// children whose order value equals `value`, those from `childKey` on.
    public func starting(at value: JSONValue, childKey: String? = nil) -> RealtimeDatabaseQuery {
        bounded(start: Bound(value: value, childKey: childKey, isInclusive: true), by: "starting(at:)")
    }

    /// Keeps children after `value`, exclusive (`queryStarting(afterValue:childKey:)`); with
    /// `childKey`, children whose order value equals `value` and whose key follows `childKey`.
    public func starting(after value: JSONValue, childKey: String? = nil) -> RealtimeDatabaseQuery {
        bounded(start: Bound(value: value, childKey: childKey, isInclusive: false), by: "starting(after:)")
    }

    /// Keeps children up to `value`, inclusive (`queryEnding(atValue:childKey:)`); among
    /// children whose order value equals `value`, those up to `childKey`.
    public func ending(at value: JSONValue, childKey: String? = nil) -> RealtimeDatabaseQuery {
        bounded(end: Bound(value: value, childKey: childKey, isInclusive: true), by: "ending(at:)")
    }

    /// Keeps children before `value`, exclusive (`queryEnding(beforeValue:childKey:)`); with
    /// `childKey`, children whose order value equals `value` and whose key precedes `childKey`.
    public func ending(before value: JSONValue, childKey: String? = nil) -> RealtimeDatabaseQuery {
        bounded(end: Bound(value: value, childKey: childKey, isInclusive: false), by: "ending(before:)")
    }

    /// Keeps children whose order value is `value` (and, with `childKey`, only that child)
    /// (`queryEqual(toValue:childKey:)`): a start and an end at the same bound.
    public func equal(to value: JSONValue, childKey: String? = nil) -> RealtimeDatabaseQuery {
        if start != nil { return rejected("equal(to:): a start was already set (by starting(at:), starting(after:) or equal(to:))") }
        if end != nil { return rejected("equal(to:): an end was already set (by ending(at:), ending(before:) or equal(to:))") }
        let bound = Bound(value: value, childKey: childKey, isInclusive: true)
        return bounded(start: bound, by: "equal(to:)").bounded(end: bound, by: "equal(to:)")
    }

    // MARK: - Validation

    /// Whether the query reads every child (no range and no limit): its value is then the
    /// location's whole value, and its order only matters for the order of children.
    public var readsAllChildren: Bool { start == nil && end == nil && limit == nil }

    /// Checks the query as a whole (Firebase's rules for its combination of order and filters).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidQuery` with the reason, or the error of an
    ///   invalid `path` (`invalidPath`, `pathTooDeep`, `keyTooLong`).
    public func validate(limits: RealtimeDatabaseLimits = .firebase) throws(RealtimeDatabaseError) {
        _ = try resolved(limits: limits)
    }

    /// The query with its path and child path parsed, ready to evaluate.
    package func resolved(limits: RealtimeDatabaseLimits = .firebase) throws(RealtimeDatabaseError) -> ResolvedRealtimeDatabaseQuery {
        let location: RealtimeDatabasePath
        do {
            location = try RealtimeDatabasePath(path, limits: limits)
        } catch let error as RealtimeDatabaseError {
            throw error
        } catch {
            throw .invalidPath(path, reason: "\(error)")
        }
        if let problem { throw .invalidQuery(description, reason: problem) }
        if let reason = combinationProblem { throw .invalidQuery(description, reason: reason) }
        let order: ResolvedRealtimeDatabaseQuery.Order
        switch self.order {
        case nil, .byKey?: order = .byKey
        case .byValue?: order = .byValue
        case .byChild(let childPath)?:
            do {
                order = .byChild(try RealtimeDatabasePath(childPath, limits: limits).segments)
            } catch {
                throw .invalidQuery(description, reason: "ordered(byChild:): \(error)")
            }
        }
        return ResolvedRealtimeDatabaseQuery(query: self, location: location, order: order)
    }

    /// Why the combination of order and filters is invalid, checked once the query is used
    /// (the order may be set after the filters, as in Firebase).
    private var combinationProblem: String? {
        let bounds = [start, end].compactMap { $0 }
        if order == nil && !bounds.isEmpty {
            return "a range needs an order: call ordered(byChild:), orderedByKey() or orderedByValue() first (priorities are not supported)"
        }
        switch order {
        case .byKey?:
            for bound in bounds {
                if bound.childKey != nil {
                    return "when ordering by key, a bound takes no child key (the key is the bound)"
                }
                guard case .string = bound.value else {
                    return "when ordering by key, a bound must be a string, not \(bound.value.serialized())"
                }
            }
        case .byValue?, .byChild?:
            for bound in bounds {
                switch bound.value {
                case .array, .object: return "a bound cannot be an object or array (\(bound.value.serialized()))"
                case .number(let number) where !number.isFinite: return "a bound must be a finite number"
                default: break
                }
            }
        case nil:
            break
        }
        for key in bounds.compactMap(\.childKey) where key.isEmpty || RealtimeDatabasePath.problem(withKey: key) != nil {
            return "the child key \"\(key)\" of a bound is not a valid key"
        }
        return nil
    }

    /// A readable description, e.g. `Groups/g1 ordered(byChild: time) limited(toLast: 50)`.
    public var description: String {
        var parts = [path.isEmpty ? "/" : path]
        switch order {
        case .byKey?: parts.append("orderedByKey()")
        case .byValue?: parts.append("orderedByValue()")
        case .byChild(let child)?: parts.append("ordered(byChild: \(child))")
        case nil: break
        }
        func bound(_ call: String, _ bound: Bound) -> String {
            "\(call): \(bound.value.serialized())\(bound.childKey.map { ", childKey: \($0)" } ?? ""))"
        }
        if let start, let end, start == end, start.isInclusive {
            parts.append(bound("equal(to", start))
        } else {
            if let start { parts.append(bound(start.isInclusive ? "starting(at" : "starting(after", start)) }
            if let end { parts.append(bound(end.isInclusive ? "ending(at" : "ending(before", end)) }
        }
        switch limit {
        case .first(let n)?: parts.append("limited(toFirst: \(n))")
        case .last(let n)?: parts.append("limited(toLast: \(n))")
        case nil: break
        }
        return parts.joined(separator: " ")
    }

    // MARK: - Building

    private func rejected(_ reason: String) -> RealtimeDatabaseQuery {
        var copy = self
        if copy.problem == nil { copy.problem = reason }
        return copy
    }

    private func ordered(_ order: Order, by call: String) -> RealtimeDatabaseQuery {
        if self.order != nil { return rejected("\(call): the query is already ordered; orders cannot be combined") }
        var copy = self
        copy.order = order
        return copy
    }

    private func limited(_ limit: Limit, by call: String, count: Int) -> RealtimeDatabaseQuery {
        if count < 1 { return rejected("\(call): the limit must be a positive integer, not \(count)") }
        if self.limit != nil { return rejected("\(call): a limit was already set (by limited(toFirst:) or limited(toLast:))") }
        var copy = self
        copy.limit = limit
        return copy
    }

    private func bounded(start: Bound? = nil, end: Bound? = nil, by call: String) -> RealtimeDatabaseQuery {
        var copy = self
        if let start {
            if self.start != nil { return rejected("\(call): a start was already set (by starting(at:), starting(after:) or equal(to:))") }
            copy.start = start
        }
        if let end {
            if self.end != nil { return rejected("\(call): an end was already set (by ending(at:), ending(before:) or equal(to:))") }
            copy.end = end
        }
        return copy
    }

    private static func pathProblem(_ path: String) -> String? {
        do {
            _ = try RealtimeDatabasePath(path)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

extension RealtimeDatabase {
    /// A query of the children of `path`, to narrow with `ordered(byChild:)`, `limited(toLast:)`
    /// and the other builders, and read with `observeValue(of:)` or `observeChildEvents(of:)`
    /// (Firebase's `DatabaseReference` used as a query).
    public func query(at path: String) -> RealtimeDatabaseQuery {
        RealtimeDatabaseQuery(path: path)
    }
}
