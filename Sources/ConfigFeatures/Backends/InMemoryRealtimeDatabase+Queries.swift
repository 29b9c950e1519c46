import Streams

extension InMemoryRealtimeDatabase {
    /// Observes the value a query selects, kept up to date incrementally (see
    /// `observeChildEvents(of:)`): an object of the selected children (`.null` when none), or
    /// the location's whole value when the query reads every child.
    ///
    /// - Returns: A sequence that never completes; it fails with
    ///   `RealtimeDatabaseError.invalidQuery` (or a path error) on the scheduler for an invalid
    ///   query.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide#Queries>.
    public func observeValue(of query: RealtimeDatabaseQuery) -> Observable<JSONValue> {
        if query.readsAllChildren, (try? query.validate(limits: limits)) != nil {
            return observeValue(at: query.path)
        }
        return indexedSelections(of: query)
            .map { step -> JSONValue in
                if step.selection.isEmpty { return .null }
                return .object(Dictionary(step.selection.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
            }
            .distinctUntilChanged()
    }

    /// Observes the children a query selects, in its order, kept up to date incrementally.
    ///
    /// - Returns: The current selection, then every different one; never completes; fails on
    ///   the scheduler for an invalid query.
    /// - Note: Delivers on the scheduler. See <doc:RealtimeDatabaseGuide#Queries>.
    public func observeChildren(of query: RealtimeDatabaseQuery) -> Observable<[RealtimeDatabaseChild]> {
        indexedSelections(of: query)
            .filter { step in step.isFirst || !step.events.isEmpty }
            .map(\.selection)
    }

    /// Observes a query's children as child events, worked out from the paths each write
    /// touched: a write below the location costs a binary search per touched child and a diff
    /// of the limit window (O(k log n + window)), so a new comment in a long history does not
    /// cost the history; a write at or above the location re-reads it (O(n log n)).
    ///
    ///     limited(toLast: 2), by key:  {a,b}     write c       change b      delete c
    ///     events:                      +a +b     -a +c(b)      ~b(nil)       -c +a(nil)
    ///
    /// - Returns: `.added` for every selected child, then the events of each change, in
    ///   Firebase's order; never completes; fails on the scheduler for an invalid query.
    /// - Note: Delivers on the scheduler, one change at a time. See
    ///   <doc:RealtimeDatabaseGuide#Child-events>.
    public func observeChildEvents(of query: RealtimeDatabaseQuery) -> Observable<RealtimeDatabaseChildEvent> {
        indexedSelections(of: query).emittingChildEvents(\.events)
    }

    /// One step of a query's child index: the selection after a change and the events that led
    /// to it.
    struct IndexStep {
        let selection: [RealtimeDatabaseChild]
        let events: [RealtimeDatabaseChildEvent]
        let isFirst: Bool
    }

    /// The query's selection after its first value and after every change of its location.
    private func indexedSelections(of query: RealtimeDatabaseQuery) -> Observable<IndexStep> {
        Observable.create { [self] observer in
            let resolved: ResolvedRealtimeDatabaseQuery
            do {
                resolved = try query.resolved(limits: limits)
            } catch {
                return deliver(.error(error), to: observer)
            }
            // Only the observation's deliveries touch the index, one at a time.
            var index = RealtimeDatabaseChildIndex(query: resolved)
            var isFirst = true
            return observeChanges(at: resolved.location).subscribe { event in
                switch event {
                case .next(let change):
                    let events = index.apply(change)
                    let step = IndexStep(selection: index.selection, events: events, isFirst: isFirst)
                    isFirst = false
                    observer.onNext(step)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
