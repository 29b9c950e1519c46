import Dispatch
import Foundation

/// Runs work on the main queue, at once when already on the main thread: RxSwift's scheduler for
/// `subscribe(on:)` to the main thread (cheaper than ``MainScheduler`` for subscription, since it
/// never queues behind other main-thread work when it can run now).
///
/// Unlike `MainScheduler.instance`, it runs inline on the main thread even when other work is
/// queued; time-based work is delegated to `MainScheduler.instance`.
/// - Important: On Linux the main queue only runs work while the main thread drains it (see
///   ``MainScheduler``). See <doc:Schedulers>.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    // Safety: the only stored property is an immutable, thread-safe scheduler.
    private let mainScheduler: MainScheduler

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

    /// The current time.
    public var now: Date { mainScheduler.now }

    /// Runs `action` at once on the main thread; from another thread, queues it on the main queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if Thread.isMainThread {
            return action(state)
        }
        let cancel = SingleAssignmentDisposable()
        // Safety: ownership of the state and the action passes to the main queue; the caller keeps
        // no reference to them.
        let work = UncheckedSendable((state, action))
        DispatchQueue.main.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    /// Schedules `action` on the main queue after `dueTime` (as `MainScheduler.instance`).
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the main queue periodically (as `MainScheduler.instance`).
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
