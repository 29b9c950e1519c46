extension ObservableType where Element: Equatable {
    /// Drops elements equal to the element forwarded just before them.
    ///
    ///     source: --1--1--2--2--1--|
    ///     output: --1-----2-----1--|
    ///
    /// - Returns: The source without consecutive duplicates.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Drops elements whose key equals the key of the element forwarded just before them.
    ///
    ///     source: --a1--a2--b3--a4--|
    ///     output: --a1------b3--a4--|     (keySelector: first letter)
    ///
    /// An error thrown by `keySelector` terminates the sequence with that error.
    /// - Parameter keySelector: Computes the key compared for each element.
    /// - Returns: The source without consecutive elements of equal key.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 })
    }

    /// Drops elements that `comparer` finds equal to the element forwarded just before them.
    ///
    ///     source: --1--3--4--6--7--|
    ///     output: --1-----4-----7--|     (comparer: same parity)
    ///
    /// `comparer` receives the last forwarded element first, then the new one. An error it throws
    /// terminates the sequence with that error.
    /// - Parameter comparer: Returns `true` when the two elements count as equal.
    /// - Returns: The source without consecutive equal elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose key `comparer` finds equal to the key of the element forwarded just
    /// before them.
    ///
    ///     source: --a1--A2--b3--a4--|
    ///     output: --a1------b3--a4--|     (keySelector: first letter, comparer: case-insensitive)
    ///
    /// `comparer` receives the last forwarded key first, then the new one. An error thrown by
    /// `keySelector` or `comparer` terminates the sequence with that error.
    /// - Parameters:
    ///   - keySelector: Computes the key compared for each element.
    ///   - comparer: Returns `true` when the two keys count as equal.
    /// - Returns: The source without consecutive elements of equal key.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool) -> Observable<Element> {
        DistinctUntilChangedProducer(source: asObservable(), keySelector: keySelector, comparer: comparer)
    }

    /// Drops elements whose property at `keyPath` equals that of the element forwarded just
    /// before them.
    ///
    ///     source: --(id:1)--(id:1)--(id:2)--|
    ///     output: --(id:1)----------(id:2)--|     (keyPath: \.id)
    ///
    /// - Parameter keyPath: The property compared for each element.
    /// - Returns: The source without consecutive elements of equal property.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}

final private class DistinctUntilChangedSink<Key, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    // The upstream is serial by contract, so `currentKey` needs no lock. (When `Key` is itself
    // optional, a `nil` key is stored as `.some(nil)`, so it still counts as a key.)
    private var currentKey: Key?

    init(keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                let key = try keySelector(element)
                if let current = currentKey, try comparer(current, key) { return }
                currentKey = key
            } catch {
                forwardOn(.error(error))
                return
            }
            forwardOn(event)
        case .error, .completed:
            forwardOn(event)
        }
    }
}

final private class DistinctUntilChangedProducer<Element, Key>: Producer<Element> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(keySelector: keySelector, comparer: comparer, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
