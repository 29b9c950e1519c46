import Foundation

/// How long a network client waits before reconnecting after consecutive failures: exponential
/// growth from `initialDelay`, capped at `maximumDelay`, with random jitter.
///
/// The `n`-th consecutive failure (1-based) waits
/// `min(initialDelay × multiplier^(n−1), maximumDelay) × (1 − jitter + 2 × jitter × r)`, where `r`
/// in `[0, 1)` comes from the client's random source. With the defaults (1 s, ×2, 60 s, ±50 %)
/// that is 1 s, 2 s, 4 s, … 60 s, each between half and one and a half times as long; with
/// `r = 0.5` exactly the base. A success resets the count (see `ReconnectBackoff`).
public struct BackoffPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The base delay after the first failure, in seconds.
    public var initialDelay: TimeInterval
    /// The factor applied to the base delay after each further failure.
    public var multiplier: Double
    /// The largest base delay, in seconds (jitter may exceed it by up to `jitter` of it).
    public var maximumDelay: TimeInterval
    /// The relative spread of the random jitter, in `[0, 1]`: 0.5 means ±50 %, 0 none.
    public var jitter: Double
    /// How many consecutive failures are retried; `nil` retries forever.
    public var maximumAttempts: Int?

    /// The defaults: 1 s doubling up to 60 s, ±50 % jitter, retrying forever.
    public static let `default` = BackoffPolicy()

    /// Creates a policy. Negative delays count as 0, a multiplier below 1 as 1, and `jitter` is
    /// clamped into `[0, 1]`.
    public init(initialDelay: TimeInterval = 1, multiplier: Double = 2, maximumDelay: TimeInterval = 60, jitter: Double = 0.5, maximumAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
    }

    /// The base delay (without jitter) after the `attempt`-th consecutive failure (1-based).
    public func baseDelay(forAttempt attempt: Int) -> TimeInterval {
        let cap = Self.sanitized(maximumDelay)
        var delay = min(Self.sanitized(initialDelay), cap)
        let factor = multiplier.isFinite ? max(multiplier, 1) : 1
        var step = 1
        while step < attempt, delay > 0, delay < cap, factor > 1 {
            delay = min(delay * factor, cap)
            step += 1
        }
        return delay
    }

    /// The delay after the `attempt`-th consecutive failure (1-based), jittered with `random`
    /// (a draw in `[0, 1)`; values outside are clamped, NaN counts as 0.5).
    public func delay(forAttempt attempt: Int, random: Double) -> TimeInterval {
        let spread = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        return baseDelay(forAttempt: attempt) * (1 - spread + 2 * spread * Self.clamp(random))
    }

    /// Whether the `attempt`-th consecutive failure (1-based) may still be retried.
    public func allowsAttempt(_ attempt: Int) -> Bool {
        maximumAttempts.map { attempt <= $0 } ?? true
    }

    /// The policy as text.
    public var description: String {
        "BackoffPolicy(initialDelay: \(initialDelay), multiplier: \(multiplier), maximumDelay: \(maximumDelay), jitter: \(jitter), maximumAttempts: \(maximumAttempts.map(String.init) ?? "nil"))"
    }

    /// Clamps a random draw into `[0, 1)` (NaN counts as 0.5).
    static func clamp(_ random: Double) -> Double {
        guard !random.isNaN else { return 0.5 }
        return min(max(random, 0), 1.0.nextDown)
    }

    private static func sanitized(_ delay: TimeInterval) -> TimeInterval {
        delay.isNaN ? 0 : max(delay, 0)
    }
}

/// The reconnection state of one network client: counts consecutive failures and hands out
/// the next delay from its ``BackoffPolicy``; a success resets it.
///
///     var backoff = ReconnectBackoff(policy: .default)
///     backoff.nextDelay(random: 0.5)   // 1 s
///     backoff.nextDelay(random: 0.5)   // 2 s
///     backoff.reset()                  // connected: the next failure waits 1 s again
///
/// A value type with no clock: the client schedules the returned delay on its scheduler.
package struct ReconnectBackoff: Sendable, Hashable {
    /// The policy.
    package let policy: BackoffPolicy
    /// Failures since the last success (or since creation).
    package private(set) var consecutiveFailures = 0

    /// Creates the state for `policy`, with no failures.
    package init(policy: BackoffPolicy) {
        self.policy = policy
    }

    /// Records a failure and returns how long to wait before the next attempt, at least
    /// `minimum` (a delay the server asked for), or `nil` when the policy allows no more
    /// attempts.
    package mutating func nextDelay(random: Double, minimum: TimeInterval? = nil) -> TimeInterval? {
        consecutiveFailures += 1
        guard policy.allowsAttempt(consecutiveFailures) else { return nil }
        let delay = policy.delay(forAttempt: consecutiveFailures, random: random)
        guard let minimum, minimum.isFinite else { return delay }
        return max(delay, minimum)
    }

    /// Records a failure, drawing the jitter from `randomSource` (see `nextDelay(random:minimum:)`).
    package mutating func nextDelay(using randomSource: () -> Double, minimum: TimeInterval? = nil) -> TimeInterval? {
        nextDelay(random: randomSource(), minimum: minimum)
    }

    /// Whether the policy allows no more attempts.
    package var isExhausted: Bool {
        !policy.allowsAttempt(consecutiveFailures + 1)
    }

    /// Records a success: the next failure starts over at the initial delay.
    package mutating func reset() {
        consecutiveFailures = 0
    }
}
