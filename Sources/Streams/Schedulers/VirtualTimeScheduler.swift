import Foundation
import Synchronization

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
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
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
    // Safety: the clock (`currentClock`), the work queue and the running flag are read and
    // written only under `queue.lock`; `currentDate` is written only under it too (with the
    // clock) and read through an atomic; scheduled actions are run outside the lock by the
    // driving thread.
    /// The virtual time type.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The virtual interval type.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    // Plain fields under the queue's lock, not a generic state struct, so that per-item code
    // needs no runtime metadata lookup.
    private let queue: VirtualWorkQueue
    @exclusivity(unchecked) private var currentClock: VirtualTime
    /// `currentClock` as a date (the bits of its `timeIntervalSinceReferenceDate`), kept with it
    /// (`setClock(_:)`), so that `now` reads one word instead of copying the generic clock out
    /// of the lock and converting it (~300 instructions per read in unspecialized code), and
    /// without taking the lock (~120 instructions per read: throttle reads `now` for every
    /// element; see <doc:Performance>).
    private let currentDate: Atomic<UInt64>
    /// The converter between virtual and real time.
    public let converter: Converter
    /// `VirtualSchedulerItem<VirtualTime>`, looked up once here: naming it in the unspecialized
    /// scheduling code asks the runtime for its metadata on every item (~330 instructions; see
    /// <doc:Performance>).
    private let itemType: VirtualSchedulerItem<VirtualTime>.Type

    /// Creates a scheduler starting at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        currentClock = initialClock
        currentDate = Atomic(converter.convertFromVirtualTime(initialClock).timeIntervalSinceReferenceDate.bitPattern)
        itemType = VirtualSchedulerItem<VirtualTime>.self
        queue = VirtualWorkQueue { lhs, rhs in
            let lhsTime = unsafeDowncast(lhs, to: VirtualSchedulerItem<Converter.VirtualTimeUnit>.self).time
            let rhsTime = unsafeDowncast(rhs, to: VirtualSchedulerItem<Converter.VirtualTimeUnit>.self).time
            switch converter.compareVirtualTime(lhsTime, rhsTime) {
            case .lessThan: return true
            case .greaterThan: return false
            case .equal: return lhs.id < rhs.id
            }
        }
    }

    /// Lets go of the work that never ran: its closures (and what they capture: observers, test
    /// observables' playback) are released with the scheduler, so nothing it held leaks.
    deinit {
        let abandoned = queue.lock.withLock { _ in queue.abandonAll() }
        _ = abandoned  // released after the lock
    }

    /// The current virtual time.
    public var clock: VirtualTime { queue.lock.withLock { _ in currentClock } }

    /// The current virtual time as a date.
    public var now: RxTime {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: currentDate.load(ordering: .acquiring)))
    }

    /// Whether the clock is currently being driven by `start()` or `advanceTo(_:)`.
    public var isRunning: Bool { queue.lock.withLock { _ in queue.running } }

    /// The number of scheduled, not yet run or cancelled, work items.
    public var pendingCount: Int { queue.lock.withLock { _ in queue.pendingCount } }

    /// Schedules `action` at the current virtual time (it runs when the clock is driven).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current virtual time (adjusted by `adjustScheduledTime(_:)`).
    ///
    /// As in RxSwift, the due time is computed through dates (`now + dueTime`, converted back to
    /// virtual time) and is the only scheduling call that `adjustScheduledTime(_:)` applies to
    /// (`TestScheduler` adds its processing delay there). Intervals follow the library's rule
    /// (<doc:Schedulers#Time-intervals>): a negative `dueTime` means now; `.never`, and a due
    /// time at or after the far future (`Date.distantFuture`, or the latest time the virtual
    /// clock can represent if that is earlier), schedule nothing and return a no-op disposable.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        schedule(state, after: dueTime, advancing: false, action: action)
    }

    /// Schedules `action` `dueTime` (virtual units) after the current virtual time, unadjusted.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable
    {
        let time = queue.lock.withLock { _ in converter.offsetVirtualTime(currentClock, offset: dueTime) }
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at virtual time `time`, unadjusted (a time in the past runs next, at
    /// the current clock).
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        insertItem(state, time: time, action: action)
    }

    /// Queues `action` at `time` and returns its work item.
    private func insertItem<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> VirtualWorkItem {
        let queue = self.queue
        let itemType = self.itemType
        return queue.lock.withLock { _ -> VirtualWorkItem in
            let item = itemType.init(time: time, id: queue.takeId(), queue: queue) { action(state) }
            queue.insert(item)
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
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        schedulePeriodicByRecursion(state, startAfter: startAfter, period: period, action: action)
    }

    /// Adjusts the due time of work scheduled with `scheduleRelative` (and so `schedule`); the
    /// test scheduler adds its processing delay here.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Runs all scheduled work, moving the clock forward, until none is left or `stop()` is called.
    @_specialize(where Converter == HistoricalSchedulerTimeConverter)
    public func start() {
        guard beginRunning() else { return }
        while let (item, action) = nextItem(upTo: clock, limited: false) { item.setResult(action()) }
        queue.lock.withLock { _ in queue.running = false }
    }

    /// Runs the work due up to `virtualTime` and sets the clock to it.
    ///
    /// One lock per item run, plus one: starting, taking the next due item and finishing (when
    /// none is left) share it. Like `start()` and moving a timer, pre-specialized for
    /// ``HistoricalScheduler`` (`@_specialize`): the generic code copies and compares the clock
    /// through its converter's witnesses and value witnesses, ~40 % of a debounced element's
    /// instructions (see <doc:Performance>).
    @_specialize(where Converter == HistoricalSchedulerTimeConverter)
    public func advanceTo(_ virtualTime: VirtualTime) {
        var step = queue.lock.withLock { _ -> AdvanceStep in
            if queue.running { return .alreadyRunning }
            queue.running = true
            return takeDue(upTo: virtualTime)
        }
        // Each step is consumed, not copied: its item and action move out of it without a
        // retain and a release apiece.
        while true {
            switch consume step {
            case .run(let item, let action):
                item.setResult(action())
                step = queue.lock.withLock { _ in takeDue(upTo: virtualTime) }
            case .finished:
                return
            case .alreadyRunning:
                fatalError("VirtualTimeScheduler.advanceTo called while the scheduler is already running")
            }
        }
    }

    /// Takes the next item due at or before `limit` and its action, moving the clock to its due
    /// time; when none is due (or the run was stopped), ends the run and moves the clock to
    /// `limit` (call under `queue.lock`, running).
    private func takeDue(upTo limit: VirtualTime) -> AdvanceStep {
        if let (item, action) = nextDue(upTo: limit, limited: true) { return .run(item, action) }
        queue.running = false
        if converter.compareVirtualTime(currentClock, limit) == .lessThan { setClock(limit) }
        return .finished
    }

    /// Moves the clock forward by `virtualInterval` without running work.
    ///
    /// Sleeping into the past (a negative interval) is a programmer error, as in RxSwift.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let movedBack = queue.lock.withLock { _ -> Bool in
            let sleepTo = converter.offsetVirtualTime(currentClock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, currentClock) == .lessThan { return true }
            setClock(sleepTo)
            return false
        }
        precondition(!movedBack, "VirtualTimeScheduler.sleep: can't sleep to the past")
    }

    /// Stops `start()` after the current item.
    public func stop() {
        queue.lock.withLock { _ in queue.running = false }
    }

    /// Schedules `action` at the virtual time `interval` after the current clock, by the rule for
    /// intervals (with `advancing`, at least one step of the clock later), adjusted by
    /// `adjustScheduledTime(_:)`; nothing when that time never comes. (No `VirtualTime?` on this
    /// path: in unspecialized code each optional of the generic time is a metadata lookup.)
    private func schedule<StateType>(_ state: StateType, after interval: RxTimeInterval, advancing: Bool, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        let item = withDueTime(after: interval, advancing: advancing) { time in insertItem(state, time: time, action: action) }
        if let item { return item }
        return Disposables.create()
    }

    /// Calls `body` with the adjusted virtual time `interval` after the current clock (see
    /// `schedule(_:after:advancing:action:)`) and returns its result; `nil` when that time never
    /// comes.
    @inline(__always)
    private func withDueTime(after interval: RxTimeInterval, advancing: Bool, _ body: (VirtualTime) -> VirtualWorkItem?) -> VirtualWorkItem? {
        let seconds = interval.seconds
        guard seconds.isFinite else { return nil }
        var time: VirtualTime
        if advancing {
            time = clock
            guard steppedTime(seconds, into: &time) else { return nil }
        } else {
            // `now` is one atomic read: no generic clock copied out of the lock.
            time = converter.convertToVirtualTime(now.addingTimeInterval(Swift.max(0, seconds)))
        }
        // Work due now always runs, even on a clock already past the far future.
        if seconds > 0 || advancing, converter.compareVirtualTime(time, farFuture) != .lessThan { return nil }
        return body(adjustScheduledTime(time))
    }

    /// The far future: `Date.distantFuture` in virtual time (a converter that saturates maps it
    /// to its latest representable time). Work due then or later never runs.
    private var farFuture: VirtualTime { converter.convertToVirtualTime(.distantFuture) }

    /// Sets `time` (the clock on entry) to the clock plus `seconds`, but at least one step of
    /// the clock later; `false` if no such time exists before the far future.
    @inline(never)
    private func steppedTime(_ seconds: TimeInterval, into time: inout VirtualTime) -> Bool {
        let clock = time
        let now = converter.convertFromVirtualTime(clock)
        time = converter.convertToVirtualTime(now.addingTimeInterval(Swift.max(0, seconds)))
        if converter.compareVirtualTime(time, clock) == .greaterThan { return true }
        return smallestStep(after: clock, at: now, into: &time)
    }

    /// Sets `time` to the earliest virtual time after `clock` (whose date is `now`) that the
    /// converter distinguishes from it: 1 ns later, doubled until the clock moves (a tick, or the
    /// precision of a `Date`). `false` if none exists before the far future. (An `inout` result,
    /// not a `VirtualTime?`: naming that optional in `schedule` cost a metadata lookup on every
    /// scheduling call, even those that never step.)
    @inline(never)
    private func smallestStep(after clock: VirtualTime, at now: RxTime, into time: inout VirtualTime) -> Bool {
        var step: TimeInterval = 1e-9
        // 1 ns * 2^128 is far beyond `Date.distantFuture`, so the loop always ends.
        for _ in 0..<128 {
            let date = now.addingTimeInterval(step)
            if date >= .distantFuture { return false }
            time = converter.convertToVirtualTime(date)
            if converter.compareVirtualTime(time, clock) == .greaterThan { return true }
            step *= 2
        }
        return false
    }

    private func beginRunning() -> Bool {
        queue.lock.withLock { _ in
            if queue.running { return false }
            queue.running = true
            return true
        }
    }

    /// Takes the next item due at or before `limit` (if `limited`; any otherwise) and its action,
    /// moving the clock to its due time; `nil` when none is due or the run was stopped.
    private func nextItem(upTo limit: VirtualTime, limited: Bool) -> (VirtualWorkItem, () -> Disposable)? {
        queue.lock.withLock { _ in nextDue(upTo: limit, limited: limited) }
    }

    /// Moves the clock (call under `queue.lock`).
    private func setClock(_ time: VirtualTime) {
        currentClock = time
        currentDate.store(converter.convertFromVirtualTime(time).timeIntervalSinceReferenceDate.bitPattern, ordering: .releasing)
    }

    /// `nextItem(upTo:limited:)`'s work (call under `queue.lock`).
    private func nextDue(upTo limit: VirtualTime, limited: Bool) -> (VirtualWorkItem, () -> Disposable)? {
        while queue.running, let first = queue.first() {
            let time = unsafeDowncast(first, to: VirtualSchedulerItem<VirtualTime>.self).time
            if limited, converter.compareVirtualTime(time, limit) == .greaterThan { return nil }
            if converter.compareVirtualTime(currentClock, time) == .lessThan { setClock(time) }
            if let action = queue.popFirst() { return (first, action) }
        }
        return nil
    }
}

/// What `advanceTo(_:)` does next (outside the generic scheduler, so naming it needs no
/// metadata lookup).
private enum AdvanceStep {
    /// Another `start()` or `advanceTo(_:)` is running: a programmer error.
    case alreadyRunning
    /// Nothing more is due: the run has ended and the clock has moved.
    case finished
    /// Run this item's action (the clock is at its due time).
    case run(VirtualWorkItem, () -> Disposable)
}

extension VirtualTimeScheduler: TimerMovingScheduler {
    /// Schedules `action` as `scheduleRelative(_:dueTime:action:)` does and returns its work
    /// item (`nil`: nothing was scheduled).
    func scheduleMovable<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> VirtualWorkItem? {
        withDueTime(after: dueTime, advancing: false) { time in insertItem(state, time: time, action: action) }
    }

    /// Moves the pending `timer` to `dueTime` after the current clock, computed and ordered
    /// exactly as `scheduleRelative(_:dueTime:action:)` would schedule it anew; `false` (nothing
    /// changed) if it no longer waits or that time never comes.
    @_specialize(where Converter == HistoricalSchedulerTimeConverter)
    func move(_ timer: VirtualWorkItem, dueTime: RxTimeInterval) -> Bool {
        let queue = self.queue
        let moved = withDueTime(after: dueTime, advancing: false) { time in
            queue.lock.withLock { _ -> VirtualWorkItem? in
                guard queue.isPending(timer) else { return nil }
                // Every item of this queue is a `VirtualSchedulerItem<VirtualTime>`.
                unsafeDowncast(timer, to: VirtualSchedulerItem<VirtualTime>.self).time = time
                queue.requeue(timer, id: queue.takeId())
                return timer
            }
        }
        return moved != nil
    }
}

extension VirtualTimeScheduler: ClockSteppingScheduler {
    /// Schedules `action` `interval` from now but at least one step of the virtual clock later
    /// (adjusted by `adjustScheduledTime(_:)`); nothing if that falls in the far future.
    func scheduleStep<StateType>(_ state: StateType, after interval: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        schedule(state, after: interval, advancing: true, action: action)
    }
}
