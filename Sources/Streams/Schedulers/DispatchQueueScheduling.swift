import Dispatch
import Foundation

/// Scheduling on a dispatch queue, shared by the dispatch-based schedulers.
struct DispatchQueueScheduling: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

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
        let deadline = DispatchTime.now() + dueTime
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

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: DispatchTime.now() + startAfter, repeating: period, leeway: leeway)
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

/// A mutable reference box whose user documents why access is serialized.
final class UncheckedBox<Value>: @unchecked Sendable {
    // Safety: each construction site documents the serialization of `value`.
    var value: Value
    init(_ value: Value) { self.value = value }
}
