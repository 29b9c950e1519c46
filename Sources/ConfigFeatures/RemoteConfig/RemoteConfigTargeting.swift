import Foundation

/// What a fetch tells the server about the app instance, so the template's conditions can
/// target it: the fields of Firebase's REST fetch body besides the custom signals.
///
/// Set ``RemoteConfig/targeting`` and every fetch request carries it. Over HTTP the backend
/// sends its own app ID, installation ID and ``RemoteConfigAppInfo`` (it knows them), plus
/// `userProperties` and `firstOpenTime` from here; ``InMemoryRemoteConfigBackend`` reads all of
/// it, so a view model's targeting is testable in virtual time:
///
///     remoteConfig.targeting = RemoteConfigTargeting(
///         appID: "1:1234:android:abcd", appInstanceID: "fid-1",
///         appInfo: RemoteConfigAppInfo(platform: .android, appVersion: "2.0.0", languageCode: "ja-JP"))
///
/// See <doc:RemoteConfigConditions>.
public struct RemoteConfigTargeting: Sendable, Hashable {
    /// The Firebase app ID (`1:1234:ios:abcd`), `app.id`; its platform part is `device.os`.
    public var appID: String?
    /// The installation ID (`app_instance_id`), which `percent` conditions hash.
    public var appInstanceID: String?
    /// The app's version, build, language, time zone and platform.
    public var appInfo: RemoteConfigAppInfo?
    /// Google Analytics user properties (`analytics_user_properties`), `app.userProperty[…]`.
    public var userProperties: [String: String]
    /// When the app was first opened (`first_open_time`), `app.firstOpenTimestamp`.
    public var firstOpenTime: Date?

    /// Creates targeting information (all empty by default).
    public init(
        appID: String? = nil, appInstanceID: String? = nil, appInfo: RemoteConfigAppInfo? = nil, userProperties: [String: String] = [:],
        firstOpenTime: Date? = nil
    ) {
        self.appID = appID
        self.appInstanceID = appInstanceID
        self.appInfo = appInfo
        self.userProperties = userProperties
        self.firstOpenTime = firstOpenTime
    }
}
