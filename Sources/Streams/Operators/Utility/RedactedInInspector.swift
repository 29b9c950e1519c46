extension ObservableType {
    /// Marks this point of the chain as carrying secrets (tokens, passwords, keys) for the stream
    /// inspector; otherwise the sequence is unchanged.
    ///
    ///     source:                 --t1--t2--|
    ///     redactedInInspector():  --t1--t2--|     (recorded as <redacted>, <redacted>)
    ///
    /// While the inspector records, every element and error that any operator of the chain this
    /// subscription belongs to delivers from then on is recorded as `<redacted>` (its kind, time,
    /// thread and operator are kept), so a secret cannot reach a snapshot, an export or the
    /// timeline page through an operator that handles it downstream — a `map` building a header
    /// from a token, a `flatMap` whose request carries it. Operators in the chain that carry no
    /// secret are redacted too: keep secrets in chains of their own where their neighbours'
    /// values matter. With the inspector off, subscribing costs one extra call and events do not
    /// pass through it at all.
    /// - Returns: The same sequence, marked.
    /// - Note: Delivers on the source's scheduler. See [Debugging streams](/documentation/streamsinspector/debuggingstreams).
    public func redactedInInspector() -> Observable<Element> {
        RedactedObservable(source: asObservable())
    }
}

/// The marking pass-through of `redactedInInspector()`.
final class RedactedObservable<Element>: Observable<Element>, @unchecked Sendable {
    // Safety: immutable after init; `Observable` is thread-safe to subscribe to.
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        guard InspectorHook.isRecording else { return source.subscribe(observer) }
        return InspectorHook.subscribe(self, observer, redacts: true) { source.subscribe($0) }
    }
}
