import ConfigFeatures
import Foundation

extension ServerState {
    /// What a fetch says about its app instance, for the template's conditions: the REST body's
    /// `app_id`, `app_version`, `app_build`, `language_code`, `time_zone`, `app_instance_id`,
    /// `custom_signals`, `analytics_user_properties` and `first_open_time`; the operating
    /// system from the app ID (or the app-identifier header); the country from
    /// `remoteConfigCountry` (Firebase locates the request's IP; there is none to locate
    /// here); now from the server's clock.
    func conditionContext(_ body: JSONValue, request: HTTPRequest) -> RemoteConfigConditionContext {
        func text(_ key: String) -> String? { body[key]?.stringValue }
        var platform: RemoteConfigAppInfo.Platform?
        if request.header("x-ios-bundle-identifier") != nil {
            platform = .apple
        } else if request.header("x-android-package") != nil {
            platform = .android
        }
        return RemoteConfigConditionContext(
            appID: text("app_id"),
            appVersion: text("app_version"),
            appBuild: text("app_build"),
            operatingSystem: RemoteConfigConditionContext.operatingSystem(appID: text("app_id"), platform: platform),
            languageCode: text("language_code"),
            countryCode: remoteConfig.country,
            installationID: text("app_instance_id"),
            customSignals: Self.signals(body["custom_signals"]),
            userProperties: Self.signals(body["analytics_user_properties"]),
            firstOpenTime: Self.firstOpenTime(body["first_open_time"]),
            timeZone: text("time_zone"),
            now: Date()
        )
    }

    /// An object of strings or numbers (as Firebase accepts signal values) read as text.
    static func signals(_ value: JSONValue?) -> [String: String] {
        guard let members = value?.objectValue else { return [:] }
        return members.compactMapValues { value in
            switch value {
            case .string(let text): return text
            case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .bool(let flag): return String(flag)
            default: return nil
            }
        }
    }

    /// `first_open_time`: ISO 8601 text (`2026-01-31T09:00:00Z`, fractions allowed) or
    /// milliseconds since 1970.
    static func firstOpenTime(_ value: JSONValue?) -> Date? {
        switch value {
        case .number(let millis)?:
            return millis.isFinite ? Date(timeIntervalSince1970: millis / 1000) : nil
        case .string(let text)?:
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions.insert(.withFractionalSeconds)
            return formatter.date(from: text)
        default:
            return nil
        }
    }
}
