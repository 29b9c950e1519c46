import Foundation

/// One evaluation of the version keys against the running version (pure, no side effects).
struct ForceUpdateCheck: Equatable {
    /// Whether the running version is below the required one.
    var isUpdateRequired: Bool
    /// The alert that should be showing: forced when required, soft when only a newer latest
    /// version exists, `nil` otherwise.
    var alert: ForceUpdateAlert?
    /// Invalid values found, in key order (required first).
    var diagnostics: [ForceUpdateError]

    /// Compares `currentVersion` with the values of the required and (optional) latest keys.
    ///
    /// A key that is missing (static source) counts as "no requirement"; a key whose text is not
    /// a version is ignored and reported as `ForceUpdateError.invalidVersion`.
    static func evaluate(
        currentVersion: AppVersion,
        required: (key: String, value: RemoteConfigValue),
        latest: (key: String, value: RemoteConfigValue)?,
        storeURL: URL,
        text: ForceUpdateAlertText
    ) -> ForceUpdateCheck {
        var diagnostics: [ForceUpdateError] = []
        func version(_ key: String, _ value: RemoteConfigValue) -> AppVersion? {
            guard value.source != .static else { return nil }
            guard let version = AppVersion(value.stringValue) else {
                diagnostics.append(.invalidVersion(key: key, value: value.stringValue))
                return nil
            }
            return version
        }
        let requiredVersion = version(required.key, required.value)
        let latestVersion = latest.flatMap { version($0.key, $0.value) }

        if let requiredVersion, currentVersion < requiredVersion {
            return ForceUpdateCheck(
                isUpdateRequired: true,
                alert: text.forcedAlert(version: requiredVersion, current: currentVersion, storeURL: storeURL),
                diagnostics: diagnostics
            )
        }
        if let latestVersion, currentVersion < latestVersion {
            return ForceUpdateCheck(
                isUpdateRequired: false,
                alert: text.softAlert(version: latestVersion, current: currentVersion, storeURL: storeURL),
                diagnostics: diagnostics
            )
        }
        return ForceUpdateCheck(isUpdateRequired: false, alert: nil, diagnostics: diagnostics)
    }
}
