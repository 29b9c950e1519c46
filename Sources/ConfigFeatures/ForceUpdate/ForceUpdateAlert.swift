import Foundation

/// The update alert ``ForceUpdateViewModel`` asks the UI to present.
///
/// A forced alert (`isDismissable == false`) has only the store button, and the view model
/// presents it again after each tap (opening the store dismisses it). A soft alert
/// (`isDismissable == true`, from the optional `latest_version` key) also offers "later".
/// See <doc:Features-ForceUpdate>.
public struct ForceUpdateAlert: Hashable, Sendable, CustomStringConvertible {
    /// The alert's title.
    public let title: String
    /// The alert's message.
    public let message: String
    /// Where the store button leads.
    public let storeURL: URL
    /// Whether the user may dismiss the alert and keep using the app (soft update).
    public let isDismissable: Bool
    /// The version the user is asked to update to: the required version for a forced alert,
    /// the latest version for a soft one.
    public let version: AppVersion

    /// Creates an alert.
    public init(title: String, message: String, storeURL: URL, isDismissable: Bool, version: AppVersion) {
        self.title = title
        self.message = message
        self.storeURL = storeURL
        self.isDismissable = isDismissable
        self.version = version
    }

    /// A one-line summary, for logs and test failures.
    public var description: String {
        "ForceUpdateAlert(\(isDismissable ? "soft" : "forced") \(version): \(title.debugDescription), \(message.debugDescription), \(storeURL))"
    }
}

/// The texts of the alerts ``ForceUpdateViewModel`` builds (English by default).
///
/// In the messages, `{version}` is replaced by the version to update to and `{current}` by the
/// running version:
///
///     ForceUpdateAlertText(forcedTitle: "アップデートのお願い", forcedMessage: "最新版にアップデートしてください。")
public struct ForceUpdateAlertText: Hashable, Sendable {
    /// The title of the forced (non-dismissable) alert.
    public var forcedTitle: String
    /// The message of the forced alert.
    public var forcedMessage: String
    /// The title of the soft (dismissable) alert.
    public var softTitle: String
    /// The message of the soft alert.
    public var softMessage: String

    /// Creates alert texts; every argument has an English default.
    public init(
        forcedTitle: String = "Update required",
        forcedMessage: String = "Version {version} or later is required to keep using the app. Please update from the store.",
        softTitle: String = "Update available",
        softMessage: String = "Version {version} is available. Update from the store?"
    ) {
        self.forcedTitle = forcedTitle
        self.forcedMessage = forcedMessage
        self.softTitle = softTitle
        self.softMessage = softMessage
    }

    /// The forced alert for `version`.
    func forcedAlert(version: AppVersion, current: AppVersion, storeURL: URL) -> ForceUpdateAlert {
        ForceUpdateAlert(
            title: forcedTitle, message: Self.fill(forcedMessage, version: version, current: current),
            storeURL: storeURL, isDismissable: false, version: version)
    }

    /// The soft alert for `version`.
    func softAlert(version: AppVersion, current: AppVersion, storeURL: URL) -> ForceUpdateAlert {
        ForceUpdateAlert(
            title: softTitle, message: Self.fill(softMessage, version: version, current: current),
            storeURL: storeURL, isDismissable: true, version: version)
    }

    private static func fill(_ template: String, version: AppVersion, current: AppVersion) -> String {
        template
            .replacingOccurrences(of: "{version}", with: version.description)
            .replacingOccurrences(of: "{current}", with: current.description)
    }
}
