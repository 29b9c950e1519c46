import Foundation

/// What a condition is evaluated against: what one fetch says about the app instance, plus
/// what the server knows (its clock, the country it locates the request in).
///
/// `FirebaseTestServer` builds it from the REST fetch body; ``InMemoryRemoteConfigBackend``
/// from ``RemoteConfigFetchRequest``. A `nil` field makes every element that reads it false
/// (as Firebase treats a missing signal).
package struct RemoteConfigConditionContext: Sendable {
    /// The Firebase app ID (`1:1234:ios:abcd`): `app.id`.
    package var appID: String?
    /// `app.version`.
    package var appVersion: String?
    /// `app.build`.
    package var appBuild: String?
    /// `device.os`: `ios`, `android` or `web` (see `operatingSystem(appID:platform:)`).
    package var operatingSystem: String?
    /// `device.language` (BCP 47, `en-US`).
    package var languageCode: String?
    /// `device.country` (ISO 3166-1 alpha-2, any case).
    package var countryCode: String?
    /// The installation ID: `percent` and `app.firebaseInstallationId`.
    package var installationID: String?
    /// `app.customSignal[…]`.
    package var customSignals: [String: String]
    /// `app.userProperty[…]` (Analytics user properties, when the request carries them).
    package var userProperties: [String: String]
    /// `app.firstOpenTimestamp`.
    package var firstOpenTime: Date?
    /// The device's time zone (an IANA identifier): `dateTime` without a fixed zone.
    package var timeZone: String?
    /// The evaluation time (the server's clock or the scheduler's `now`): `dateTime`.
    package var now: Date

    /// Creates a context.
    package init(
        appID: String? = nil, appVersion: String? = nil, appBuild: String? = nil, operatingSystem: String? = nil,
        languageCode: String? = nil, countryCode: String? = nil, installationID: String? = nil,
        customSignals: [String: String] = [:], userProperties: [String: String] = [:], firstOpenTime: Date? = nil,
        timeZone: String? = nil, now: Date
    ) {
        self.appID = appID
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.operatingSystem = operatingSystem
        self.languageCode = languageCode
        self.countryCode = countryCode
        self.installationID = installationID
        self.customSignals = customSignals
        self.userProperties = userProperties
        self.firstOpenTime = firstOpenTime
        self.timeZone = timeZone
        self.now = now
    }

    /// The operating system of an app: the platform part of its Firebase app ID
    /// (`1:1234:ios:abcd` → `ios`), else the platform of its app-identifier header.
    package static func operatingSystem(appID: String?, platform: RemoteConfigAppInfo.Platform?) -> String? {
        if let parts = appID?.split(separator: ":"), parts.count >= 4 {
            let kind = parts[2].lowercased()
            if ["ios", "android", "web"].contains(kind) { return kind }
        }
        switch platform {
        case .apple?: return "ios"
        case .android?: return "android"
        case .other?, nil: return nil
        }
    }
}
