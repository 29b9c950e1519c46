extension ObservableType {
    /// Pairs the elements of two sequences by index and combines each pair with `resultSelector`.
    ///
    ///     source1: --1--2-----3--|
    ///     source2: ----a---b-------c--|
    ///     output:  ----A---B-------C--|     (A = (1, a), B = (2, b), C = (3, c))
    ///
    /// Elements wait in per-source buffers until every source has one at the same index.
    /// Completes when every source has completed (as RxSwift's fixed-arity `zip`; elements left in
    /// buffers are dropped). Fails as soon as a source fails or `resultSelector` throws.
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - resultSelector: Combines one element of each source. Runs outside Streams' locks.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the pair (or of a thread
    ///   already delivering); the output is serialized even when the sources emit concurrently.
    ///   See <doc:Combining>.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 2, buffers: { (ZipBuffer(), ZipBuffer()) as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>) },
            take: { buffers in (buffers.0.dequeue(), buffers.1.dequeue()) },
            selection: .user { pair in try resultSelector(pair.0, pair.1) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
        }
    }
}

extension ObservableType where Element == Any {
    /// Pairs the elements of two sequences by index into tuples.
    ///
    ///     source1: --1--2-----3--|
    ///     source2: ----a---b-------c--|
    ///     output:  ----A---B-------C--|     (A = (1, a), B = (2, b), C = (3, c))
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the pair (or of a thread
    ///   already delivering); the output is serialized. See <doc:Combining>.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        ZipArityProducer(
            arity: 2, buffers: { (ZipBuffer(), ZipBuffer()) as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>) },
            take: { buffers in (buffers.0.dequeue(), buffers.1.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
        }
    }
}

/// A FIFO buffer of one `zip` source's pending elements.
struct ZipBuffer<Element> {
    private var queue = FIFOQueue<Element>()

    mutating func enqueue(_ element: Element) {
        queue.append(element)
    }

    /// Removes the oldest element; the caller guarantees there is one.
    mutating func dequeue() -> Element {
        queue.popFirst()!
    }
}

/// The locked state of a `zip` subscription.
struct ZipState<Buffers, Result>: SequencedResultsState {
    var buffers: Buffers
    /// How many elements each source has buffered.
    var counts: [Int]
    var nonEmptyCount = 0
    var isDone: [Bool]
    var doneCount = 0
    /// A terminal event has been decided; later inputs are ignored.
    var isStopped = false
    var results = ResultSequencer<Result>()

    init(buffers: Buffers, arity: Int) {
        self.buffers = buffers
        counts = Array(repeating: 0, count: arity)
        isDone = Array(repeating: false, count: arity)
    }
}

/// The sink shared by every `zip` form. `Buffers` holds each source's pending elements and
/// `take` removes one element of each, as the selector's `Arguments`.
final class ZipSink<Buffers, Arguments, Observer: ObserverType>: SerializingSink<Observer, ZipState<Buffers, Observer.Element>> {
    typealias Result = Observer.Element

    private let arity: Int
    private let completesEarly: Bool
    private let take: (inout Buffers) -> Arguments
    private let selection: ResultSelection<Arguments, Result>
    private let subscriptions: [SingleAssignmentDisposable]

    /// - Parameter completesEarly: RxSwift's collection `zip` also completes when a source emits
    ///   while every other source has completed and at least one buffer is empty; its
    ///   fixed-arity `zip` waits for all sources to complete.
    init(
        arity: Int, buffers: Buffers, completesEarly: Bool,
        take: @escaping (inout Buffers) -> Arguments, selection: ResultSelection<Arguments, Result>,
        observer: Observer, cancel: SinkDisposer
    ) {
        self.arity = arity
        self.completesEarly = completesEarly
        self.take = take
        self.selection = selection
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(state: ZipState(buffers: buffers, arity: arity), observer: observer, cancel: cancel)
    }

    /// Every source subscription, for the producer to return.
    var subscription: Disposable { Disposables.create(subscriptions) }

    /// Subscribes source number `index`; `store` appends its elements to `Buffers` (under the lock).
    /// Sources after a synchronous terminal event are subscribed too (and disposed at once, with
    /// the others), as in RxSwift.
    func subscribe<E>(_ source: Observable<E>, at index: Int, store: @escaping (inout Buffers, E) -> Void) {
        subscriptions[index].setDisposable(
            source.subscribe(
                SinkForward<E> { [self] event in
                    on(event, at: index, store: store)
                }))
    }

    /// Completes at once (`zip([])`).
    func runEmpty() {
        synchronized { state, outbox in
            state.isStopped = true
            state.results.send(.completed, into: &outbox)
        }
    }

    private func on<E>(_ event: Event<E>, at index: Int, store: (inout Buffers, E) -> Void) {
        switch event {
        case .next(let element):
            let pending = synchronized { state, outbox -> (UInt64, Arguments)? in
                guard !state.isStopped else { return nil }
                store(&state.buffers, element)
                state.counts[index] += 1
                if state.counts[index] == 1 { state.nonEmptyCount += 1 }
                if state.nonEmptyCount == arity {
                    let arguments = take(&state.buffers)
                    for source in 0..<arity {
                        state.counts[source] -= 1
                        if state.counts[source] == 0 { state.nonEmptyCount -= 1 }
                    }
                    guard let ticket = selection.begin(arguments, results: &state.results, outbox: &outbox) else { return nil }
                    return (ticket, arguments)
                }
                if completesEarly, state.doneCount == arity - 1 {
                    state.isStopped = true
                    state.results.send(.completed, into: &outbox)
                }
                return nil
            }
            if let (ticket, arguments) = pending { finishSelection(ticket, arguments, selection) }
        case .error(let error):
            stopOutput(with: .error(error))
        case .completed:
            let disposeSource = synchronized { state, outbox -> Bool in
                guard !state.isStopped, !state.isDone[index] else { return false }
                state.isDone[index] = true
                state.doneCount += 1
                guard state.doneCount == arity else { return true }
                state.isStopped = true
                state.results.send(.completed, into: &outbox)
                return false
            }
            if disposeSource { subscriptions[index].dispose() }
        }
    }
}
