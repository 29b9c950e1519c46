import ConfigFeatures
import Foundation

/// The Remote Config side of the server state: the template and what clients sent.
struct RemoteConfigState {
    /// The published entries (meaningful when `templateVersion` is set).
    var entries: [String: String] = [:]
    /// The published template with its conditions (evaluated per fetch).
    var template = RemoteConfigConditionalTemplate(values: [:])
    /// The country `device.country` conditions see (`nil`: none, so they are false).
    var country: String?
    /// The current template version; `nil` when no template is published (`NO_TEMPLATE`).
    var templateVersion: Int?
    /// The last version ever published (versions keep increasing across `removeTemplate()`).
    var lastVersion = 0
    /// How a fetch whose `If-None-Match` matches is answered.
    var noChangeResponse: FirebaseTestServer.NoChangeResponse = .notModified
    /// The fetches answered.
    var fetches: [FirebaseTestServer.RemoteConfigFetchRecord] = []
    /// The realtime connections accepted.
    var realtimeConnections: [FirebaseTestServer.RemoteConfigRealtimeRecord] = []

    /// The ETag of the current state: `etag-<project>-<version>` (version 0 without a template).
    func eTag(project: String) -> String {
        "etag-\(project)-\(templateVersion ?? 0)"
    }
}

/// Google API error bodies and the Remote Config wire formats.
enum RemoteConfigWire {
    /// Google's JSON error: `{"error":{"code":…,"message":…,"status":…}}`.
    static func error(_ code: Int, _ message: String, status: String? = nil) -> HTTPResponse {
        .json(code, ["error": ["code": .number(Double(code)), "message": .string(message), "status": .string(status ?? grpcStatus(for: code))]])
    }

    /// The canonical gRPC status name Google uses for an HTTP status.
    static func grpcStatus(for code: Int) -> String {
        switch code {
        case 400: return "INVALID_ARGUMENT"
        case 401: return "UNAUTHENTICATED"
        case 403: return "PERMISSION_DENIED"
        case 404: return "NOT_FOUND"
        case 409: return "ABORTED"
        case 429: return "RESOURCE_EXHAUSTED"
        case 499: return "CANCELLED"
        case 500: return "INTERNAL"
        case 501: return "UNIMPLEMENTED"
        case 503: return "UNAVAILABLE"
        case 504: return "DEADLINE_EXCEEDED"
        default: return "UNKNOWN"
        }
    }

    /// A realtime message object (`latestTemplateVersionNumber` is a string, as proto3 JSON
    /// writes int64).
    static func realtimeMessage(latestTemplateVersion: Int, featureDisabled: Bool? = nil, retryIntervalSeconds: Int? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["latestTemplateVersionNumber": .string(String(latestTemplateVersion))]
        if let featureDisabled { members["featureDisabled"] = .bool(featureDisabled) }
        if let retryIntervalSeconds { members["retryIntervalSeconds"] = .number(Double(retryIntervalSeconds)) }
        return .object(members)
    }

    /// A message not valid as JSON, framed like a realtime message (braces balanced).
    static let malformedRealtimeMessage = Data(#"{"latestTemplateVersionNumber": not-a-number}"#.utf8)

    /// A 200 fetch answer whose body is not valid JSON.
    static let malformedBody = Data(#"{"entries":{"key":"value"},"state":"UPD"#.utf8)

    /// Reads an int64 written as a JSON string or number.
    static func int64(_ value: JSONValue?) -> Int? {
        switch value {
        case .string(let text)?: return Int(text)
        case .number(let number)?:
            guard number.isFinite, number == number.rounded(), abs(number) < 9.0e15 else { return nil }
            return Int(number)
        default: return nil
        }
    }
}

extension ServerState {
    /// The error for a request to the wrong project, namespace or API key, if any.
    func remoteConfigAccessError(_ request: HTTPRequest, project: String, namespace: String) -> HTTPResponse? {
        if let error = googleAPIAccessError(request, project: project) { return error }
        guard namespace == configuration.namespace else {
            return RemoteConfigWire.error(
                404,
                "Namespace \(namespace) not found in project \(project)."
                    + hint(" FirebaseTestServer serves the namespace \"\(configuration.namespace)\" only."),
                status: "NOT_FOUND")
        }
        return nil
    }

    /// Parses a Remote Config request body: a JSON object (an empty body counts as `{}`).
    static func remoteConfigBody(_ request: HTTPRequest) -> JSONValue? {
        if request.body.isEmpty { return .object([:]) }
        guard let body = try? JSONValue(parsing: request.body), body.objectValue != nil else { return nil }
        return body
    }

    /// Answers `POST …:fetch`.
    mutating func fetchRemoteConfig(_ request: HTTPRequest, project: String, namespace: String) -> HTTPResponse {
        if let error = remoteConfigAccessError(request, project: project, namespace: namespace) { return error }
        guard let body = Self.remoteConfigBody(request) else {
            return RemoteConfigWire.error(400, "Invalid JSON payload received. The fetch request body must be a JSON object.")
        }
        if let error = installationAuthError(
            request, fid: body["app_instance_id"]?.stringValue, bodyToken: body["app_instance_id_token"]?.stringValue, now: Date())
        {
            return error
        }
        let rc = remoteConfig
        let entries = rc.templateVersion == nil ? [:] : rc.template.entries(for: conditionContext(body, request: request))
        let eTag = rc.template.eTag(rc.eTag(project: configuration.project), entries: entries)
        let headers = [(name: "ETag", value: eTag)]
        let version = rc.templateVersion.map { JSONValue.string(String($0)) }
        let response: HTTPResponse
        let state: String
        if request.header("if-none-match") == eTag {
            state = "NO_CHANGE"
            switch rc.noChangeResponse {
            case .notModified:
                response = HTTPResponse(status: 304, headers: headers)
            case .noChangeState:
                var members: [String: JSONValue] = ["state": "NO_CHANGE"]
                if let version { members["templateVersion"] = version }
                response = .json(200, .object(members), headers: headers)
            }
        } else if let version {
            if entries.isEmpty {
                state = "EMPTY_CONFIG"
                response = .json(200, ["state": "EMPTY_CONFIG", "templateVersion": version], headers: headers)
            } else {
                state = "UPDATE"
                let entries = JSONValue.object(entries.mapValues { .string($0) })
                response = .json(200, ["entries": entries, "state": "UPDATE", "templateVersion": version], headers: headers)
            }
        } else {
            state = "NO_TEMPLATE"
            response = .json(200, ["state": "NO_TEMPLATE"], headers: headers)
        }
        remoteConfig.fetches.append(
            FirebaseTestServer.RemoteConfigFetchRecord(
                appInstanceID: body["app_instance_id"]?.stringValue,
                appInstanceIDToken: body["app_instance_id_token"]?.stringValue,
                appID: body["app_id"]?.stringValue,
                sdkVersion: body["sdk_version"]?.stringValue,
                languageCode: body["language_code"]?.stringValue,
                customSignals: body["custom_signals"]?.objectValue ?? [:],
                ifNoneMatch: request.header("if-none-match"),
                fetchType: request.header("x-firebase-rc-fetch-type"),
                body: body,
                answeredState: state
            ))
        return response
    }

    /// Answers `POST …:streamFetchInvalidations`: registers the stream on `connection` and
    /// queues `[` plus, if the client is behind, the current version.
    mutating func openRemoteConfigStream(
        _ request: HTTPRequest, project: String, namespace: String, connection: Connection, malformed: Bool, _ effects: inout Effects
    ) -> Reply {
        if let error = remoteConfigAccessError(request, project: project, namespace: namespace) { return .response(error) }
        guard let body = Self.remoteConfigBody(request) else {
            return .response(RemoteConfigWire.error(400, "Invalid JSON payload received. The realtime request body must be a JSON object."))
        }
        if let error = installationAuthError(request, fid: body["appInstanceId"]?.stringValue, bodyToken: nil, now: Date()) {
            return .response(error)
        }
        let lastKnown = RemoteConfigWire.int64(body["lastKnownVersionNumber"])
        remoteConfig.realtimeConnections.append(FirebaseTestServer.RemoteConfigRealtimeRecord(lastKnownVersionNumber: lastKnown, body: body))
        streams[connection.id] = OpenStream(kind: .remoteConfig, connection: connection, pending: [Data("[".utf8)])
        if malformed {
            enqueueRealtime(RemoteConfigWire.malformedRealtimeMessage, onStream: connection.id, &effects)
        }
        if let current = remoteConfig.templateVersion, current > (lastKnown ?? 0) {
            enqueueRealtime(RemoteConfigWire.realtimeMessage(latestTemplateVersion: current).data(), onStream: connection.id, &effects)
        }
        return .stream(head: HTTPResponse.streamHead(contentType: "application/json; charset=utf-8"))
    }

    /// Queues a realtime message on stream `id`, after a comma unless it is the first one.
    mutating func enqueueRealtime(_ message: Data, onStream id: UInt64, _ effects: inout Effects) {
        guard let stream = streams[id], !stream.isEnding else { return }
        var framed = stream.hasSentMessage ? Data(",".utf8) : Data()
        framed.append(message)
        streams[id]?.hasSentMessage = true
        enqueue(framed, onStream: id, &effects)
    }

    /// Queues `message` on every open realtime stream.
    mutating func broadcastRealtime(_ message: Data, _ effects: inout Effects) {
        for id in openStreamIDs(.remoteConfigRealtime) {
            enqueueRealtime(message, onStream: id, &effects)
        }
    }

    /// The first half of a realtime message (for `dropStreams(midMessage: true)`).
    func partialRealtimeMessage(onStream id: UInt64) -> Data {
        let prefix = streams[id]?.hasSentMessage == true ? "," : ""
        return Data((prefix + #"{"latestTemplateVersionNumber": ""#).utf8)
    }
}

// MARK: - The template REST API

extension ServerState {
    /// Answers `GET|PUT /v1/projects/{project}/remoteConfig`, the Remote Config REST API's
    /// template: `GET` answers the current template, `PUT` publishes the body as the next
    /// version (announced on every realtime stream, as `publishTemplate(_:)`). No credentials
    /// are checked (the server is loopback-only); `If-Match` is optional (`*` or the current
    /// ETag; another ETag gets 409); `validateOnly=true` checks the body without publishing.
    mutating func handleRemoteConfigTemplate(_ request: HTTPRequest, project: String, _ effects: inout Effects) -> HTTPResponse {
        if let error = projectError(project) { return error }
        switch request.method {
        case "GET":
            return templateResponse()
        case "PUT":
            let template: FirebaseTestServer.RemoteConfigTemplate
            do {
                template = try FirebaseTestServer.RemoteConfigTemplate(json: request.body)
            } catch {
                return RemoteConfigWire.error(400, "Invalid Remote Config template: \(error)", status: "INVALID_ARGUMENT")
            }
            let eTag = remoteConfig.eTag(project: configuration.project)
            if let expected = request.header("if-match"), expected != "*", expected != eTag {
                return RemoteConfigWire.error(
                    409, "Version mismatch: If-Match is \(expected) but the current template's ETag is \(eTag) (send it, or If-Match: *).", status: "ABORTED")
            }
            let validateOnly = ["validateOnly", "validate_only"].contains { request.query($0) == "true" }
            if validateOnly { return templateResponse(validated: template) }
            _ = publish(template: template.compiled, &effects)
            return templateResponse()
        default:
            return RemoteConfigWire.error(
                404, "The requested method \(request.method) is not allowed for \(request.path) (use GET or PUT).", status: "NOT_FOUND")
        }
    }

    /// Publishes `entries` as the next version and announces it on every realtime stream.
    mutating func publish(_ entries: [String: String], _ effects: inout Effects) -> Int {
        publish(template: RemoteConfigConditionalTemplate(values: entries), &effects)
    }

    /// Publishes `template` as the next version and announces it on every realtime stream
    /// (every listener is told, whatever value it will fetch, as Firebase announces versions).
    mutating func publish(template: RemoteConfigConditionalTemplate, _ effects: inout Effects) -> Int {
        remoteConfig.lastVersion += 1
        let version = remoteConfig.lastVersion
        remoteConfig.template = template
        remoteConfig.entries = template.defaultEntries
        remoteConfig.templateVersion = version
        broadcastRealtime(RemoteConfigWire.realtimeMessage(latestTemplateVersion: version).data(), &effects)
        return version
    }

    /// 200 with the current template (or `validated`, unpublished) in Firebase's shape, its
    /// `version.versionNumber` (absent without a template) and the `ETag` header.
    private func templateResponse(validated: FirebaseTestServer.RemoteConfigTemplate? = nil) -> HTTPResponse {
        let template = validated?.compiled ?? remoteConfig.template
        var members = template.json.objectValue ?? [:]
        if validated == nil, let version = remoteConfig.templateVersion {
            members["version"] = ["versionNumber": .string(String(version))]
        }
        return .json(200, .object(members), headers: [(name: "ETag", value: remoteConfig.eTag(project: configuration.project))])
    }

    /// The message of a 404 for an unknown path: what the server does serve.
    func notFoundMessage(_ path: String) -> String {
        let served = FirebaseTestServer.endpointSummary(project: configuration.project, namespace: configuration.namespace, apiKey: configuration.apiKey)
        return "Not found: \(path)." + hint(" FirebaseTestServer serves " + served.map(\.request).joined(separator: "; "))
    }
}

extension FirebaseTestServer {
    /// The requests the server answers, with what each is for (for `--help` and 404 answers).
    package static func endpointSummary(project: String, namespace: String, apiKey: String) -> [(request: String, purpose: String)] {
        let namespacePath = "/v1/projects/\(project)/namespaces/\(namespace)"
        return [
            ("POST \(namespacePath):fetch?key=\(apiKey)", "Remote Config fetch (the current template's values)"),
            ("POST \(namespacePath):streamFetchInvalidations?key=\(apiKey)", "Remote Config realtime (a new version is announced here)"),
            ("GET|PUT /v1/projects/\(project)/remoteConfig", "the Remote Config REST API: read or publish the template"),
            ("GET|PUT /v1/projects/\(project)/namespaces/firebase-server/serverRemoteConfig", "the server template (firebase-admin's get_server_template)"),
            ("POST /v1/projects/\(project)/installations?key=\(apiKey)", "Firebase Installations: register"),
            ("POST /v1/projects/\(project)/installations/{fid}/authTokens:generate?key=\(apiKey)", "Firebase Installations: refresh a token"),
            ("GET|PUT|PATCH|POST|DELETE /{path}.json", "the Realtime Database REST API (GET with Accept: text/event-stream streams)"),
            (
                "POST /identitytoolkit.googleapis.com/v1/accounts:{method}?key=\(apiKey)",
                "Firebase Authentication: signUp, signInWithPassword, signInWithCustomToken, lookup, update, delete"
            ),
            ("POST /securetoken.googleapis.com/v1/token?key=\(apiKey)", "Firebase Authentication: refresh an ID token (grant_type=refresh_token)"),
            (
                "POST|GET /identitytoolkit.googleapis.com/v1/projects/\(project)/accounts[:{method}]",
                "the Auth Admin API (Bearer owner): create, lookup, update, delete, batchGet, batchDelete"
            ),
            (
                "DELETE /emulator/v1/projects/\(project)/accounts, GET|PATCH …/config",
                "the Auth emulator's own endpoints: remove every user, email privacy setting"
            ),
        ]
    }
}
