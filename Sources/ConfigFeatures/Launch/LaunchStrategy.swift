/// How ``LaunchViewModel`` gets its config at launch (Firebase's two loading strategies).
///
/// See <doc:Features-Launch>.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum LaunchStrategy: Sendable, Hashable, CaseIterable {
    /// Fetch and activate while the splash shows, then show the first screen with fresh values.
    ///
    /// The splash stays until the fetch finishes or the timeout fires, whichever comes first; on
    /// timeout or failure the launch goes on with the persisted values (or the defaults).
    case fetchAndActivateBeforeShowing

    /// Activate the values persisted by the previous session and show at once; fetch in the
    /// background for the *next* launch (the fetched values are not activated in this session,
    /// so the screen never changes under the user -- Firebase's recommended strategy).
    case activateCachedThenFetch
}
