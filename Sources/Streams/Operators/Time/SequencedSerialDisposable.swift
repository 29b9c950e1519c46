import Foundation

/// Holds the one pending piece of scheduled work of an operator whose work may be (re)scheduled
/// from two threads: the upstream's and the scheduler's.
///
/// A plain ``SerialDisposable`` keeps whichever disposable was *assigned* last. When the upstream
/// schedules work `a` and, before it can assign `a`, `a` already runs on the scheduler and
/// schedules its follow-up `b`, the late assignment of `a` would dispose `b` and the operator
/// would stall. Here each `replace(_:)` takes a ticket *before* scheduling, and a disposable
/// whose ticket is not the newest when it arrives is superseded (and disposed) instead.
package final class SequencedSerialDisposable: Cancelable, @unchecked Sendable {
    // Safety: all mutable state lives in `state`, guarded by its lock; disposables are only
    // disposed after leaving the lock.
    private struct State {
        var ticket: UInt64 = 0
        var current: Disposable?
        var isDisposed = false
    }

    private let state = LockedState(State())

    /// Holds no work yet.
    package init() {}

    /// Whether it has been disposed.
    package var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Schedules new work with `schedule` (called outside the lock) and makes it the current
    /// work, disposing the previous one; if it was disposed meanwhile, disposes the new work.
    package func replace(_ schedule: () -> Disposable) {
        let ticket = state.withLock { state -> UInt64? in
            guard !state.isDisposed else { return nil }
            state.ticket &+= 1
            return state.ticket
        }
        guard let ticket else { return }
        let disposable = schedule()
        let toDispose = state.withLock { state -> Disposable? in
            if state.isDisposed || state.ticket != ticket { return disposable }
            defer { state.current = disposable }
            return state.current
        }
        toDispose?.dispose()
    }

    /// Makes `disposable` the current work if `order` is not older than the current work's,
    /// disposing the previous one; otherwise (or if disposed) disposes `disposable` itself.
    ///
    /// For work whose order is known up front (for example a timer per element id), where a
    /// reentrant call can store newer work before an outer call stores older work.
    package func replace(order: UInt64, with disposable: Disposable) {
        let toDispose = state.withLock { state -> Disposable? in
            if state.isDisposed || order < state.ticket { return disposable }
            state.ticket = order
            defer { state.current = disposable }
            return state.current
        }
        toDispose?.dispose()
    }

    /// Disposes the current work and every later one.
    package func dispose() {
        let current = state.withLock { state -> Disposable? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}

extension DispatchTimeInterval {
    /// The whole nanoseconds of the span from `earlier` to `later` left of this interval
    /// (`dueTime - (later - earlier)`); zero or less means "due now".
    func nanosecondsRemaining(from earlier: RxTime, to later: RxTime) -> Int64 {
        let seconds = self.seconds - later.timeIntervalSince(earlier)
        if seconds.isInfinite { return seconds > 0 ? Int64.max : Int64.min }
        let nanos = (seconds * 1_000_000_000).rounded()
        if nanos >= Double(Int64.max) { return Int64.max }
        if nanos <= Double(Int64.min) { return Int64.min }
        return Int64(nanos)
    }
}
