import Foundation

/// What the app says about itself in Remote Config fetches (for the template's conditions on
/// app version, platform, country, language, …) and in the headers that API-key
/// restrictions check.
///
/// Every field is sent as the iOS SDK sends it (`RCNConfigSettings`); the JS SDK sends only the
/// language. `current` reads the values from the process, each platform's way; pass your own to
/// report something else (an Android package name on a server, a fixed locale in tests).
///
/// | field | sent as | `current` |
/// |---|---|---|
/// | `appIdentifier` | `package_name`; header `X-Ios-Bundle-Identifier` (`.apple`) or `X-Android-Package` (`.android`) | `Bundle.main.bundleIdentifier` |
/// | `appVersion` | `app_version` | `CFBundleShortVersionString` |
/// | `appBuild` | `app_build` | `CFBundleVersion` |
/// | `platformVersion` | `platform_version` | the OS version, `major.minor[.patch]` |
/// | `countryCode` | `country_code` | the current locale's region, lower-cased as the iOS SDK sends it (`us`) |
/// | `languageCode` | `language_code` | the first preferred language, else `en` |
/// | `timeZone` | `time_zone` | `TimeZone.current.identifier` |
///
/// Fields that are `nil` are left out of the request (Linux processes have no bundle ID).
public struct RemoteConfigAppInfo: Sendable, Hashable {
    /// Which SDK's app-identifier header to send.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Platform: Sendable, Hashable {
        /// An app on an Apple platform (iOS, iPadOS, macOS, tvOS, watchOS, visionOS).
        ///
        /// Sends the `X-Ios-Bundle-Identifier` header. Conditions see it as `device.os == 'ios'`
        /// (Firebase registers every Apple app as an iOS app) unless the Firebase app ID names a
        /// platform.
        case apple
        /// An Android app.
        ///
        /// Sends the `X-Android-Package` header. Conditions see it as `device.os == 'android'`
        /// unless the Firebase app ID names a platform.
        case android
        /// Any other process, such as a Linux server or a command-line tool.
        ///
        /// Sends no app-identifier header. Conditions take `device.os` from the Firebase app ID
        /// alone (`1:1234:web:abcd` → `'web'`); without one, every `device.os` element is false.
        case other
    }

    /// Which app-identifier header is sent.
    public var platform: Platform
    /// The bundle ID or package name.
    public var appIdentifier: String?
    /// The user-visible version (`1.4.2`).
    public var appVersion: String?
    /// The build number.
    public var appBuild: String?
    /// The operating system's version.
    public var platformVersion: String?
    /// The country (ISO 3166 region code; the iOS SDK sends it lower-cased, `us`).
    public var countryCode: String?
    /// The language (BCP 47, `en-US`).
    public var languageCode: String
    /// The time zone (an IANA identifier, `Asia/Tokyo`).
    public var timeZone: String?

    /// Creates app information.
    public init(
        platform: Platform,
        appIdentifier: String? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        platformVersion: String? = nil,
        countryCode: String? = nil,
        languageCode: String = "en",
        timeZone: String? = nil
    ) {
        self.platform = platform
        self.appIdentifier = appIdentifier
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.platformVersion = platformVersion
        self.countryCode = countryCode
        self.languageCode = languageCode
        self.timeZone = timeZone
    }

    /// The values of this process (read on each access).
    public static var current: RemoteConfigAppInfo {
        #if canImport(Darwin)
        let platform = Platform.apple
        #else
        let platform = Platform.other
        #endif
        let info = Bundle.main.infoDictionary ?? [:]
        let os = ProcessInfo.processInfo.operatingSystemVersion
        var platformVersion = "\(os.majorVersion).\(os.minorVersion)"
        if os.patchVersion > 0 { platformVersion += ".\(os.patchVersion)" }
        return RemoteConfigAppInfo(
            platform: platform,
            appIdentifier: Bundle.main.bundleIdentifier,
            appVersion: info["CFBundleShortVersionString"] as? String,
            appBuild: info["CFBundleVersion"] as? String,
            platformVersion: platformVersion,
            countryCode: currentRegion(),
            languageCode: Locale.preferredLanguages.first ?? "en",
            timeZone: TimeZone.current.identifier
        )
    }

    /// The app-identifier header for `platform`, when the identifier is known.
    public var identifierHeaders: [String: String] {
        guard let appIdentifier, !appIdentifier.isEmpty else { return [:] }
        switch platform {
        case .apple: return ["X-Ios-Bundle-Identifier": appIdentifier]
        case .android: return ["X-Android-Package": appIdentifier]
        case .other: return [:]
        }
    }

    /// The fetch body's fields (besides the instance, app and SDK fields).
    var fetchFields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["language_code": .string(languageCode)]
        if let countryCode { fields["country_code"] = .string(countryCode) }
        if let platformVersion { fields["platform_version"] = .string(platformVersion) }
        if let timeZone { fields["time_zone"] = .string(timeZone) }
        if let appIdentifier { fields["package_name"] = .string(appIdentifier) }
        if let appVersion { fields["app_version"] = .string(appVersion) }
        if let appBuild { fields["app_build"] = .string(appBuild) }
        return fields
    }

    private static func currentRegion() -> String? {
        #if canImport(Darwin)
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return nil }
        #endif
        return Locale.current.region?.identifier.lowercased()
    }
}
