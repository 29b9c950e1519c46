import Foundation

/// Converts between a virtual time scheduler's clock and real dates and intervals.
public protocol VirtualTimeConverterType {
    /// The virtual clock type.
    associatedtype VirtualTimeUnit
    /// The virtual interval type.
    associatedtype VirtualTimeIntervalUnit

    /// Converts virtual time to a date.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// Converts a date to virtual time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// Converts a virtual interval to a real interval.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// Converts a real interval (seconds) to a virtual interval.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// Adds a virtual interval to a virtual time.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Orders two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// The times are equal.
    case equal
    /// The left time is later.
    case greaterThan
}

/// A scheduler whose clock only moves when told to: `start()`, `advanceTo(_:)`, `sleep(_:)`.
///
/// Work due at the same virtual time runs in the order it was scheduled. Work runs on the
/// thread that drives the clock, outside the scheduler's lock, so actions may schedule more work.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, @unchecked Sendable {
    // Safety: the clock, queue and running flag live in `state`, guarded by its lock;
    // scheduled actions are run outside it by the driving thread.
    /// The virtual time type.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The virtual interval type.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private struct State {
        var clock: VirtualTime
        var running = false
        var nextId = 0
        var queue: PriorityQueue<VirtualSchedulerItem<VirtualTime>>
    }

    private let state: LockedState<State>
    /// The converter between virtual and real time.
    public let converter: Converter

    /// Creates a scheduler starting at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        state = LockedState(State(clock: initialClock, queue: PriorityQueue { lhs, rhs in
            switch converter.compareVirtualTime(lhs.time, rhs.time) {
            case .lessThan: return true
            case .greaterThan: return false
            case .equal: return lhs.id < rhs.id
            }
        }))
    }

    /// The current virtual time.
    public var clock: VirtualTime { state.withLock { $0.clock } }

    /// The current virtual time as a date.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// Whether the clock is currently being driven by `start()` or `advanceTo(_:)`.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// The number of scheduled, not yet run or cancelled, work items.
    public var pendingCount: Int { state.withLock { $0.queue.count } }

    /// Schedules `action` at the current virtual time (it runs when the clock is driven).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current virtual time (adjusted by `adjustScheduledTime(_:)`).
    ///
    /// As in RxSwift, the due time is computed through dates (`now + dueTime`, converted back to
    /// virtual time) and is the only scheduling call that `adjustScheduledTime(_:)` applies to
    /// (`TestScheduler` adds its processing delay there). Intervals follow the library's rule
    /// (Guides/Schedulers.md#time-intervals): a negative `dueTime` means now; `.never`, and a due
    /// time at or after the far future (`Date.distantFuture`, or the latest time the virtual
    /// clock can represent if that is earlier), schedule nothing and return a no-op disposable.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard let time = virtualTime(after: dueTime, advancing: false) else { return Disposables.create() }
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` `dueTime` (virtual units) after the current virtual time, unadjusted.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = self.state.withLock { converter.offsetVirtualTime($0.clock, offset: dueTime) }
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at virtual time `time`, unadjusted (a time in the past runs next, at
    /// the current clock).
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        return self.state.withLock { locked -> VirtualSchedulerItem<VirtualTime> in
            let item = VirtualSchedulerItem(time: time, id: locked.nextId) { action(state) }
            // Set before the item is shared (inserted or returned).
            item.onDispose = { [weak self, weak item] in
                guard let self, let item else { return }
                self.state.withLock { $0.queue.removeAll { $0 === item } }
            }
            locked.nextId += 1
            locked.queue.insert(item)
            return item
        }
    }

    /// Schedules `action` periodically in virtual time.
    ///
    /// The first run is scheduled as by `scheduleRelative` after `startAfter`; each later one
    /// `period` after the previous run, but always at least one step of the virtual clock later
    /// (a non-positive period, or one shorter than a tick, is the smallest period the clock can
    /// represent), so `start()` cannot spin at one instant. A `.never` period runs once; the
    /// schedule ends when its next run would fall in the far future.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        schedulePeriodicByRecursion(state, startAfter: startAfter, period: period, action: action)
    }

    /// Adjusts the due time of work scheduled with `scheduleRelative` (and so `schedule`); the
    /// test scheduler adds its processing delay here.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Runs all scheduled work, moving the clock forward, until none is left or `stop()` is called.
    public func start() {
        guard beginRunning() else { return }
        while let item = nextItem(upTo: nil) { item.invoke() }
        state.withLock { $0.running = false }
    }

    /// Runs the work due up to `virtualTime` and sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRunning() else {
            fatalError("VirtualTimeScheduler.advanceTo called while the scheduler is already running")
        }
        while let item = nextItem(upTo: virtualTime) { item.invoke() }
        state.withLock { state in
            state.running = false
            if converter.compareVirtualTime(state.clock, virtualTime) == .lessThan { state.clock = virtualTime }
        }
    }

    /// Moves the clock forward by `virtualInterval` without running work.
    ///
    /// Sleeping into the past (a negative interval) is a programmer error, as in RxSwift.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let movedBack = state.withLock { state -> Bool in
            let sleepTo = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, state.clock) == .lessThan { return true }
            state.clock = sleepTo
            return false
        }
        precondition(!movedBack, "VirtualTimeScheduler.sleep: can't sleep to the past")
    }

    /// Stops `start()` after the current item.
    public func stop() {
        state.withLock { $0.running = false }
    }

    /// The virtual time `interval` after the current clock, by the rule for intervals; with
    /// `advancing`, at least one step of the clock later. `nil` when it never comes.
    private func virtualTime(after interval: RxTimeInterval, advancing: Bool) -> VirtualTime? {
        let seconds = interval.seconds
        guard seconds.isFinite else { return nil }
        let clock = self.clock
        let now = converter.convertFromVirtualTime(clock)
        var time = converter.convertToVirtualTime(now.addingTimeInterval(Swift.max(0, seconds)))
        if advancing, converter.compareVirtualTime(time, clock) != .greaterThan {
            guard let next = smallestStep(after: clock, at: now) else { return nil }
            time = next
        }
        // Work due now always runs, even on a clock already past the far future.
        if seconds > 0 || advancing, converter.compareVirtualTime(time, farFuture) != .lessThan { return nil }
        return time
    }

    /// The far future: `Date.distantFuture` in virtual time (a converter that saturates maps it
    /// to its latest representable time). Work due then or later never runs.
    private var farFuture: VirtualTime { converter.convertToVirtualTime(.distantFuture) }

    /// The earliest virtual time after `clock` (whose date is `now`) that the converter
    /// distinguishes from it: 1 ns later, doubled until the clock moves (a tick, or the precision
    /// of a `Date`). `nil` if none exists before the far future.
    private func smallestStep(after clock: VirtualTime, at now: RxTime) -> VirtualTime? {
        var step: TimeInterval = 1e-9
        // 1 ns * 2^128 is far beyond `Date.distantFuture`, so the loop always ends.
        for _ in 0..<128 {
            let date = now.addingTimeInterval(step)
            if date >= .distantFuture { return nil }
            let time = converter.convertToVirtualTime(date)
            if converter.compareVirtualTime(time, clock) == .greaterThan { return time }
            step *= 2
        }
        return nil
    }

    private func beginRunning() -> Bool {
        state.withLock { state in
            if state.running { return false }
            state.running = true
            return true
        }
    }

    private func nextItem(upTo limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        state.withLock { state -> VirtualSchedulerItem<VirtualTime>? in
            guard state.running, let first = state.queue.first else { return nil }
            if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
            _ = state.queue.popFirst()
            if converter.compareVirtualTime(state.clock, first.time) == .lessThan { state.clock = first.time }
            return first
        }
    }
}

extension VirtualTimeScheduler: ClockSteppingScheduler {
    /// Schedules `action` `interval` from now but at least one step of the virtual clock later
    /// (adjusted by `adjustScheduledTime(_:)`); nothing if that falls in the far future.
    func scheduleStep<StateType>(_ state: StateType, after interval: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard let time = virtualTime(after: interval, advancing: true) else { return Disposables.create() }
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }
}

/// One unit of work on a virtual time scheduler.
final class VirtualSchedulerItem<Time>: Cancelable, @unchecked Sendable {
    // Safety: `action` and `onDispose` are set before the item is shared and taken out once
    // under `lock`.
    let time: Time
    let id: Int
    private let lock = LockedState((action: (() -> Disposable)?.none, disposed: false))
    private let result = SingleAssignmentDisposable()
    var onDispose: (() -> Void)?

    init(time: Time, id: Int, action: @escaping () -> Disposable) {
        self.time = time
        self.id = id
        lock.withLock { $0.action = action }
    }

    var isDisposed: Bool { lock.withLock { $0.disposed } }

    func invoke() {
        guard let action = lock.withLock({ state -> (() -> Disposable)? in defer { state.action = nil }; return state.disposed ? nil : state.action }) else { return }
        result.setDisposable(action())
    }

    func dispose() {
        let first = lock.withLock { state -> Bool in
            defer { state.disposed = true; state.action = nil }
            return !state.disposed
        }
        guard first else { return }
        result.dispose()
        onDispose?()
    }
}
