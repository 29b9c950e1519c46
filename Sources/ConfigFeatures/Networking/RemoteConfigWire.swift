import Foundation

/// Firebase Remote Config's REST wire format: builds the fetch and realtime requests and decodes
/// fetch responses, as plain values (no I/O).
///
/// - Fetch: `POST {fetchBaseURL}/v1/projects/{project}/namespaces/{namespace}:fetch?key={apiKey}`
///   with `Content-Type: application/json`, `If-None-Match` (the stored ETag or `*`),
///   `X-Firebase-RC-Fetch-Type` (`BASE/1` or `REALTIME/n`), `X-Goog-Api-Key`, the app's
///   identifier header and `X-Goog-Firebase-Installations-Auth` (when there is a token), and a
///   JSON body with `app_instance_id`, `app_instance_id_token`, `app_id`, `sdk_version`,
///   `custom_signals`, `analytics_user_properties` and `first_open_time` (from the request's
///   targeting, when set) and the ``RemoteConfigAppInfo`` fields (`language_code`, `country_code`,
///   `platform_version`, `time_zone`, `package_name`, `app_version`, `app_build`).
/// - Realtime: `POST {realtimeBaseURL}/v1/projects/{project}/namespaces/{namespace}:streamFetchInvalidations?key={apiKey}`
///   with the same API-key, app-identifier and installation headers, `X-Google-GFE-Can-Retry:
///   true`, `If-None-Match` (the last fetch's ETag, when known) and a JSON body `{project,
///   namespace, lastKnownVersionNumber, appId, sdkVersion, appInstanceId}`; the response body
///   is decoded with `RemoteConfigInvalidationDecoder`.
package struct RemoteConfigWire: Sendable, Hashable {
    /// Firebase's fetch endpoint host.
    package static let defaultFetchBaseURL = URL(string: "https://firebaseremoteconfig.googleapis.com")!
    /// Firebase's realtime endpoint host.
    package static let defaultRealtimeBaseURL = URL(string: "https://firebaseremoteconfigrealtime.googleapis.com")!

    /// The base URL of fetches (a path prefix is kept).
    package var fetchBaseURL: URL
    /// The base URL of the realtime stream (a path prefix is kept).
    package var realtimeBaseURL: URL
    /// The Firebase project ID or number (the realtime endpoint wants the number).
    package var project: String
    /// The Remote Config namespace, `"firebase"` for app configs.
    package var namespace: String
    /// The Firebase Web API key (`?key=`).
    package var apiKey: String
    /// The Firebase app ID (`1:1234:ios:abcd`).
    package var appID: String
    /// The app instance (installation) ID.
    package var appInstanceID: String
    /// The installation auth token (`app_instance_id_token`), sent only when set.
    package var appInstanceIDToken: String?
    /// The SDK version reported to the server.
    package var sdkVersion: String
    /// What the app reports about itself (fetch fields and the app-identifier header).
    package var appInfo: RemoteConfigAppInfo
    /// The language code reported to the server (e.g. `en-US`): `appInfo.languageCode`.
    package var languageCode: String {
        get { appInfo.languageCode }
        set { appInfo.languageCode = newValue }
    }
    /// The deepest JSON nesting a response may have (`.jsonTooDeep` past it).
    package var maximumJSONDepth: Int

    /// Creates a wire format description.
    package init(
        fetchBaseURL: URL = RemoteConfigWire.defaultFetchBaseURL,
        realtimeBaseURL: URL = RemoteConfigWire.defaultRealtimeBaseURL,
        project: String,
        namespace: String = "firebase",
        apiKey: String,
        appID: String,
        appInstanceID: String,
        appInstanceIDToken: String? = nil,
        sdkVersion: String,
        languageCode: String? = nil,
        appInfo: RemoteConfigAppInfo = RemoteConfigAppInfo(platform: .other),
        maximumJSONDepth: Int = JSONValue.defaultMaximumDepth
    ) {
        self.maximumJSONDepth = maximumJSONDepth
        self.fetchBaseURL = fetchBaseURL
        self.realtimeBaseURL = realtimeBaseURL
        self.project = project
        self.namespace = namespace
        self.apiKey = apiKey
        self.appID = appID
        self.appInstanceID = appInstanceID
        self.appInstanceIDToken = appInstanceIDToken
        self.sdkVersion = sdkVersion
        self.appInfo = appInfo
        if let languageCode { self.appInfo.languageCode = languageCode }
    }

    // MARK: - Fetch

    /// The URL of the fetch endpoint.
    package var fetchURL: URL { endpoint(fetchBaseURL, method: "fetch") }

    /// The HTTP request for `request`.
    package func fetchRequest(_ request: RemoteConfigFetchRequest) -> WireRequest {
        var body = appInfo.fetchFields
        body["app_instance_id"] = .string(appInstanceID)
        body["app_id"] = .string(appID)
        body["sdk_version"] = .string(sdkVersion)
        body["custom_signals"] = .object(request.customSignals.mapValues(JSONValue.string))
        if !request.targeting.userProperties.isEmpty {
            body["analytics_user_properties"] = .object(request.targeting.userProperties.mapValues(JSONValue.string))
        }
        if let firstOpen = request.targeting.firstOpenTime {
            body["first_open_time"] = .string(ISO8601DateFormatter().string(from: firstOpen))
        }
        if let appInstanceIDToken { body["app_instance_id_token"] = .string(appInstanceIDToken) }
        var headers = commonHeaders()
        headers["If-None-Match"] = request.eTag ?? "*"
        headers["X-Firebase-RC-Fetch-Type"] = Self.fetchTypeHeader(request.fetchType)
        return WireRequest(method: .post, url: fetchURL, headers: headers, body: JSONValue.object(body).data())
    }

    /// The `X-Firebase-RC-Fetch-Type` value: `BASE/1` or `REALTIME/{attempt}`.
    package static func fetchTypeHeader(_ type: RemoteConfigFetchType) -> String {
        switch type {
        case .base: return "BASE/1"
        case .realtime(let attempt): return "REALTIME/\(attempt)"
        }
    }

    /// Decodes the response to `request`.
    ///
    /// - 200: the body's `state` gives the case (`UPDATE`, `NO_CHANGE`, `NO_TEMPLATE`,
    ///   `EMPTY_CONFIG`); `templateVersion` may be a JSON string or number; the ETag comes from
    ///   the `ETag` header (for `NO_CHANGE`, missing values fall back to the request's).
    ///   `INSTANCE_STATE_UNSPECIFIED` is the server's own failure and maps to `.unavailable(500)`,
    ///   as Firebase's JS SDK does.
    /// - 304: `.noChange` with the request's ETag and template version.
    ///
    /// - Throws: `.rateLimited` (429), `.unavailable` (500, 503, 504), `.http` with Google's
    ///   `error.message` (any other 4xx/5xx), `.invalidResponse` (malformed JSON, unknown
    ///   state, any other status).
    package func decodeFetchResponse(_ response: WireResponse, for request: RemoteConfigFetchRequest) throws(RemoteConfigBackendError)
        -> RemoteConfigFetchResponse
    {
        switch response.statusCode {
        case 200:
            return try decodeFetchBody(response, for: request)
        case 304:
            return .noChange(templateVersion: request.lastKnownTemplateVersion, eTag: request.eTag ?? response.header("ETag"))
        default:
            throw Self.error(for: response, unavailableStatusCodes: [500, 503, 504])
        }
    }

    private func decodeFetchBody(_ response: WireResponse, for request: RemoteConfigFetchRequest) throws(RemoteConfigBackendError) -> RemoteConfigFetchResponse
    {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: response.body, maximumDepth: maximumJSONDepth)
        } catch let error as JSONParseError {
            if case .nestingTooDeep(let limit) = error.kind { throw .jsonTooDeep(limit: limit) }
            throw .invalidResponse("fetch response: \(error)")
        } catch {
            throw .invalidResponse("fetch response: \(error)")
        }
        guard let object = json.objectValue else { throw .invalidResponse("fetch response is not a JSON object") }
        let eTag = response.header("ETag")
        let templateVersion = try Self.templateVersion(object["templateVersion"])
        guard let state = object["state"] else { throw .invalidResponse("fetch response has no state") }
        switch state.stringValue {
        case "UPDATE":
            return .updated(entries: try Self.entries(object["entries"]), templateVersion: templateVersion, eTag: eTag)
        case "NO_CHANGE":
            return .noChange(templateVersion: templateVersion ?? request.lastKnownTemplateVersion, eTag: eTag ?? request.eTag)
        case "NO_TEMPLATE":
            return .noTemplate(eTag: eTag)
        case "EMPTY_CONFIG":
            return .emptyConfig(templateVersion: templateVersion, eTag: eTag)
        case "INSTANCE_STATE_UNSPECIFIED":
            throw .unavailable(500)
        default:
            throw .invalidResponse("unknown fetch state \(state)")
        }
    }

    private static func entries(_ value: JSONValue?) throws(RemoteConfigBackendError) -> [String: String] {
        guard let value, value != .null else { return [:] }
        guard let members = value.objectValue else { throw .invalidResponse("entries is not an object: \(value)") }
        var entries: [String: String] = [:]
        for (key, member) in members {
            guard let string = member.stringValue else { throw .invalidResponse("entry \"\(key)\" is not a string: \(member)") }
            entries[key] = string
        }
        return entries
    }

    /// A template version sent as a JSON number or a decimal string (`nil` when absent or null).
    static func templateVersion(_ value: JSONValue?, field: String = "templateVersion") throws(RemoteConfigBackendError) -> Int? {
        switch value {
        case nil, .null?:
            return nil
        case .number(let number)?:
            guard number.rounded() == number, number >= 0, number < 9.0e18, let version = Int(exactly: number) else {
                throw .invalidResponse("\(field) is not a version number: \(number)")
            }
            return version
        case .string(let text)?:
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let version = Int(text) else {
                throw .invalidResponse("\(field) is not a version number: \"\(text)\"")
            }
            return version
        case let other?:
            throw .invalidResponse("\(field) is not a version number: \(other)")
        }
    }

    // MARK: - Realtime

    /// The URL of the realtime stream endpoint.
    package var realtimeURL: URL { endpoint(realtimeBaseURL, method: "streamFetchInvalidations") }

    /// The HTTP request that opens the realtime stream. `lastKnownVersionNumber` is sent as a
    /// decimal string (`"0"` before the first fetch), as Firebase's SDK does.
    package func realtimeRequest(lastKnownTemplateVersion: Int?, eTag: String? = nil) -> WireRequest {
        let body: JSONValue = [
            "project": .string(project),
            "namespace": .string(namespace),
            "lastKnownVersionNumber": .string(String(lastKnownTemplateVersion ?? 0)),
            "appId": .string(appID),
            "sdkVersion": .string(sdkVersion),
            "appInstanceId": .string(appInstanceID),
        ]
        var headers = commonHeaders()
        headers["Accept"] = "application/json"
        headers["X-Google-GFE-Can-Retry"] = "true"
        if let eTag { headers["If-None-Match"] = eTag }
        return WireRequest(method: .post, url: realtimeURL, headers: headers, body: body.data())
    }

    /// The error for a realtime stream response whose status is not 200 (`nil` for 200):
    /// 429 → `.rateLimited`, 500/502/503/504 → `.unavailable`, other 4xx/5xx → `.http` with
    /// Google's `error.message` (the body: for 403 it says how to enable the Realtime API),
    /// anything else → `.invalidResponse`. Which of these `RemoteConfig.configUpdates` retries
    /// (408, 429, 502, 503, 504) is its decision, not the wire's.
    package static func realtimeStreamError(for response: WireResponse) -> RemoteConfigBackendError? {
        response.statusCode == 200 ? nil : error(for: response, unavailableStatusCodes: [500, 502, 503, 504])
    }

    // MARK: - Helpers

    /// The headers of both requests: JSON, the API key, the app's identifier and the
    /// installation's auth token (when there is one).
    private func commonHeaders() -> [String: String] {
        var headers = appInfo.identifierHeaders
        headers["Content-Type"] = "application/json"
        headers["X-Goog-Api-Key"] = apiKey
        if let appInstanceIDToken { headers["X-Goog-Firebase-Installations-Auth"] = appInstanceIDToken }
        return headers
    }

    private func endpoint(_ base: URL, method: String) -> URL {
        WireURL.make(
            base: base,
            encodedPath: "/v1/projects/\(WireURL.encode(project))/namespaces/\(WireURL.encode(namespace)):\(method)",
            query: [("key", apiKey)]
        )
    }

    private static func error(for response: WireResponse, unavailableStatusCodes: Set<Int>) -> RemoteConfigBackendError {
        let status = response.statusCode
        if status == 429 { return .rateLimited }
        if unavailableStatusCodes.contains(status) { return .unavailable(status) }
        if (400...599).contains(status) { return .http(statusCode: status, message: googleErrorMessage(in: response)) }
        return .invalidResponse("unexpected HTTP status \(status)")
    }

    /// The message of Google's error body `{"error": {"message": …}}`, else the body text, else
    /// `"no details"`.
    static func googleErrorMessage(in response: WireResponse) -> String {
        if let json = try? JSONValue(parsing: response.body), let error = json["error"] {
            if let message = error["message"]?.stringValue, !message.isEmpty { return message }
            if let status = error["status"]?.stringValue, !status.isEmpty { return status }
            if let message = error.stringValue, !message.isEmpty { return message }
        }
        return response.bodyExcerpt() ?? "no details"
    }
}
