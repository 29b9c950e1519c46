extension ObservableType {
    /// Shares one subscription to the source through `subject`, starting when `connect()` is called.
    ///
    ///     source:   --1--2--3--|
    ///     connect:  ^ (at 0)
    ///     observer: --1--2--3--|
    ///
    /// Observers subscribe to `subject`. The same subject is used for every connection, so once
    /// the source has terminated, later connections and observers only see that terminal event.
    /// - Parameter subject: The subject that receives the source's events.
    /// - Returns: A connectable sequence.
    /// - Note: Delivers on the source's scheduler. See <doc:Sharing>.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// Shares one subscription to the source through a subject made by `makeSubject` for each connection.
    ///
    /// The subject is created on the first subscription or connection, and dropped when the
    /// connection is disposed or the source terminates; the next subscription or `connect()`
    /// makes a fresh one, so a later connection starts from a clean state.
    /// - Parameter makeSubject: Creates the subject of one connection.
    /// - Returns: A connectable sequence.
    /// - Note: Delivers on the source's scheduler. See <doc:Sharing>.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscription, multicasts the source through a new subject into `selector`, and
    /// emits the sequence `selector` builds from it.
    ///
    /// The source is subscribed once per subscription, however many times `selector` uses its argument.
    /// An error thrown by `subjectSelector` or `selector` is sent as an `error` event.
    /// - Parameters:
    ///   - subjectSelector: Creates the subject for one subscription.
    ///   - selector: Builds the result from the multicast source.
    /// - Returns: The sequence returned by `selector`.
    /// - Note: Delivers on the source's scheduler. See <doc:Sharing>.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject, selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        MulticastProducer(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }

    /// Shares one subscription to the source, from `connect()`, through a ``PublishSubject``.
    ///
    ///     source:   --1--2--3--|
    ///     connect:  ^
    ///     early:    --1--2--3--|
    ///     late:           -3--|     (subscribed after 2)
    ///
    /// Each connection gets a fresh subject (`multicast(makeSubject: { PublishSubject() })`).
    /// - Returns: A connectable sequence.
    /// - Note: Delivers on the source's scheduler. See <doc:Sharing>.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }

    /// Shares one subscription to the source, from `connect()`, replaying the last `bufferSize`
    /// elements to each new observer.
    ///
    ///     source:   --1--2--3--|
    ///     late:           (12)3--|     (bufferSize: 2, subscribed after 2)
    ///
    /// Each connection gets a fresh replay subject.
    /// - Parameter bufferSize: The number of elements replayed.
    /// - Returns: A connectable sequence.
    /// - Note: Delivers on the source's scheduler (replayed elements on the subscribing thread).
    ///   See <doc:Sharing>.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ShareReplaySubject<Element>(bufferSize: bufferSize) })
    }

    /// Shares one subscription to the source, from `connect()`, replaying every element to each new observer.
    ///
    /// Each connection gets a fresh replay subject.
    /// - Returns: A connectable sequence.
    /// - Note: Delivers on the source's scheduler (replayed elements on the subscribing thread).
    ///   See <doc:Sharing>.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ShareReplaySubject<Element>(bufferSize: Int.max) })
    }
}

/// The connectable sequence behind `multicast`, ``ObservableType/publish()`` and ``ObservableType/replay(_:)``.
final private class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, @unchecked Sendable {
    // Safety: the subject and connection are in `state`, guarded by its lock. `makeSubject`,
    // `asObserver()`, subscribing and disposing all run outside the lock; `generation` detects
    // a subject that was replaced meanwhile.
    typealias Source = Subject.Observer.Element

    struct State {
        var subject: Subject?
        var generation: UInt64 = 0
        var connection: MulticastConnection<Subject>?
    }

    private enum ConnectStep {
        case existing(MulticastConnection<Subject>)
        case created(MulticastConnection<Subject>)
        case needSubject
        case needObserver(Subject, UInt64)
    }

    private let source: Observable<Source>
    private let makeSubject: () -> Subject
    let state = LockedState(State())

    init(source: Observable<Source>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    /// The current subject, created (outside the lock) if there is none.
    private func currentSubject() -> Subject {
        if let subject = state.withLock({ $0.subject }) { return subject }
        let made = makeSubject()
        return state.withLock { state in
            if let subject = state.subject { return subject }
            state.subject = made
            state.generation &+= 1
            return made
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {

        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }

        return subscribeUninspected(observer)

    }

    @inline(__always)

    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        currentSubject().subscribe(observer)
    }

    override func connect() -> Disposable {
        var observer: (Subject.Observer, generation: UInt64)?
        while true {
            let step = state.withLock { state -> ConnectStep in
                if let connection = state.connection { return .existing(connection) }
                guard let subject = state.subject else { return .needSubject }
                guard let ready = observer, ready.generation == state.generation else {
                    return .needObserver(subject, state.generation)
                }
                let connection = MulticastConnection(parent: self, subjectObserver: ready.0)
                state.connection = connection
                return .created(connection)
            }
            switch step {
            case .existing(let connection):
                return connection
            case .needSubject:
                _ = currentSubject()
            case .needObserver(let subject, let generation):
                observer = (subject.asObserver(), generation)
            case .created(let connection):
                connection.subscription.setDisposable(source.subscribe(connection))
                return connection
            }
        }
    }

    /// Forgets `connection` and its subject, if it is still the current one.
    func connectionEnded(_ connection: MulticastConnection<Subject>) {
        state.withLock { state in
            guard state.connection === connection else { return }
            state.connection = nil
            state.subject = nil
            state.generation &+= 1
        }
    }
}

/// One connection of a connectable sequence: forwards the source's events into the subject.
final private class MulticastConnection<Subject: SubjectType>: ObserverType, Cancelable, @unchecked Sendable {
    // Safety: `parent` and `subjectObserver` are immutable; `disposed` is atomic and
    // `subscription` is itself thread-safe.
    typealias Element = Subject.Observer.Element

    private let parent: ConnectableObservableAdapter<Subject>
    private let subjectObserver: Subject.Observer
    let subscription = SingleAssignmentDisposable()
    private let disposed = AtomicFlag()

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.parent = parent
        self.subjectObserver = subjectObserver
    }

    var isDisposed: Bool { disposed.isSet }

    func on(_ event: Event<Element>) {
        if disposed.isSet { return }
        if event.isStopEvent { dispose() }
        subjectObserver.on(event)
    }

    func dispose() {
        guard disposed.set() else { return }
        parent.connectionEnded(self)
        subscription.dispose()
    }
}

final private class MulticastSink<Subject: SubjectType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run(_ parent: MulticastProducer<Subject, Element>) -> Disposable {
        do {
            let subject = try parent.subjectSelector()
            let connectable = ConnectableObservableAdapter(source: parent.source, makeSubject: { subject })
            let observable = try parent.selector(connectable)
            let subscription = observable.subscribe(self)
            let connection = connectable.connect()
            return Disposables.create(subscription, connection)
        } catch {
            forwardOn(.error(error))
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }
}

final private class MulticastProducer<Subject: SubjectType, Result>: Producer<Result> {
    let source: Observable<Subject.Observer.Element>
    let subjectSelector: () throws -> Subject
    let selector: (Observable<Subject.Element>) throws -> Observable<Result>

    init(
        source: Observable<Subject.Observer.Element>, subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = MulticastSink<Subject, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink, subscription)
    }
}
