import Foundation

/// Where a ``RemoteConfigValue`` came from (Firebase's ``RemoteConfigSource``).
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum RemoteConfigSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The active (fetched, then activated) config.
    case remote
    /// The in-app defaults set with `setDefaults(_:)`.
    case `default`
    /// Neither: the static empty value (`""`, `0`, `false`).
    case `static`
}

/// The outcome of the last fetch (Firebase's ``RemoteConfigFetchStatus``).
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum RemoteConfigFetchStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// No fetch has completed yet.
    case noFetchYet
    /// The last fetch succeeded (from the backend, or served from the last fetch within the interval).
    case success
    /// The last fetch failed (network, timeout, invalid response, other server error).
    case failure
    /// The last fetch was refused by the client-side backoff after the server asked to slow down.
    case throttled
}

/// The outcome of `fetchAndActivate()` (Firebase's ``RemoteConfigFetchAndActivateStatus``).
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum RemoteConfigFetchAndActivateStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The backend was called, and its config was activated.
    case successFetchedFromRemote
    /// The last fetch was still fresh (within the expiration duration), so no backend call was
    /// made; that already fetched config was activated.
    case successUsingPreFetchedData
    /// The fetch failed. Kept for parity with Firebase: `fetchAndActivate()` reports failures as
    /// an `error` event carrying a ``RemoteConfigError``, so it never emits this value.
    case error
}

/// A realtime update: the keys whose fetched value differs from the active one
/// (Firebase's ``RemoteConfigUpdate``). Call `activate()` to apply them.
public struct RemoteConfigUpdate: Sendable, Hashable {
    /// Keys added, changed or removed in the fetched config compared with the active one.
    public let updatedKeys: Set<String>

    /// Creates an update for `updatedKeys`.
    public init(updatedKeys: Set<String>) {
        self.updatedKeys = updatedKeys
    }
}

extension RemoteConfigUpdate {
    /// The keys that differ between two configs: added, removed, or with a different value.
    static func diff(_ new: [String: String], _ old: [String: String]) -> Set<String> {
        var keys = Set<String>()
        for (key, value) in new where old[key] != value { keys.insert(key) }
        for key in old.keys where new[key] == nil { keys.insert(key) }
        return keys
    }
}
