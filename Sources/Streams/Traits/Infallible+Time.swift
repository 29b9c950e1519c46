// `Infallible`'s rate limiting: `debounce` and `throttle`.

extension InfallibleType {
    /// Emits an element only after `dueTime` passes without another element.
    ///
    ///     source: -a-b----c--|
    ///     output: ------b----(c|)     (dueTime: 3 frames)
    ///
    /// - Parameters:
    ///   - dueTime: The quiet period.
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The debounced sequence.
    /// - Note: Delivers on `scheduler` (the completion on the source's). See <doc:Time>.
    @_alwaysEmitIntoClient
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Emits at most one element per `dueTime`: the first, then (when `latest`) the latest of
    /// each period.
    ///
    ///     source: -ab-c------d--|
    ///     output: -a---c-----d--|     (dueTime: 4 frames, latest: true)
    ///
    /// - Parameters:
    ///   - dueTime: The minimum time between two emitted elements.
    ///   - latest: Whether the latest element of a period is emitted when it ends.
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The throttled sequence.
    /// - Note: Delivers on the source's scheduler or `scheduler`. See <doc:Time>.
    @_alwaysEmitIntoClient
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }
}
