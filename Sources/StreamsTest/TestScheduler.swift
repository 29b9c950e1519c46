import Foundation
import Streams

/// A virtual time scheduler for tests: integer ticks, hot and cold test observables,
/// recording observers, and `start(created:subscribed:disposed:create:)`.
///
/// One tick is `resolution` seconds (default 1), so `.seconds(5)` is 5 ticks. With
/// `simulateProcessingDelay` (the default, as in RxTest), work scheduled for "now" runs one
/// tick later, which is why `observe(on: scheduler)` shifts events by one tick.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    // Safety: adds only immutable state to `VirtualTimeScheduler`.
    /// Default virtual times used by `start(create:)`.
    public enum Defaults {
        /// When the observable is created (100).
        public static let created: TestTime = 100
        /// When it is subscribed (200).
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed (1000).
        public static let disposed: TestTime = 1000
    }

    private let simulateProcessingDelay: Bool

    /// Creates a scheduler at `initialClock`, `resolution` seconds per tick.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Creates a hot observable that plays `events` at their absolute times.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates a cold observable that plays `events` relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates an observer that records events with this scheduler's clock.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at virtual time `time`.
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> Disposable {
        scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Adds the processing delay to work scheduled for now or earlier.
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        let now = clock
        return time <= now ? now + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`,
    /// runs the scheduler, and returns the observer's recording.
    public func start<Element>(created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> Observable<Element>) -> TestableObserver<Element> {
        let state = UncheckedState<Element>()
        let observer = createObserver(Element.self)
        scheduleAt(created) { state.source = create() }
        scheduleAt(subscribed) { state.subscription = state.source?.subscribe(observer) }
        scheduleAt(disposed) {
            state.subscription?.dispose()
            state.subscription = nil
            state.source = nil
        }
        start()
        return observer
    }

    /// `start(created: 100, subscribed: 200, disposed:create:)`.
    public func start<Element>(disposed: TestTime, create: @escaping () -> Observable<Element>) -> TestableObserver<Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`.
    public func start<Element>(_ create: @escaping () -> Observable<Element>) -> TestableObserver<Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}

/// Holds the source and subscription of `start(...)` between its scheduled steps.
private final class UncheckedState<Element>: @unchecked Sendable {
    // Safety: only touched by actions of one `TestScheduler`, which runs them one at a time.
    var source: Observable<Element>?
    var subscription: Disposable?
}

/// Converts `TestScheduler` ticks: one tick is `resolution` seconds from the epoch.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType, Sendable {
    /// Seconds per tick.
    public let resolution: Double

    /// Creates a converter with `resolution` seconds per tick.
    public init(resolution: Double) {
        self.resolution = resolution
    }

    /// Ticks to a date.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    /// A date to ticks (rounded).
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((time.timeIntervalSince1970 / resolution).rounded())
    }

    /// Ticks to seconds.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) * resolution
    }

    /// An interval to ticks (rounded to the nearest tick; `.never` is `Int.max`).
    public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> Int {
        let seconds = timeInterval.rxSeconds
        if !seconds.isFinite { return Int.max }
        return Int((seconds / resolution).rounded())
    }

    /// Adds ticks (saturating).
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        return overflow ? Int.max : sum
    }

    /// Compares ticks.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs > rhs ? .greaterThan : .equal)
    }
}
