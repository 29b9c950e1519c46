import Dispatch
import Foundation

/// Scheduling on a dispatch queue, shared by the dispatch-based schedulers.
///
/// Intervals follow the library's rule (<doc:Schedulers#Time-intervals>): a negative due time
/// is now; `.never`, or a deadline that saturates at `DispatchTime.distantFuture`, schedules
/// nothing (the returned disposable is a no-op); a period that is not positive is 1 ns; a
/// negative leeway is zero. Every interval is converted to nanoseconds with saturating
/// arithmetic before Dispatch sees it, since Dispatch traps on a negative repeat interval or
/// leeway.
struct DispatchQueueScheduling: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    init(queue: DispatchQueue, leeway: DispatchTimeInterval) {
        self.queue = queue
        self.leeway = Self.leeway(leeway)
    }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // Safety: the action and its state are handed over to the queue; the caller keeps no
        // reference to either, so only the queue's thread touches them.
        let work = UncheckedSendable((state, action))
        queue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard let deadline = Self.deadline(after: dueTime) else { return Disposables.create() }
        let compositeDisposable = CompositeDisposable()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Safety: as in `schedule`, the queue owns the action once it is handed over.
        let work = UncheckedSendable((state, action))
        timer.schedule(deadline: deadline, leeway: leeway)
        timer.setEventHandler {
            if compositeDisposable.isDisposed { return }
            compositeDisposable.insert(work.value.1(work.value.0))
            timer.cancel()
        }
        timer.resume()
        compositeDisposable.insert(Disposables.create { timer.cancel() })
        return compositeDisposable
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        guard let deadline = Self.deadline(after: startAfter) else { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: deadline, repeating: Self.repeating(period), leeway: leeway)
        // Safety: the state and action are only touched by the timer's event handler, which the
        // serial delivery of a dispatch source never runs concurrently with itself.
        let box = UncheckedBox((state, action))
        let cancelled = BooleanDisposable()
        timer.setEventHandler {
            if cancelled.isDisposed { return }
            box.value.0 = box.value.1(box.value.0)
        }
        timer.resume()
        return Disposables.create {
            cancelled.dispose()
            timer.cancel()
        }
    }
}

extension DispatchQueueScheduling {
    /// The deadline `interval` from now: a negative interval is now; `nil` (never) for `.never`
    /// and for a deadline Dispatch saturates to `DispatchTime.distantFuture`.
    static func deadline(after interval: RxTimeInterval) -> DispatchTime? {
        guard let nanoseconds = interval.saturatingNanoseconds else { return nil }
        let deadline = DispatchTime.now() + dispatchInterval(nanoseconds: max(0, nanoseconds))
        return deadline == .distantFuture ? nil : deadline
    }

    /// The repeat interval of a timer for `period`: at least 1 ns; `.never` repeats never.
    static func repeating(_ period: RxTimeInterval) -> DispatchTimeInterval {
        guard let nanoseconds = period.saturatingNanoseconds else { return .never }
        return dispatchInterval(nanoseconds: max(1, nanoseconds))
    }

    /// The leeway Dispatch accepts for `leeway`: a negative one is zero.
    static func leeway(_ leeway: DispatchTimeInterval) -> DispatchTimeInterval {
        guard let nanoseconds = leeway.saturatingNanoseconds else { return .never }
        return dispatchInterval(nanoseconds: max(0, nanoseconds))
    }

    /// A non-negative nanosecond count as an interval Dispatch converts without overflow
    /// (whole seconds when the count does not fit `Int`, as on 32-bit platforms).
    private static func dispatchInterval(nanoseconds: Int64) -> DispatchTimeInterval {
        if let exact = Int(exactly: nanoseconds) { return .nanoseconds(exact) }
        return .seconds(Int(clamping: nanoseconds / 1_000_000_000))
    }
}

/// A mutable reference box whose user documents why access is serialized.
final class UncheckedBox<Value>: @unchecked Sendable {
    // Safety: each construction site documents the serialization of `value`.
    var value: Value
    init(_ value: Value) { self.value = value }
}
