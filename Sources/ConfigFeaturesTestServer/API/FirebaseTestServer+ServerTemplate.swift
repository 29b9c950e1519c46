import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// Publishes a server template (Firebase's JSON: `conditions`, `parameters`) as the next
    /// version of the `firebase-server` namespace, which
    /// `GET /v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig` then serves
    /// (what firebase-admin's `get_server_template()` and ConfigFeatures'
    /// `RemoteConfigServerTemplate.load()` fetch).
    ///
    /// - Returns: The new version (1 for the first).
    /// - Throws: `RemoteConfigServerTemplateError` when `json` is not a server template; nothing
    ///   is published then.
    @discardableResult
    public func publishServerTemplate(_ json: Data) throws(RemoteConfigServerTemplateError) -> Int {
        let template = try RemoteConfigServerTemplateData(data: json)
        return engine.mutate { state, _ in state.publishServerTemplate(template.json) }
    }

    /// The published server template's version; `nil` before the first.
    public var serverTemplateVersion: Int? {
        engine.read { $0.serverTemplate.versionNumber }
    }

    /// The server template's URL: `…/v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig`.
    public var serverTemplateURL: URL {
        baseURL.appendingPathComponent("v1/projects/\(project)/namespaces/\(RemoteConfigServerTemplate.namespace)/serverRemoteConfig")
    }
}
