import ConfigFeatures
import Foundation

/// The `firebase-server` namespace's template: what `GET …/namespaces/firebase-server/serverRemoteConfig` serves.
struct ServerTemplateState {
    /// The published template's JSON (without `version`, which `versionNumber` supplies); `nil` before the first.
    var json: JSONValue?
    /// The published version (1 for the first), `nil` before the first.
    var versionNumber: Int?

    /// The ETag of the current version, `etag-<project>-server-<version>`.
    func eTag(project: String) -> String {
        "etag-\(project)-server-\(versionNumber ?? 0)"
    }
}

extension ServerState {
    /// Publishes `template` (already checked) as the next server-template version.
    mutating func publishServerTemplate(_ template: JSONValue) -> Int {
        let version = (serverTemplate.versionNumber ?? 0) + 1
        var members = template.objectValue ?? [:]
        members["version"] = nil
        members["etag"] = nil
        serverTemplate.json = .object(members)
        serverTemplate.versionNumber = version
        return version
    }

    /// Answers `GET|PUT /v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig`.
    ///
    /// Credentials: firebase-admin sends an OAuth `Authorization: Bearer …` (any token is
    /// accepted: the server is loopback-only), ConfigFeatures' `RemoteConfigServerTemplate` an
    /// API key (`?key=` or `X-Goog-Api-Key`, which must be the server's). Neither is a 401
    /// (`UNAUTHENTICATED`); a wrong key a 400, another project a 403. `GET` without a published
    /// template is a 404; `PUT` checks the body as `RemoteConfigServerTemplate(json:)` does (400
    /// with the path of what is wrong) and publishes it.
    mutating func handleServerTemplate(_ request: HTTPRequest, project: String) -> HTTPResponse {
        let bearer = request.header("authorization").map { $0.lowercased().hasPrefix("bearer ") } ?? false
        if !bearer {
            guard let key = request.query("key") ?? request.header("x-goog-api-key"), !key.isEmpty else {
                return RemoteConfigWire.error(
                    401,
                    "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential."
                        + hint(" FirebaseTestServer accepts any Authorization: Bearer token, or ?key= with its API key."),
                    status: "UNAUTHENTICATED")
            }
            guard key == configuration.apiKey else {
                return RemoteConfigWire.error(400, "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT")
            }
        }
        if let error = projectError(project) { return error }
        switch request.method {
        case "GET":
            guard let json = serverTemplate.json, let version = serverTemplate.versionNumber else {
                return RemoteConfigWire.error(
                    404,
                    "No server template found for project \(project)."
                        + hint(" Publish one with publishServerTemplate(_:), --remote-config-server or PUT."),
                    status: "NOT_FOUND")
            }
            var members = json.objectValue ?? [:]
            members["version"] = ["versionNumber": .string(String(version))]
            return .json(200, .object(members), headers: [(name: "ETag", value: serverTemplate.eTag(project: project))])
        case "PUT":
            let template: RemoteConfigServerTemplateData
            do {
                template = try RemoteConfigServerTemplateData(data: request.body)
            } catch {
                return RemoteConfigWire.error(400, "Invalid server template: \(error)", status: "INVALID_ARGUMENT")
            }
            let version = publishServerTemplate(template.json)
            var members = serverTemplate.json?.objectValue ?? [:]
            members["version"] = ["versionNumber": .string(String(version))]
            return .json(200, .object(members), headers: [(name: "ETag", value: serverTemplate.eTag(project: project))])
        default:
            return RemoteConfigWire.error(
                404, "The requested method \(request.method) is not allowed for \(request.path) (use GET or PUT).", status: "NOT_FOUND")
        }
    }
}
