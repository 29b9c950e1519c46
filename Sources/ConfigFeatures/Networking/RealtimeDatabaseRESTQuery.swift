/// The REST API's query parameters for a ``RealtimeDatabaseQuery``, both ways: the client writes
/// them, the test server reads them.
///
/// - `orderBy`: `"$key"`, `"$value"` or a child path, as a quoted JSON string.
/// - `startAt`, `startAfter`, `endAt`, `endBefore`, `equalTo`: the bound as JSON (`"a"`, `3`,
///   `true`, `null`), followed by `,` and the child key as a JSON string when there is one
///   (`startAt=3,"k"`), as the Firebase JS SDK writes them.
/// - `limitToFirst`, `limitToLast`: a positive integer.
///
/// A query that reads every child sends nothing (an order alone does not change which data is
/// returned, and ordering by an unindexed child fails on a real project's server). Every filter
/// needs `orderBy`, as the REST API requires. See <doc:Networking>.
package enum RealtimeDatabaseRESTQuery {
    /// The query parameters of `query`, in a fixed order.
    package static func parameters(for query: ResolvedRealtimeDatabaseQuery) -> [(name: String, value: String)] {
        let built = query.query
        if built.readsAllChildren { return [] }
        let orderBy: String
        switch query.order {
        case .byKey: orderBy = "$key"
        case .byValue: orderBy = "$value"
        case .byChild(let segments): orderBy = segments.joined(separator: "/")
        }
        var items = [(name: "orderBy", value: JSONValue.string(orderBy).serialized())]
        func encoded(_ bound: RealtimeDatabaseQuery.Bound) -> String {
            bound.value.serialized() + (bound.childKey.map { "," + JSONValue.string($0).serialized() } ?? "")
        }
        if let start = built.start, let end = built.end, start == end, start.isInclusive {
            items.append(("equalTo", encoded(start)))
        } else {
            if let start = built.start { items.append((start.isInclusive ? "startAt" : "startAfter", encoded(start))) }
            if let end = built.end { items.append((end.isInclusive ? "endAt" : "endBefore", encoded(end))) }
        }
        switch built.limit {
        case .first(let count)?: items.append(("limitToFirst", String(count)))
        case .last(let count)?: items.append(("limitToLast", String(count)))
        case nil: break
        }
        return items
    }

    /// The names of the query parameters.
    package static let names: Set<String> = ["orderBy", "startAt", "startAfter", "endAt", "endBefore", "equalTo", "limitToFirst", "limitToLast"]

    /// The query of `path` that `parameters` describe, `nil` when they hold no query parameter.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidQuery` with the REST API's reason for a parameter
    ///   that is not valid JSON of the right kind, a filter without `orderBy`, or a combination
    ///   the SDKs reject.
    package static func query(at path: String, parameters: [String: String]) throws(RealtimeDatabaseError) -> RealtimeDatabaseQuery? {
        guard parameters.keys.contains(where: names.contains) else { return nil }
        func invalid(_ reason: String) -> RealtimeDatabaseError { .invalidQuery(path, reason: reason) }
        guard let orderText = parameters["orderBy"] else {
            throw invalid("orderBy must be defined when other query parameters are defined")
        }
        guard case .string(let orderBy)? = try? JSONValue(parsing: orderText, maximumDepth: 1) else {
            throw invalid("orderBy must be a valid JSON encoded path")
        }
        var query = RealtimeDatabaseQuery(path: path)
        switch orderBy {
        case "$key": query = query.orderedByKey()
        case "$value": query = query.orderedByValue()
        case "$priority": throw invalid("orderBy \"$priority\" is not supported (priorities are not supported)")
        default: query = query.ordered(byChild: orderBy)
        }
        func bound(_ name: String) throws(RealtimeDatabaseError) -> (JSONValue, String?)? {
            guard let text = parameters[name] else { return nil }
            // `value` or `value,"key"`: parse as the elements of a JSON array.
            guard case .array(let parts)? = try? JSONValue(parsing: "[" + text + "]", maximumDepth: 2),
                (1...2).contains(parts.count)
            else {
                throw invalid("\(name) must be a JSON value, optionally followed by a comma and a JSON string key")
            }
            switch parts[0] {
            case .array, .object: throw invalid("\(name): constraint index field must be a JSON primitive")
            default: break
            }
            if parts.count == 2 {
                guard case .string(let key) = parts[1] else { throw invalid("\(name): the key after the comma must be a JSON string") }
                return (parts[0], key)
            }
            return (parts[0], nil)
        }
        if let (value, key) = try bound("equalTo") {
            if parameters["startAt"] != nil || parameters["startAfter"] != nil || parameters["endAt"] != nil || parameters["endBefore"] != nil {
                throw invalid("equalTo cannot be combined with startAt, startAfter, endAt or endBefore")
            }
            query = query.equal(to: value, childKey: key)
        }
        if parameters["startAt"] != nil && parameters["startAfter"] != nil { throw invalid("startAt and startAfter cannot be combined") }
        if parameters["endAt"] != nil && parameters["endBefore"] != nil { throw invalid("endAt and endBefore cannot be combined") }
        if let (value, key) = try bound("startAt") { query = query.starting(at: value, childKey: key) }
        if let (value, key) = try bound("startAfter") { query = query.starting(after: value, childKey: key) }
        if let (value, key) = try bound("endAt") { query = query.ending(at: value, childKey: key) }
        if let (value, key) = try bound("endBefore") { query = query.ending(before: value, childKey: key) }
        for name in ["limitToFirst", "limitToLast"] {
            guard let text = parameters[name] else { continue }
            guard let count = Int(text), count > 0 else { throw invalid("\(name) must be a positive integer") }
            query = name == "limitToFirst" ? query.limited(toFirst: count) : query.limited(toLast: count)
        }
        try query.validate()
        return query
    }
}
