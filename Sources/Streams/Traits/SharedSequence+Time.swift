// `Driver`/`Signal` time operators; their timers run on the sharing scheduler
// (`SharingScheduler.make()`, the main scheduler unless mocked).

extension SharedSequenceConvertibleType {
    /// Emits at most one element per `dueTime`: the first, then (when `latest`) the latest of
    /// each period.
    ///
    ///     source: -ab-c------d--|
    ///     output: -a---c-----d--|     (dueTime: 4 frames, latest: true)
    ///
    /// - Parameters:
    ///   - dueTime: The minimum time between two emitted elements.
    ///   - latest: Whether the latest element of a period is emitted when it ends.
    /// - Returns: The throttled shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Emits an element only after `dueTime` passes without another element.
    ///
    ///     source: -a-b----c--|
    ///     output: ------b----(c|)     (dueTime: 3 frames)
    ///
    /// - Parameter dueTime: The quiet period.
    /// - Returns: The debounced shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts every event later by `dueTime`.
    ///
    ///     source: --1--2--|
    ///     output: -----1--2--|     (dueTime: 3 frames)
    ///
    /// - Parameter dueTime: The delay.
    /// - Returns: The delayed shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}
