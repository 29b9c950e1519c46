// combineLatest of two sources; 3 to 8 are generated into CombineLatest+arity.swift (streams-codegen).

extension ObservableType {
    /// Combines the latest elements of two sequences with `resultSelector` whenever either emits,
    /// once both have emitted.
    ///
    ///     source1: --1-----2-----3----|
    ///     source2: -----a-----b-------|
    ///     output:  -----A--B--C--D----|     (A = selector(1, a), B = (2, a), C = (2, b), D = (3, b))
    ///
    /// Completes when every source has completed, or when a source emits while all the others
    /// have completed and one of them never emitted (nothing can be combined any more). Fails as
    /// soon as a source fails, or `resultSelector` throws; the other sources are then disposed.
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - resultSelector: Combines the latest elements. Runs outside Streams' locks.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering for this subscription); the output is serialized even when the
    ///   sources emit concurrently. See <doc:Combining>.
    @inlinable  // the selector adapter is then specialized for the caller's element types (see `CombineLatestSelector`)
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 2, select: CombineLatestSelector.make(resultSelector)) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
        }
    }
}

extension ObservableType where Element == Any {
    /// Emits a tuple of the latest elements of two sequences whenever either emits, once both have emitted.
    ///
    ///     source1: --1-----2-----3----|
    ///     source2: -----a-----b-------|
    ///     output:  -----A--B--C--D----|     (A = (1, a), B = (2, a), C = (2, b), D = (3, b))
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    @inlinable  // the selector adapter is then specialized for the caller's element types (see `CombineLatestSelector`)
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        CombineLatestArityProducer(arity: 2, select: CombineLatestSelector.make { (v1: O1.Element, v2: O2.Element) in (v1, v2) }) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
        }
    }
}

/// The latest element of each source of a `combineLatest`, boxed per source so the storage is
/// not generic (see <doc:Performance>). Read by the result selector.
///
/// A view of memory the sink owns (allocated with it, freed in its `deinit`), not an array: passing
/// it to the selector retains nothing, and reading or replacing a slot has no bounds or
/// uniqueness check.
@usableFromInline
struct CombineLatestValues {
    /// One slot per source: its `LatestElement` box, `nil` until it emits.
    @usableFromInline let slots: UnsafeMutablePointer<AnyObject?>
    /// The number of sources.
    let count: Int

    /// `count` empty slots (the owner calls `free()` when done).
    init(count: Int) {
        slots = .allocate(capacity: Swift.max(count, 1))
        slots.initialize(repeating: nil, count: count)
        self.count = count
    }

    /// Releases the boxes and the memory.
    func free() {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The latest element of source `index` (which must have emitted), as an `Element`.
    @inlinable @inline(__always)
    subscript<Element>(index: Int, as type: Element.Type) -> Element {
        unsafeDowncast(slots[index].unsafelyUnwrapped, to: LatestElement<Element>.self).value
    }
}

/// The sink of every `combineLatest` (fixed arity and collection).
///
/// Runs on `DrainingSink`: source events are handled one at a time, so the latest elements and
/// counters are plain stored properties and the result selector reads them directly.
///
/// Generic over `Result` as well as the observer, so the combination it builds finds its metadata
/// in the sink's own generic arguments, not through an `Observer.Element` witness call per event.
final class CombineLatestSink<Result, Observer: ObserverType>: DrainingSink<Observer> where Observer.Element == Result {

    private let arity: Int
    private let select: (CombineLatestValues) throws -> Result
    /// The sources' nodes while they are being subscribed, handed over by `takeSubscription()`
    /// (touched only by the subscribing thread, before `run` returns). Not kept: each node holds
    /// the sink, so a node the sink held would keep both alive.
    @exclusivity(unchecked) private var nodes: [Disposable] = []
    // Touched only by handlers run through `serialize`, one at a time (so exclusive by
    // construction: the runtime's exclusivity checks are skipped).
    /// The latest elements: its slots, like the fields below, are touched only by handlers.
    private let values: CombineLatestValues
    @exclusivity(unchecked) private var valueCount = 0
    @exclusivity(unchecked) private var isDone: [Bool]
    @exclusivity(unchecked) private var doneCount = 0

    init(arity: Int, select: @escaping (CombineLatestValues) throws -> Result, observer: Observer, cancel: SinkDisposer) {
        self.arity = arity
        self.select = select
        nodes.reserveCapacity(arity)
        values = CombineLatestValues(count: arity)
        isDone = Array(repeating: false, count: arity)
        super.init(observer: observer, cancel: cancel)
    }

    deinit { values.free() }

    /// The sources' subscriptions, as one disposable (call once, after subscribing them).
    func takeSubscription() -> Disposable {
        defer { nodes = [] }
        return Disposables.create(nodes)
    }

    /// Subscribes source `index`, even if a source subscribed before ended the output (its
    /// subscription is then disposed at once, with the others), as in RxSwift.
    func subscribe<E>(_ source: Observable<E>, at index: Int) {
        let node = CombineLatestSource<E, Result, Observer>(sink: self, index: index)
        nodes.append(node)
        node.setSubscription(source.subscribe(node))
    }

    /// An element of source `index`, in turn with the other sources' events.
    @inline(__always)
    fileprivate func sourceNext<E>(_ element: E, at index: Int) {
        serialize({ onNext(element, at: index) }, later: { { self.onNext(element, at: index) } })
    }

    /// A terminal event of source `index` (whose subscription is `node`), in turn with the other
    /// sources' events.
    fileprivate func sourceOn<E>(_ event: Event<E>, at index: Int, node: Disposable) {
        serialize({ on(event, at: index, node: node) }, later: { { self.on(event, at: index, node: node) } })
    }

    /// An empty collection: the selector runs once on no elements, then the output completes.
    func runEmpty() {
        emitCombination()
        forwardCompleted()
    }

    @inline(__always)
    private func onNext<E>(_ element: E, at index: Int) {
        guard !isDisposed else { return }
        if let slot = values.slots[index] {
            unsafeDowncast(slot, to: LatestElement<E>.self).value = element
        } else {
            values.slots[index] = LatestElement(element)
            valueCount += 1
        }
        if valueCount == arity {
            emitCombination()
            return
        }
        // As RxSwift: when every other source has completed, one of them without an element,
        // nothing can ever be combined again, so complete now.
        let othersDone = doneCount - (isDone[index] ? 1 : 0)
        if othersDone == arity - 1 { forwardCompleted() }
    }

    @inline(__always)
    private func emitCombination() {
        // The selector's result is passed straight on (not taken into a local first: in
        // unspecialized code that is a value-witness move and a destroy per element).
        do {
            forwardNext(try select(values))
        } catch {
            forwardError(error)
        }
    }

    private func on<E>(_ event: Event<E>, at index: Int, node: Disposable) {
        switch event {
        case .next(let element):
            onNext(element, at: index)
        case .error(let error):
            forwardError(error)
        case .completed:
            guard !isDisposed, !isDone[index] else { return }
            isDone[index] = true
            doneCount += 1
            if doneCount == arity {
                forwardCompleted()
            } else {
                node.dispose()
            }
        }
    }
}

/// Source `index` of a `combineLatest`: forwards its events to the `CombineLatestSink` and holds
/// its subscription (a `SourceNode`: a subject source calls `receiveNext(_:)` directly).
final private class CombineLatestSource<Element, Result, Observer: ObserverType>: SourceNode<Element>, ObserverType where Observer.Element == Result {
    private let sink: CombineLatestSink<Result, Observer>
    private let index: Int

    init(sink: CombineLatestSink<Result, Observer>, index: Int) {
        self.sink = sink
        self.index = index
    }

    override __consuming func receiveNext(_ element: Element) {
        // Through the borrowing `onNext`: reading `sink` from the consumed `self` here retains
        // and releases it around the call.
        onNext(element)
    }

    override func receive(_ event: Event<Element>) {
        on(event)
    }

    @inline(__always)
    func onNext(_ element: Element) {
        sink.sourceNext(element, at: index)
    }

    func on(_ event: Event<Element>) {
        sink.sourceOn(event, at: index, node: self)
    }
}
