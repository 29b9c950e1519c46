import Streams

/// The outcome of `RealtimeDatabase.runTransaction(at:update:)` (Firebase's `committed` flag and
/// snapshot).
public struct RealtimeDatabaseTransactionResult: Sendable, Hashable {
    /// Whether the new value was stored (`false` when `update` aborted).
    public let committed: Bool
    /// The stored value when committed (server values resolved), else the value `update` last
    /// saw.
    public let value: JSONValue

    /// Creates an outcome.
    public init(committed: Bool, value: JSONValue) {
        self.committed = committed
        self.value = value
    }
}

/// Transaction constants shared by the backends.
public enum RealtimeDatabaseTransaction {
    /// How many times a transaction tries before giving up (25, as Firebase's SDKs).
    public static let maximumAttempts = 25
}

extension RealtimeDatabase {
    /// Fails with `RealtimeDatabaseError.unsupported`: a custom backend must implement
    /// transactions itself (they need an atomic compare-and-set it alone can offer).
    public func runTransaction(at path: String, update: @escaping (JSONValue) throws -> JSONValue?) -> Single<RealtimeDatabaseTransactionResult> {
        Single.error(RealtimeDatabaseError.unsupported(operation: "runTransaction(at:update:)"))
    }
}
