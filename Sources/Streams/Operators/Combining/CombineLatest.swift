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
    ///   sources emit concurrently. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 2, values: (nil, nil) as (O1.Element?, O2.Element?), selection: .user { values in
            try resultSelector(values.0!, values.1!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
        }
    }

    /// Combines the latest elements of three sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 3, values: (nil, nil, nil) as (O1.Element?, O2.Element?, O3.Element?), selection: .user { values in
            try resultSelector(values.0!, values.1!, values.2!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2 = $1 }
        }
    }

    /// Combines the latest elements of four sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 4, values: (nil, nil, nil, nil) as (O1.Element?, O2.Element?, O3.Element?, O4.Element?), selection: .user { values in
            try resultSelector(values.0!, values.1!, values.2!, values.3!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2 = $1 }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3 = $1 }
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
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        CombineLatestArityProducer(arity: 2, values: (nil, nil) as (O1.Element?, O2.Element?), selection: .library { values in
            (values.0!, values.1!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
        }
    }

    /// Emits a tuple of the latest elements of three sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        CombineLatestArityProducer(arity: 3, values: (nil, nil, nil) as (O1.Element?, O2.Element?, O3.Element?), selection: .library { values in
            (values.0!, values.1!, values.2!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2 = $1 }
        }
    }

    /// Emits a tuple of the latest elements of four sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        CombineLatestArityProducer(arity: 4, values: (nil, nil, nil, nil) as (O1.Element?, O2.Element?, O3.Element?, O4.Element?), selection: .library { values in
            (values.0!, values.1!, values.2!, values.3!)
        }) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0 = $1 }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1 = $1 }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2 = $1 }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3 = $1 }
        }
    }
}

/// The locked state of a `combineLatest` subscription.
struct CombineLatestState<Values, Result>: SequencedResultsState {
    /// The latest element of each source (`nil` until it has one).
    var values: Values
    var hasValue: [Bool]
    var valueCount = 0
    var isDone: [Bool]
    var doneCount = 0
    /// A terminal event has been decided; later inputs are ignored.
    var isStopped = false
    var results = ResultSequencer<Result>()

    init(values: Values, arity: Int) {
        self.values = values
        hasValue = Array(repeating: false, count: arity)
        isDone = Array(repeating: false, count: arity)
    }
}

/// The sink shared by every `combineLatest` form. `Values` stores the latest element of each
/// source (a tuple of optionals for the fixed arities, an array for collections).
final class CombineLatestSink<Values, Observer: ObserverType>: SerializingSink<Observer, CombineLatestState<Values, Observer.Element>> {
    typealias Result = Observer.Element

    private let arity: Int
    private let selection: ResultSelection<Values, Result>
    private let subscriptions: [SingleAssignmentDisposable]

    init(arity: Int, values: Values, selection: ResultSelection<Values, Result>, observer: Observer, cancel: Cancelable) {
        self.arity = arity
        self.selection = selection
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(state: CombineLatestState(values: values, arity: arity), observer: observer, cancel: cancel)
    }

    /// Every source subscription, for the producer to return.
    var subscription: Disposable { Disposables.create(subscriptions) }

    /// Subscribes source number `index`; `store` writes its elements into `Values` (under the lock).
    /// Sources after a synchronous terminal event are not subscribed.
    func subscribe<E>(_ source: Observable<E>, at index: Int, store: @escaping (inout Values, E) -> Void) {
        guard !isDisposed else { return }
        subscriptions[index].setDisposable(source.subscribe(SinkForward<E> { [self] event in
            on(event, at: index, store: store)
        }))
    }

    /// Emits the combination of zero sources (`combineLatest([])`), then completes.
    func runEmpty() {
        let event: Event<Result>
        switch selection {
        case .library(let select): event = .next(select(withState { $0.values }))
        case .user(let select):
            do { event = .next(try select(withState { $0.values })) } catch { event = .error(error) }
        }
        synchronized { state, outbox in
            state.isStopped = true
            state.results.send(event, into: &outbox)
            state.results.send(.completed, into: &outbox)
        }
    }

    private func on<E>(_ event: Event<E>, at index: Int, store: (inout Values, E) -> Void) {
        switch event {
        case .next(let element):
            let pending = synchronized { state, outbox -> (UInt64, Values)? in
                guard !state.isStopped else { return nil }
                store(&state.values, element)
                if !state.hasValue[index] {
                    state.hasValue[index] = true
                    state.valueCount += 1
                }
                if state.valueCount == arity {
                    guard let ticket = selection.begin(state.values, results: &state.results, outbox: &outbox) else { return nil }
                    return (ticket, state.values)
                }
                // As RxSwift: when every other source has completed, one of them without an
                // element, nothing can ever be combined again, so complete now.
                let othersDone = state.doneCount - (state.isDone[index] ? 1 : 0)
                if othersDone == arity - 1 {
                    state.isStopped = true
                    state.results.send(.completed, into: &outbox)
                }
                return nil
            }
            if let (ticket, values) = pending { finishSelection(ticket, values, selection) }
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
