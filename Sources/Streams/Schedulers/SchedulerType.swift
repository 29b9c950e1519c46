import Dispatch
import Foundation

/// A time interval for schedulers: `.seconds(1)`, `.milliseconds(300)`, … (as in RxSwift 6).
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time for schedulers.
public typealias RxTime = Date

/// A scheduler that runs work "now", without time-based operations.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`.
    ///
    /// - Returns: A disposable that cancels the action if it has not started yet.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler with a clock: runs work now, after a delay, or periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` to run first after `startAfter`, then every `period`, threading its state.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
}

extension ImmediateSchedulerType {
    /// Schedules `action`, which may ask to run again through `recurse` without growing the stack.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursion = RecursiveScheduling(scheduler: self, action: action)
        recursion.schedule(state)
        return recursion
    }
}

extension SchedulerType {
    /// A periodic schedule built from relative scheduling (for schedulers without a native timer:
    /// the virtual-time schedulers, which run one item at a time).
    ///
    /// The first run follows the rule for due times (`scheduleRelative`); every later one is
    /// scheduled with `schedulePeriodStep`, so a non-positive or too short `period` still moves
    /// the clock, and a `.never` period stops after the first run (<doc:Schedulers#Time-intervals>).
    /// Each run schedules the next one *before* running `action`, as RxSwift's
    /// `SchedulePeriodicRecursive` does: work that `action` schedules for the instant of the next
    /// run runs after that run.
    func schedulePeriodicByRecursion<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let serial = SerialDisposable()
        let cancelled = BooleanDisposable()
        let current = PeriodicState(state)
        func run(_: Void) -> Disposable {
            guard !cancelled.isDisposed else { return Disposables.create() }
            serial.disposable = schedulePeriodStep((), after: period, action: run)
            current.value = action(current.value)
            return Disposables.create()
        }
        serial.disposable = scheduleRelative((), dueTime: startAfter, action: run)
        return Disposables.create(cancelled, serial)
    }

    /// Schedules the next run of periodic work (``ObservableType/interval(_:scheduler:)``, `timer(_:period:)`, the time span of
    /// ``ObservableType/buffer(timeSpan:count:scheduler:)`` and ``ObservableType/window(timeSpan:count:scheduler:)``) `period` from now, by the rule for periods: a period that is not
    /// positive, or too short for the scheduler's clock, is the smallest step the clock can take
    /// (one tick of virtual time, 1 ns elsewhere), so periodic work can neither trap nor spin at
    /// one instant. `.never` schedules nothing.
    func schedulePeriodStep<StateType>(_ state: StateType, after period: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let stepping = self as? any ClockSteppingScheduler {
            return stepping.scheduleStep(state, after: period, action: action)
        }
        guard let nanoseconds = period.saturatingNanoseconds else { return Disposables.create() }
        return scheduleRelative(state, dueTime: nanoseconds > 0 ? period : .nanoseconds(1), action: action)
    }
}

/// A scheduler whose clock can be asked for "strictly later than now" (the virtual time
/// schedulers, where a zero delay would otherwise run again at the same instant).
protocol ClockSteppingScheduler: SchedulerType {
    /// Schedules `action` `interval` from now, but at least one step of the clock later;
    /// nothing when that time never comes.
    func scheduleStep<StateType>(_ state: StateType, after interval: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// Runs a recursive action on a scheduler: each `recurse` schedules one more run.
private final class RecursiveScheduling<State>: Cancelable, @unchecked Sendable {
    // Safety: the pending disposables are guarded by `state`'s lock; the action runs outside it,
    // and a scheduler runs the actions of one recursion one at a time (each is scheduled by the
    // previous one).
    private let scheduler: ImmediateSchedulerType
    private let action: (State, (State) -> Void) -> Void
    private let state = LockedState((isDisposed: false, pending: [UInt64: Disposable](), finished: Set<UInt64>(), nextKey: UInt64(0)))

    init(scheduler: ImmediateSchedulerType, action: @escaping (State, (State) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func schedule(_ value: State) {
        let key = state.withLock { state -> UInt64? in
            guard !state.isDisposed else { return nil }
            defer { state.nextKey &+= 1 }
            return state.nextKey
        }
        guard let key else { return }
        // The scheduled action holds `self` strongly (as RxSwift does): the recursion keeps
        // running even if the caller drops the returned disposable. The reference is released
        // when the action has run or is disposed.
        let disposable = scheduler.schedule(value) { value in
            self.state.withLock { state in
                if state.pending.removeValue(forKey: key) == nil { state.finished.insert(key) }
            }
            if self.isDisposed { return Disposables.create() }
            self.action(value, { self.schedule($0) })
            return Disposables.create()
        }
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            if state.finished.remove(key) == nil { state.pending[key] = disposable }
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    func dispose() {
        let pending = state.withLock { state -> [Disposable] in
            state.isDisposed = true
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for disposable in pending { disposable.dispose() }
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never` is `.infinity`).
    public var rxSeconds: Double { seconds }

    /// The interval in seconds (`.never` is `.infinity`).
    var seconds: Double {
        switch self {
        case .seconds(let value): return Double(value)
        case .milliseconds(let value): return Double(value) / 1_000
        case .microseconds(let value): return Double(value) / 1_000_000
        case .nanoseconds(let value): return Double(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// The interval in whole nanoseconds, saturating at `Int64.min` / `Int64.max`; `nil` for `.never`.
    var saturatingNanoseconds: Int64? {
        func scaled(_ value: Int, by factor: Int64) -> Int64 {
            let (product, overflow) = Int64(value).multipliedReportingOverflow(by: factor)
            if overflow { return value < 0 ? .min : .max }
            return product
        }
        switch self {
        case .seconds(let value): return scaled(value, by: 1_000_000_000)
        case .milliseconds(let value): return scaled(value, by: 1_000_000)
        case .microseconds(let value): return scaled(value, by: 1_000)
        case .nanoseconds(let value): return Int64(value)
        case .never: return nil
        @unknown default: return nil
        }
    }

    /// Builds an interval from seconds, rounded to nanoseconds; saturating (infinity is `.never`,
    /// NaN is zero), so no value traps.
    static func fromSeconds(_ seconds: Double) -> DispatchTimeInterval {
        if seconds.isNaN { return .nanoseconds(0) }
        if seconds == .infinity { return .never }
        let nanoseconds = (seconds * 1_000_000_000).rounded()
        if let exact = Int(exactly: nanoseconds) { return .nanoseconds(exact) }
        return .seconds(Int(clampingSeconds: seconds))
    }
}

extension Int {
    /// `seconds` rounded to a whole number, clamped to `Int`'s range (NaN is 0).
    init(clampingSeconds seconds: Double) {
        let rounded = seconds.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= Double(Int.max) {
            self = .max
        } else if rounded <= Double(Int.min) {
            self = .min
        } else {
            self = Int(rounded)
        }
    }
}

extension Date {
    /// `self` moved by `interval`.
    func adding(_ interval: RxTimeInterval) -> Date {
        addingTimeInterval(interval.seconds)
    }
}

/// The state a periodic schedule hands from one run to the next.
private final class PeriodicState<Value> {
    // Not Sendable: only the runs of one schedule touch it, one at a time (a virtual-time
    // scheduler runs one item at a time).
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
