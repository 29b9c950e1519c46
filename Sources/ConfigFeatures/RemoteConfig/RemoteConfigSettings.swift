import Foundation

/// Fetch settings (Firebase's ``RemoteConfigSettings``): the minimum interval between backend
/// fetches and the fetch timeout, in seconds.
///
/// A class, as in Firebase, so both `let settings = RemoteConfigSettings(); settings.minimumFetchInterval = 0`
/// and the initializer with arguments work. ``RemoteConfig`` reads the object it holds at every
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
    public init(
        minimumFetchInterval: TimeInterval = RemoteConfigSettings.defaultMinimumFetchInterval,
        fetchTimeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout
    ) {
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

/// The exponential backoffs of Remote Config, as ``BackoffPolicy`` values (one formula for every
/// network client; see ``BackoffPolicy``).
///
/// The `n`-th consecutive failure waits `min(base × 2^(n−1), cap) × (0.5 + r)`, where `r` in
/// `[0, 1)` comes from the client's random source (with `r = 0.5`, exactly the base). Firebase
/// uses the same bases and a random ±50 %.
enum RemoteConfigBackoff {
    /// Throttled fetches (HTTP 429/500/503/504): 2 min, 4 min, 8 min, … capped at 4 h.
    static let fetchThrottling = BackoffPolicy(initialDelay: 120, multiplier: 2, maximumDelay: 14_400, jitter: 0.5)

    /// Realtime reconnections: 1 s, 2 s, 4 s, … capped at 64 s; after 7 consecutive failures
    /// `configUpdates` fails.
    static let realtimeReconnection = BackoffPolicy(initialDelay: 1, multiplier: 2, maximumDelay: 64, jitter: 0.5, maximumAttempts: 7)

    /// The fetches made for one realtime invalidation: the second attempt after 1 s, then 2 s;
    /// after 3 attempts `configUpdates` fails with `.notFetched`.
    static let realtimeFetchRetry = BackoffPolicy(initialDelay: 1, multiplier: 2, maximumDelay: .infinity, jitter: 0.5, maximumAttempts: 3)
}
