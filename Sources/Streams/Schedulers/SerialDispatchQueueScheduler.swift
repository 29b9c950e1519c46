import Dispatch
import Foundation

/// Runs work serially on a dispatch queue (an internal serial queue targeting the given one).
///
/// Use it to move work off the main thread while keeping events in order: ``ObservableType/observe(on:)`` with
/// this scheduler never delivers two events at once.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    // Safety: all stored properties are immutable and themselves thread-safe.
    let configuration: DispatchQueueScheduling

    /// Schedules on `serialQueue`, which must be serial.
    public init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueScheduling(queue: serialQueue, leeway: leeway)
    }

    /// Schedules on a new serial queue named `internalSerialQueueName`.
    public convenience init(
        internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil, leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName)
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// Schedules on a new serial queue that targets `queue`.
    public convenience init(queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(serialQueue: DispatchQueue(label: internalSerialQueueName, target: queue), leeway: leeway)
    }

    /// Schedules on a new serial queue that targets the global queue of quality `qos`.
    public convenience init(
        qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial", leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName, leeway: leeway)
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
