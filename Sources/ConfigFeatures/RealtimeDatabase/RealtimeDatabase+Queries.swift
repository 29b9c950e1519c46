import Streams

extension RealtimeDatabase {
    /// Observes the value a query selects, evaluated on the client from `observeValue(at:)` of
    /// its location (the default for implementations without server-side queries).
    ///
    /// - Returns: A sequence that never completes; it fails with
    ///   `RealtimeDatabaseError.invalidQuery` (with the first value's delivery) for an invalid
    ///   query. See `RealtimeDatabase.observeValue(of:)`.
    public func observeValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        let resolved = Self.resolve(query)
        return observeValue(at: query.path)
            .map { value in try resolved.get().result(of: value) }
            .distinctUntilChanged()
    }

    /// Reads the value a query selects once, evaluated on the client from `getValue(at:)`.
    public func getValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        let resolved = Self.resolve(query)
        return getValue(at: query.path).map { value in try resolved.get().result(of: value) }
    }

    /// Observes the children a query selects, in its order, evaluated on the client from
    /// `observeValue(at:)` of its location.
    public func observeChildren(of query: RealtimeDatabaseQuery) -> Observable<[RealtimeDatabaseChild]> {
        let resolved = Self.resolve(query)
        return observeValue(at: query.path)
            .map { value in try resolved.get().children(of: value) }
            .distinctUntilChanged()
    }

    /// Observes a query's children as child events, derived from `observeChildren(of:)`: each
    /// new list is compared with the previous one (O(n) per change in the number of selected
    /// children).
    public func observeChildEvents(of query: RealtimeDatabaseQuery) -> Observable<RealtimeDatabaseChildEvent> {
        let resolved = Self.resolve(query)
        let steps = observeChildren(of: query)
            .scan(into: ChildEventsStep()) { step, children in
                step.events = try resolved.get().childEvents(from: step.children, to: children)
                step.children = children
            }
        return steps.emittingChildEvents(\.events)
    }

    private static func resolve(_ query: RealtimeDatabaseQuery) -> Result<ResolvedRealtimeDatabaseQuery, RealtimeDatabaseError> {
        Result { () throws(RealtimeDatabaseError) in try query.resolved() }
    }
}

/// The last selection of a child-event stream and the events that led to it.
private struct ChildEventsStep {
    var children: [RealtimeDatabaseChild] = []
    var events: [RealtimeDatabaseChildEvent] = []
}
