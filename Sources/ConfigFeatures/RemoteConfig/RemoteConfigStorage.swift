import Foundation

/// What ``RemoteConfig`` persists: the fetched and active configs and the fetch metadata.
///
/// Defaults are not persisted (the app sets them at every launch, before reading values).
public struct RemoteConfigSnapshot: Codable, Sendable, Hashable {
    /// The last fetched config (`nil` before the first successful fetch).
    public var fetched: [String: String]?
    /// The active config: what `configValue(forKey:)` returns as `.remote`.
    public var active: [String: String]
    /// Fetch, activation and throttling state.
    public var metadata: RemoteConfigMetadata

    /// Creates a snapshot.
    public init(fetched: [String: String]? = nil, active: [String: String] = [:], metadata: RemoteConfigMetadata = RemoteConfigMetadata()) {
        self.fetched = fetched
        self.active = active
        self.metadata = metadata
    }
}

/// Fetch, activation and throttling state (Firebase keeps it in user defaults).
public struct RemoteConfigMetadata: Codable, Sendable, Hashable {
    /// The time of the last successful fetch (drives the minimum fetch interval).
    public var lastFetchTime: Date?
    /// The status of the last fetch.
    public var lastFetchStatus: RemoteConfigFetchStatus
    /// The template version of the fetched config.
    public var fetchedTemplateVersion: Int?
    /// The template version of the active config.
    public var activeTemplateVersion: Int?
    /// The ETag of the fetched template, sent back as `If-None-Match`.
    public var eTag: String?
    /// Until when fetches are throttled (`nil`: not throttled).
    public var throttleEndTime: Date?
    /// Consecutive throttling failures (the backoff exponent); reset by a successful fetch.
    public var throttleAttempts: Int
    /// The time of the last activation that changed the active config.
    public var lastActivationTime: Date?

    /// Creates metadata (by default: nothing fetched yet).
    public init(
        lastFetchTime: Date? = nil, lastFetchStatus: RemoteConfigFetchStatus = .noFetchYet, fetchedTemplateVersion: Int? = nil,
        activeTemplateVersion: Int? = nil, eTag: String? = nil, throttleEndTime: Date? = nil, throttleAttempts: Int = 0, lastActivationTime: Date? = nil
    ) {
        self.lastFetchTime = lastFetchTime
        self.lastFetchStatus = lastFetchStatus
        self.fetchedTemplateVersion = fetchedTemplateVersion
        self.activeTemplateVersion = activeTemplateVersion
        self.eTag = eTag
        self.throttleEndTime = throttleEndTime
        self.throttleAttempts = throttleAttempts
        self.lastActivationTime = lastActivationTime
    }
}

/// Where ``RemoteConfig`` keeps its snapshot between launches.
///
/// ``RemoteConfig`` loads once, in its initializer, and saves after every change (fetch result,
/// activation, throttling). It never calls the storage while holding its lock, and saves one
/// at a time, latest state last. Errors are reported through `RemoteConfig.lastStorageError`
/// and `RemoteConfig.storageErrors`, and otherwise ignored: the client keeps working in memory.
public protocol RemoteConfigStorage: Sendable {
    /// The saved snapshot, or `nil` when nothing was saved yet.
    ///
    /// - Throws: ``RemoteConfigStorageError`` (or any error) when a snapshot exists but cannot be read.
    func load() throws -> RemoteConfigSnapshot?

    /// Replaces the saved snapshot.
    func save(_ snapshot: RemoteConfigSnapshot) throws
}

/// A storage that keeps the snapshot in memory: survives a new ``RemoteConfig`` over the same
/// storage object, not a process restart. The default storage.
public final class InMemoryRemoteConfigStorage: RemoteConfigStorage, Sendable {
    // All mutable state is in `state`, guarded by its lock.
    private let state: LockedState<(snapshot: RemoteConfigSnapshot?, saveCount: Int)>

    /// Creates a storage holding `snapshot` (`nil`: empty).
    public init(snapshot: RemoteConfigSnapshot? = nil) {
        state = LockedState((snapshot, 0))
    }

    /// The saved snapshot.
    public var snapshot: RemoteConfigSnapshot? { state.withLock { $0.snapshot } }

    /// How many times `save` was called.
    public var saveCount: Int { state.withLock { $0.saveCount } }

    /// Returns the saved snapshot.
    public func load() throws -> RemoteConfigSnapshot? { state.withLock { $0.snapshot } }

    /// Replaces the saved snapshot.
    public func save(_ snapshot: RemoteConfigSnapshot) throws {
        state.withLock { state in
            state.snapshot = snapshot
            state.saveCount += 1
        }
    }
}
