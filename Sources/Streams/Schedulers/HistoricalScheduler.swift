import Foundation

/// A virtual time scheduler whose clock is a `Date`.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    // Safety: adds no state to `VirtualTimeScheduler`.
    /// Creates a scheduler starting at `initialClock`.
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// Converts the historical scheduler's `Date` clock.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// Creates a converter.
    public init() {}

    /// Identity.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    /// Identity.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    /// Identity.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval { virtualTimeInterval }
    /// Identity.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
    /// Adds seconds.
    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime { time.addingTimeInterval(offset) }
    /// Compares dates.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs > rhs ? .greaterThan : .equal)
    }
}
