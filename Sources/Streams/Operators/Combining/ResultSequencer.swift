/// Keeps a multi-source operator's output in the order its inputs arrived, even though the
/// user's `resultSelector` runs outside the operator's lock.
///
/// The pattern (used by `combineLatest`, `zip` and `withLatestFrom`):
///
/// 1. Under the lock, an input that will produce an output *reserves* the next slot (a ticket)
///    and copies the selector's arguments out of the state.
/// 2. After the lock is released, the selector runs on those arguments (it may be slow, may
///    throw, may even re-enter the operator by feeding one of its sources).
/// 3. Under the lock again, the result (an element, or the thrown error) *fulfills* its slot.
///    Every output whose earlier slots are all fulfilled moves to the outbox, in slot order.
///
/// Terminal events decided under the lock (a source's error, the final completion) take a slot
/// too (`send`), so they can never overtake an element whose selector is still running. The
/// thread that fills the oldest open slot flushes it together with any later finished ones; no
/// thread ever waits for another. Since slots are reserved in input order (under the lock), the
/// output order is the input order, exactly as if the selector had run under the lock.
struct ResultSequencer<Element> {
    private var nextTicket: UInt64 = 0
    private var nextToSend: UInt64 = 0
    private var finished: [UInt64: Event<Element>] = [:]

    /// Reserves the next output slot.
    mutating func reserve() -> UInt64 {
        defer { nextTicket &+= 1 }
        return nextTicket
    }

    /// Fills slot `ticket` with `event`, then moves every consecutive filled slot to `outbox`.
    mutating func fulfill(_ ticket: UInt64, with event: Event<Element>, into outbox: inout Outbox<Element>) {
        guard ticket == nextToSend else {
            finished[ticket] = event
            return
        }
        outbox.send(event)
        nextToSend &+= 1
        guard !finished.isEmpty else { return }
        while let later = finished.removeValue(forKey: nextToSend) {
            outbox.send(later)
            nextToSend &+= 1
        }
    }

    /// Reserves a slot and fills it at once (for events decided under the lock).
    mutating func send(_ event: Event<Element>, into outbox: inout Outbox<Element>) {
        fulfill(reserve(), with: event, into: &outbox)
    }
}

/// How a multi-source operator turns its collected inputs into an output element.
@usableFromInline
enum ResultSelection<Input, Result> {
    /// Streams' own pure function (tuple or array building): runs under the lock, cannot throw.
    case library((Input) -> Result)
    /// A user closure: runs outside the lock, may throw.
    case user((Input) throws -> Result)
}

extension ResultSelection {
    /// Under the lock: sends a library result at once (returning `nil`), or reserves the slot a
    /// user's selector will fill after the lock is released (returning its ticket).
    func begin(_ input: Input, results: inout ResultSequencer<Result>, outbox: inout Outbox<Result>) -> UInt64? {
        switch self {
        case .library(let select):
            results.send(.next(select(input)), into: &outbox)
            return nil
        case .user:
            return results.reserve()
        }
    }
}

/// The state of an operator that emits through a `ResultSequencer`.
protocol SequencedResultsState {
    associatedtype Result
    /// Whether the output has ended (a terminal event was queued).
    var isStopped: Bool { get set }
    /// The output, in input order.
    var results: ResultSequencer<Result> { get set }
}

extension SerializingSink where State: SequencedResultsState, State.Result == Observer.Element {
    /// Runs a user's selector for slot `ticket` with no lock held, then puts its result (or its
    /// error, which ends the output) back in input order. Only the ticket and the input leave the
    /// lock: the selector is read from the operator's immutable `selection` here, since returning
    /// the closure out of the lock costs a heap allocation per element.
    final func finishSelection<Input>(_ ticket: UInt64, _ input: Input, _ selection: ResultSelection<Input, Observer.Element>) {
        guard case .user(let select) = selection, !isDisposed else { return }
        let result: Event<Observer.Element>
        do { result = .next(try select(input)) } catch { result = .error(error) }
        synchronized { state, outbox in
            if result.isStopEvent { state.isStopped = true }
            state.results.fulfill(ticket, with: result, into: &outbox)
        }
    }

    /// Ends the output with `event` unless it has already ended.
    final func stopOutput(with event: Event<Observer.Element>) {
        synchronized { state, outbox in
            guard !state.isStopped else { return }
            state.isStopped = true
            state.results.send(event, into: &outbox)
        }
    }
}
