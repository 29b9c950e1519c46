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
enum ResultSelection<Input, Result> {
    /// Streams' own pure function (tuple or array building): runs under the lock, cannot throw.
    case library((Input) -> Result)
    /// A user closure: runs outside the lock, may throw.
    case user((Input) throws -> Result)
}
