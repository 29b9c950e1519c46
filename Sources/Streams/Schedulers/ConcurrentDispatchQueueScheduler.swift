import Dispatch
import Foundation

/// Runs work on a (possibly concurrent) dispatch queue.
///
/// - Note: ``ObservableType/observe(on:)`` still delivers events one at a time with this scheduler (it
///   serializes them), but consecutive events may run on different threads.
public final class ConcurrentDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    // Safety: all stored properties are immutable and themselves thread-safe.
    let configuration: DispatchQueueScheduling

    /// Schedules on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueScheduling(queue: queue, leeway: leeway)
    }

    /// Schedules on the global queue of quality `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// The current time.
    public var now: Date { Date() }

    /// Schedules `action` asynchronously on the queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Schedules `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the queue periodically.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
