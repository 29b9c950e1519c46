extension ObservableType {
    /// Splits the sequence into groups of elements sharing a key, one group per distinct key.
    ///
    ///     source: -1-2-3-4-5-|
    ///     output: -O-E-------|     (keySelector: { $0 % 2 }; O: key 1, E: key 0)
    ///     O:       1---3---5-|
    ///     E:         2---4---|
    ///
    /// The first element with a new key emits a ``GroupedObservable`` for that key, then the
    /// element is sent to the group; subscribe to the group synchronously in `onNext` to see that
    /// first element (groups are hot). An error or completion of the source is sent to every
    /// group, in the order the groups were created, then to the output; an error thrown by
    /// `keySelector` does the same with that error. (RxSwift ends its groups in its
    /// dictionary's hash order, which changes from run to run; Streams' order is deliberate,
    /// see <doc:DifferencesFromRxSwift>.) Disposing the output keeps the source
    /// subscribed while a group is still subscribed; the source is released when the last group
    /// subscription ends.
    /// - Parameter keySelector: The function that computes each element's key.
    /// - Returns: The sequence of groups.
    /// - Note: Delivers on the source's thread. See <doc:Transforming>.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupByProducer(source: asObservable(), keySelector: keySelector)
    }
}

/// A sequence of the elements that share `key`, as emitted by ``ObservableType/groupBy(keySelector:)``.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by the group's elements.
    public let key: Key

    private let source: Observable<Element>

    /// Creates a group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// Returns the group's elements as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }
}

final private class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    private let upstream = SingleAssignmentDisposable()
    private let refCount: RefCountDisposable
    // Only touched from `on(_:)`: the source is serial by contract.
    private var groups: [Key: PublishSubject<Element>] = [:]
    /// The groups in creation order, so terminal events reach them deterministically.
    private var ordered: [PublishSubject<Element>] = []
    private var isStopped = false

    init(keySelector: @escaping (Element) throws -> Key, observer: Observer, cancel: SinkDisposer) {
        self.keySelector = keySelector
        refCount = RefCountDisposable(disposable: upstream)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        upstream.setDisposable(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                terminate(.error(error), outer: .error(error))
                return
            }
            if let group = groups[key] {
                group.onNext(element)
                return
            }
            let group = PublishSubject<Element>()
            groups[key] = group
            ordered.append(group)
            forwardNext(GroupedObservable(key: key, source: AddRefProducer(source: group.asObservable(), refCount: refCount)))
            group.onNext(element)
        case .error(let error):
            terminate(.error(error), outer: .error(error))
        case .completed:
            terminate(.completed, outer: .completed)
        }
    }

    /// Sends the terminal event to every group, then to the output.
    private func terminate(_ event: Event<Element>, outer: Event<GroupedObservable<Key, Element>>) {
        isStopped = true
        let all = ordered
        groups = [:]
        ordered = []
        for group in all { group.on(event) }
        forwardOn(outer)
        // The output may already be disposed while groups kept the source alive: release it now.
        upstream.dispose()
    }
}

final private class GroupByProducer<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key) {
        self.source = source
        self.keySelector = keySelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
