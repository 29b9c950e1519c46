import Foundation
import Streams

/// A virtual time scheduler for tests: integer ticks, hot and cold test observables,
/// recording observers, and `start(created:subscribed:disposed:create:)`.
///
/// One tick is `resolution` seconds (default 1), so `.seconds(5)` is 5 ticks. With
/// `simulateProcessingDelay` (the default, as in RxTest), work scheduled through
/// `schedule`/`scheduleRelative` for "now" or earlier runs one tick later, which is why
/// `observe(on: scheduler)` shifts events by one tick. Work placed at a virtual time
/// (`scheduleAt`, `start(created:subscribed:disposed:)`, hot and cold test observables) runs at
/// exactly that time, as in RxTest.
///
/// Marble diagrams (`createHotObservable("--a--|")`, `parseEvents`, `marbles(from:)`) use
/// `frameSize` ticks per frame (10 by default) and put marble time 0 at `marbleOrigin`
/// (200, `Defaults.subscribed`, by default). See <doc:Testing>.
///
/// - Note: Drive the clock (`start()`, `advanceTo(_:)`) from one thread; scheduled work runs on
///   that thread.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    // Safety: adds an immutable flag and the marble settings, which live in a `LockedState`.
    /// Default virtual times used by `start(create:)`.
    public enum Defaults {
        /// When the observable is created (100).
        public static let created: TestTime = 100
        /// When it is subscribed (200).
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed (1000).
        public static let disposed: TestTime = 1000
        /// Ticks per marble frame (10).
        public static let frameSize: TestTime = 10
    }

    private let simulateProcessingDelay: Bool
    private let marbleSettings = LockedState((frameSize: Defaults.frameSize, origin: Defaults.subscribed))

    /// Creates a scheduler at `initialClock`, `resolution` seconds per tick.
    ///
    /// - Parameters:
    ///   - initialClock: The starting virtual time.
    ///   - resolution: Seconds per tick (real time = ticks * resolution).
    ///   - simulateProcessingDelay: When `true`, work scheduled for now or earlier runs at `clock + 1`.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Ticks per marble frame (one `-`); 10 by default. Must be positive.
    public var frameSize: TestTime {
        get { marbleSettings.withLock { $0.frameSize } }
        set {
            precondition(newValue > 0, "TestScheduler.frameSize must be positive")
            marbleSettings.withLock { $0.frameSize = newValue }
        }
    }

    /// The absolute virtual time of marble time 0 for hot and expected marbles: the `^` of a hot
    /// marble, or its first character when it has no `^`. 200 (`Defaults.subscribed`) by default,
    /// so it lines up with `start { ... }`; set it to your `subscribed:` time otherwise.
    public var marbleOrigin: TestTime {
        get { marbleSettings.withLock { $0.origin } }
        set { marbleSettings.withLock { $0.origin = newValue } }
    }

    /// Creates a hot observable that plays `events` at their absolute times.
    ///
    /// Events play whether or not anyone is subscribed: an observer subscribed at 200 misses an
    /// event at 150, and also one at 200 (it was scheduled first, so it plays before the
    /// subscription). Times before the current clock play next, at the current clock.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates a cold observable that plays `events` relative to each subscription.
    ///
    /// Each subscription gets its own copy: an event at time 10 subscribed at 200 plays at 210.
    /// An event at relative time 0 plays at the subscription's own time. Disposing a
    /// subscription cancels its remaining events (they no longer count as pending work).
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

    /// Adds the processing delay to work scheduled (with `scheduleRelative`) for now or earlier.
    ///
    /// Saturating: on a clock at `Int.max` the delay cannot be added and work runs at `Int.max`.
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        let now = clock
        if time > now { return time }
        guard simulateProcessingDelay else { return now }
        let (next, overflow) = now.addingReportingOverflow(1)
        return overflow ? now : next
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`,
    /// runs the scheduler, and returns the observer's recording.
    ///
    /// - Parameters:
    ///   - created: Virtual time at which `create` is called.
    ///   - subscribed: Virtual time at which the created sequence is subscribed.
    ///   - disposed: Virtual time at which the subscription is disposed.
    ///   - create: Builds the sequence under test (anything `ObservableConvertibleType`).
    /// - Returns: An observer holding every event received while subscribed, with its time.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        let state = UncheckedState<Element>()
        let observer = createObserver(Element.self)
        scheduleAt(created) { state.source = create().asObservable() }
        scheduleAt(subscribed) { state.subscription = state.source?.subscribe(observer) }
        scheduleAt(disposed) {
            let subscription = state.subscription
            state.subscription = nil
            state.source = nil
            subscription?.dispose()
        }
        start()
        return observer
    }

    /// `start(created: 100, subscribed: 200, disposed:create:)`.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}

/// Holds the source and subscription of `start(...)` between its scheduled steps.
private final class UncheckedState<Element>: @unchecked Sendable {
    // Safety: only touched by actions of one `TestScheduler`, which runs them one at a time.
    var source: Observable<Element>?
    var subscription: Disposable?
}

/// Converts ``TestScheduler`` ticks: one tick is `resolution` seconds from the epoch.
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

    /// A date to ticks (rounded; saturating at `Int.min` / `Int.max`).
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Self.ticks(time.timeIntervalSince1970 / resolution)
    }

    /// Ticks to seconds.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) * resolution
    }

    /// Seconds to ticks (rounded to the nearest tick; saturating, so infinity is `Int.max`).
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Self.ticks(timeInterval / resolution)
    }

    /// `value` rounded to the nearest tick, clamped to `Int`'s range (NaN is 0).
    private static func ticks(_ value: Double) -> Int {
        let rounded = value.rounded()
        if rounded.isNaN { return 0 }
        if rounded >= Double(Int.max) { return Int.max }
        if rounded <= Double(Int.min) { return Int.min }
        return Int(rounded)
    }

    /// Adds ticks (saturating at `Int.max`, or `Int.min` for a negative offset).
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        guard overflow else { return sum }
        return offset < 0 ? Int.min : Int.max
    }

    /// Compares ticks.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs > rhs ? .greaterThan : .equal)
    }
}
