import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// Publishes `entries` as a new template version and announces it on every open realtime
    /// stream (`{"latestTemplateVersionNumber":"N"}`).
    ///
    /// - Returns: The new version (1 for the first template; versions keep increasing across
    ///   `removeTemplate()`).
    @discardableResult
    public func publishTemplate(_ entries: [String: String]) -> Int {
        engine.mutate { state, effects in state.publish(entries, &effects) }
    }

    /// Publishes `template` (read from Firebase's template JSON with
    /// `RemoteConfigTemplate(contentsOf:)`, say) as a new version and announces it on every
    /// open realtime stream; each fetch then evaluates its conditions for the app instance
    /// that fetches (its conditions were checked when `template` was made).
    ///
    /// - Returns: The new version.
    @discardableResult
    public func publishTemplate(_ template: RemoteConfigTemplate) -> Int {
        let compiled = template.compiled
        return engine.mutate { state, effects in state.publish(template: compiled, &effects) }
    }

    /// The country `device.country` conditions see, an ISO 3166-1 alpha-2 code in any case
    /// (`"jp"`); `nil` (the default) makes them false. Firebase locates the request's IP
    /// address; a loopback server has none to locate.
    public var remoteConfigCountry: String? {
        get { engine.read { $0.remoteConfig.country } }
        set { engine.mutate { state, _ in state.remoteConfig.country = newValue } }
    }

    /// Removes the template: fetches answer `NO_TEMPLATE` until the next `publishTemplate(_:)`.
    /// Realtime streams are not told.
    public func removeTemplate() {
        engine.mutate { state, _ in
            state.remoteConfig.templateVersion = nil
            state.remoteConfig.entries = [:]
            state.remoteConfig.template = RemoteConfigConditionalTemplate(values: [:])
        }
    }

    /// The current template version; `nil` when no template is published.
    public var templateVersion: Int? {
        engine.read { $0.remoteConfig.templateVersion }
    }

    /// The current template with its conditions and conditional values; `nil` when no template
    /// is published.
    public var remoteConfigTemplate: RemoteConfigTemplate? {
        engine.read { state in state.remoteConfig.templateVersion.map { _ in RemoteConfigTemplate(state.remoteConfig.template) } }
    }

    /// The current template's default entries, before conditions (empty without a template).
    public var templateEntries: [String: String] {
        engine.read { $0.remoteConfig.entries }
    }

    /// The current ETag, `etag-<project>-<version>` (`-0` without a template). When the template
    /// has conditional values, a fetch's ETag adds a digest of the values that instance gets
    /// (`etag-<project>-<version>-<digest>`), so a changed targeting is not "no change".
    public var remoteConfigETag: String {
        engine.read { $0.remoteConfig.eTag(project: $0.configuration.project) }
    }

    /// How a fetch with a matching `If-None-Match` is answered: 304 (the default) or a 200
    /// `NO_CHANGE` body.
    public var remoteConfigNoChangeResponse: NoChangeResponse {
        get { engine.read { $0.remoteConfig.noChangeResponse } }
        set { engine.mutate { state, _ in state.remoteConfig.noChangeResponse = newValue } }
    }

    /// Writes a custom message on every open realtime stream.
    ///
    /// - Parameters:
    ///   - latestTemplateVersion: `latestTemplateVersionNumber` (the current version, or 0
    ///     without a template, when `nil`).
    ///   - featureDisabled: `featureDisabled`, omitted when `nil`.
    ///   - retryIntervalSeconds: `retryIntervalSeconds`, omitted when `nil`.
    public func sendRealtimeMessage(latestTemplateVersion: Int? = nil, featureDisabled: Bool? = nil, retryIntervalSeconds: Int? = nil) {
        engine.mutate { state, effects in
            let version = latestTemplateVersion ?? state.remoteConfig.templateVersion ?? 0
            let message = RemoteConfigWire.realtimeMessage(
                latestTemplateVersion: version, featureDisabled: featureDisabled, retryIntervalSeconds: retryIntervalSeconds)
            state.broadcastRealtime(message.data(), &effects)
        }
    }

    /// Writes a message that is not valid JSON (braces balanced) on every open realtime stream.
    public func sendMalformedRealtimeMessage() {
        engine.mutate { state, effects in
            state.broadcastRealtime(RemoteConfigWire.malformedRealtimeMessage, &effects)
        }
    }

    /// The fetches answered so far (rejected requests and faults are not included), oldest first.
    public var remoteConfigFetches: [RemoteConfigFetchRecord] {
        engine.read { $0.remoteConfig.fetches }
    }

    /// The realtime connections accepted so far, oldest first.
    public var remoteConfigRealtimeConnections: [RemoteConfigRealtimeRecord] {
        engine.read { $0.remoteConfig.realtimeConnections }
    }
}
