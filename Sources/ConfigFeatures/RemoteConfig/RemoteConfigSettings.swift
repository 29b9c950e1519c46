import Foundation

/// Fetch settings (Firebase's `RemoteConfigSettings`): the minimum interval between backend
/// fetches and the fetch timeout, in seconds.
///
/// A class, as in Firebase, so both `let settings = RemoteConfigSettings(); settings.minimumFetchInterval = 0`
/// and the initializer with arguments work. `RemoteConfig` reads the object it holds at every
/// fetch, so changing it (or assigning `RemoteConfig.configSettings`) affects the next fetch.
///
///     let settings = RemoteConfigSettings()
///     settings.minimumFetchInterval = 0      // development: always fetch
///     let remoteConfig = RemoteConfig(backend: backend, settings: settings, scheduler: MainScheduler.instance)
public final class RemoteConfigSettings: Sendable, Equatable, CustomStringConvertible {
    // Both values live in `values`, guarded by its lock.
    private let values: LockedState<(minimumFetchInterval: TimeInterval, fetchTimeout: TimeInterval)>

    /// Firebase's default minimum fetch interval: 12 hours.
    public static let defaultMinimumFetchInterval: TimeInterval = 43_200
    /// Firebase's default fetch timeout: 60 seconds.
    public static let defaultFetchTimeout: TimeInterval = 60

    /// Creates settings (defaults: 12 h interval, 60 s timeout).
    public init(minimumFetchInterval: TimeInterval = RemoteConfigSettings.defaultMinimumFetchInterval, fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout) {
        values = LockedState((minimumFetchInterval, fetchTimeout))
    }

    /// The minimum time between two backend fetches made by `fetch()` and `fetchAndActivate()`;
    /// a fetch inside it is served from the last fetch. Negative values count as 0.
    public var minimumFetchInterval: TimeInterval {
        get { values.withLock { $0.minimumFetchInterval } }
        set { values.withLock { $0.minimumFetchInterval = newValue } }
    }

    /// How long a backend fetch may take before it fails with `RemoteConfigError.timeout`.
    public var fetchTimeout: TimeInterval {
        get { values.withLock { $0.fetchTimeout } }
        set { values.withLock { $0.fetchTimeout = newValue } }
    }

    /// Whether both settings are equal.
    public static func == (lhs: RemoteConfigSettings, rhs: RemoteConfigSettings) -> Bool {
        lhs.minimumFetchInterval == rhs.minimumFetchInterval && lhs.fetchTimeout == rhs.fetchTimeout
    }

    /// The settings as text.
    public var description: String {
        "RemoteConfigSettings(minimumFetchInterval: \(minimumFetchInterval), fetchTimeout: \(fetchTimeout))"
    }
}

/// The exponential backoff of throttled fetches and realtime reconnections.
///
/// The `n`-th consecutive throttling failure waits `min(2 min × 2^(n−1), 4 h) × (0.5 + r)`,
/// where `r` in `[0, 1)` comes from the client's random source: 2 min, 4 min, 8 min, … capped at
/// 4 h, each jittered by ±50 % (with `r = 0.5`, exactly the base). Firebase uses the same base
/// and a random ±50 %.
enum RemoteConfigBackoff {
    /// The first throttling interval: 2 minutes.
    static let fetchBase: TimeInterval = 120
    /// The largest throttling base interval: 4 hours.
    static let fetchCap: TimeInterval = 14_400

    /// The first realtime reconnection delay: 1 second (then 2, 4, …).
    static let reconnectBase: TimeInterval = 1
    /// The largest realtime reconnection base delay.
    static let reconnectCap: TimeInterval = 64
    /// Consecutive realtime connection failures tolerated before `configUpdates` fails.
    static let maxReconnectAttempts = 7

    /// Fetches made for one realtime invalidation before `configUpdates` fails with `.notFetched`.
    static let maxRealtimeFetchAttempts = 3
    /// The delay before the second realtime fetch attempt (then doubled).
    static let realtimeFetchRetryBase: TimeInterval = 1

    /// `min(base × 2^(attempt−1), cap) × (0.5 + r)`, with `r` clamped into `[0, 1)`.
    static func interval(attempt: Int, base: TimeInterval, cap: TimeInterval, random: Double) -> TimeInterval {
        let exponent = max(0, min(attempt - 1, 62))
        let raw = min(base * pow(2, Double(exponent)), cap)
        return raw * (0.5 + clamp(random))
    }

    /// Clamps a random draw into `[0, 1)` (NaN counts as 0.5).
    static func clamp(_ random: Double) -> Double {
        guard random.isFinite else { return 0.5 }
        return min(max(random, 0), 1.0.nextDown)
    }
}
