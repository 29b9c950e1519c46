/// Limits on the shape of Realtime Database data, checked on every path and value: writes,
/// reads, observers, and data received from the server.
///
/// The defaults are Firebase's own limits ("Realtime Database limits",
/// https://firebase.google.com/docs/database/usage/limits, "Data tree"): the maximum depth of
/// child nodes is 32 ("each path in your data tree must be less than 32 levels deep"; read
/// here, as Firebase's client SDKs check it, as at most 32 keys from the root to any node),
/// and a key is at most 768 bytes, UTF-8 encoded. Past them an operation fails with
/// `RealtimeDatabaseError.pathTooDeep(depth:limit:)` or `.keyTooLong(bytes:limit:)`.
///
/// Besides matching the server, the limits bound the work done on data from the network: no
/// operation on a tree recurses, and a tree is never deeper than `maximumDepth`.
/// See <doc:RealtimeDatabaseGuide#Limits>.
public struct RealtimeDatabaseLimits: Sendable, Hashable {
    /// The most keys on the path from the root to any node (32 by default).
    public var maximumDepth: Int
    /// The longest key, in UTF-8 bytes (768 by default).
    public var maximumKeyLength: Int

    /// Firebase's limits: depth 32, keys of 768 bytes.
    public static let firebase = RealtimeDatabaseLimits()

    /// Creates limits (Firebase's by default).
    public init(maximumDepth: Int = 32, maximumKeyLength: Int = 768) {
        self.maximumDepth = maximumDepth
        self.maximumKeyLength = maximumKeyLength
    }
}
