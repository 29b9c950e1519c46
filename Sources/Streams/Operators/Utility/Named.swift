extension ObservableType {
    /// Labels this point of the chain for the stream inspector; otherwise the sequence is unchanged.
    ///
    ///     source:              --1--2--|
    ///     named("clicks"):     --1--2--|     (recorded as "clicks" while the inspector runs)
    ///
    /// The chain takes the first label it meets as its name (StreamsInspector's `Inspector.events(ofChainNamed:)`),
    /// and the events delivered here are listed under the label
    /// (`Inspector.events(labelled:)`). With the inspector off, subscribing costs one extra call
    /// and events do not pass through it at all.
    /// - Parameter name: The label.
    /// - Returns: The same sequence, labelled.
    /// - Note: Delivers on the source's scheduler. See [Debugging streams](/documentation/streamsinspector/debuggingstreams).
    public func named(_ name: String) -> Observable<Element> {
        NamedObservable(source: asObservable(), name: name)
    }
}

/// The labelled pass-through of `named(_:)`.
final class NamedObservable<Element>: Observable<Element>, @unchecked Sendable {
    // Safety: immutable after init; `Observable` is thread-safe to subscribe to.
    private let source: Observable<Element>
    private let name: String

    init(source: Observable<Element>, name: String) {
        self.source = source
        self.name = name
        super.init()
    }

    /// The labelled sequence's own (a label changes nothing).
    override var subscribesOnTrampoline: Bool { source.subscribesOnTrampoline }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        guard InspectorHook.isRecording else { return source.subscribe(observer) }
        return InspectorHook.subscribe(self, observer, label: name) { source.subscribe($0) }
    }
}
