/// A scheduler whose pending timers can be moved to a new due time instead of being replaced
/// (the virtual time schedulers). ``ObservableType/debounce(_:scheduler:)`` restarts its timer for every element: moving
/// it costs no allocation, no cancellation and no dead entry in the scheduler's queue, and
/// orders it exactly as a timer scheduled anew.
protocol TimerMovingScheduler: AnyObject {
    /// Schedules `action` as `scheduleRelative(_:dueTime:action:)` does and returns its work
    /// item, which `move(_:dueTime:)` takes (`nil`: nothing was scheduled).
    func scheduleMovable<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> VirtualWorkItem?

    /// Moves the pending `timer` (from `scheduleMovable` on this scheduler) to `dueTime` from
    /// now, as cancelling it and scheduling its action anew would; `false` (nothing changed) if
    /// it no longer waits (it ran, is running or was cancelled) or that time never comes.
    func move(_ timer: VirtualWorkItem, dueTime: RxTimeInterval) -> Bool
}
