/// The virtual times at which a test observable was subscribed and unsubscribed.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// When the subscription started.
    public let subscribe: TestTime
    /// When it was disposed (`Subscription.infinity` if never).
    public let unsubscribe: TestTime

    /// A subscription that was never disposed (`Int.max` as unsubscribe time).
    public static let infinity = TestTime.max

    /// A subscription started at `subscribe` and never disposed.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Subscription.infinity
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe: unsubscribe)`, e.g. `(200: 300)` or `(200: Infinity)` (as RxTest prints it).
    public var debugDescription: String {
        let end = unsubscribe == Subscription.infinity ? "Infinity" : String(unsubscribe)
        return "(\(subscribe): \(end))"
    }
}
