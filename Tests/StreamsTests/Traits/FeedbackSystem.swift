import Streams

/// A small state machine run by feedback loops, written for these tests (the shape of the
/// feedback libraries built on RxCocoa's traits): the state is the running reduction of the
/// events; each loop sees the state as a ``Driver`` and answers with a ``Signal`` of events.
///
/// What it relies on is RxCocoa's scheduling: the state is delivered on the sharing scheduler,
/// the loops' answers may arrive synchronously, and the reduction must never re-enter itself
/// (events arriving while one is being reduced wait on the current-thread trampoline).
enum FeedbackSystem {
    typealias Loop<State, Event> = (Driver<State>) -> Signal<Event>

    /// The states of a machine that starts at `initial` and reduces the loops' events.
    static func run<State, Event>(initial: State, reduce: @escaping (State, Event) -> State, loops: [Loop<State, Event>]) -> Driver<State> {
        let scheduler = SharingScheduler.make()
        let machine = Observable<State>.deferred {
            let latest = ReplaySubject<State>.create(bufferSize: 1)
            let seen = latest.asDriver(onErrorDriveWith: .empty())
            let answers = Observable.merge(loops.map { $0(seen).asObservable() })
            return
                answers
                .observe(on: CurrentThreadScheduler.instance)
                .scan(initial, accumulator: reduce)
                .do(onNext: { latest.onNext($0) }, onSubscribed: { latest.onNext(initial) })
                .subscribe(on: scheduler)
                .startWith(initial)
                .observe(on: scheduler)
        }
        return machine.asDriver(onErrorDriveWith: .empty())
    }

    /// A loop that runs `effects` for the latest non-nil query, restarting it only when the query
    /// changes (an equal query keeps the running effect; `nil` stops it).
    static func react<State, Query: Equatable, Event>(query: @escaping (State) -> Query?, effects: @escaping (Query) -> Signal<Event>) -> Loop<State, Event> {
        { state in
            state.map(query).distinctUntilChanged().flatMapLatest { query -> Signal<Event> in
                guard let query else { return .empty() }
                return effects(query)
            }
        }
    }

    /// A loop that runs `effects` once for each query that enters the set the state asks for,
    /// until a later set leaves it out (queries entering together start in ascending order).
    static func react<State, Query: Hashable & Comparable, Event>(
        queries: @escaping (State) -> Set<Query>, effects: @escaping (Query) -> Signal<Event>
    ) -> Loop<State, Event> {
        { state in
            let sets = state.map(queries)
            let entering = sets.asObservable()
                .scan((current: Set<Query>(), entered: [Query]())) { previous, next in (next, next.subtracting(previous.current).sorted()) }
                .flatMap { Observable.from($0.entered) }
            return
                entering
                .flatMap { query in
                    effects(query).asObservable().take(until: sets.asObservable().filter { !$0.contains(query) })
                }
                .asSignal(onErrorSignalWith: .empty())
        }
    }
}
