import Streams

/// An observer that records every event with the test scheduler's virtual time.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    // Safety: `recorded` is guarded by its lock; the scheduler reference is immutable.
    let scheduler: TestScheduler
    private let recorded = LockedEvents<Element>()

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Every event received, with its virtual time.
    public var events: [Recorded<Event<Element>>] { recorded.all }

    /// Records `event` at the scheduler's current time.
    public func on(_ event: Event<Element>) {
        recorded.append(Recorded(time: scheduler.clock, value: event))
    }
}
