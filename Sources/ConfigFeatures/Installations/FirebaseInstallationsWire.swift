import Foundation

/// Firebase Installations' REST wire format, as the SDKs speak it: builds the requests and
/// decodes the responses, as plain values (no I/O).
///
/// - Create: `POST {baseURL}/v1/projects/{project}/installations` with
///   `{"fid", "appId", "authVersion": "FIS_v2", "sdkVersion"}`; the answer carries the
///   registered `fid` (which may differ from the proposed one), a `refreshToken` and an
///   `authToken {token, expiresIn}`.
/// - Refresh: `POST …/installations/{fid}/authTokens:generate` with
///   `Authorization: FIS_v2 {refreshToken}` and `{"installation": {"sdkVersion", "appId"}}`;
///   the answer is `{token, expiresIn}`.
/// - Both send `X-Goog-Api-Key` and the app's identifier header (`X-Ios-Bundle-Identifier` or
///   `X-Android-Package`) when known, for API-key restrictions.
package struct FirebaseInstallationsWire: Sendable, Hashable {
    /// Firebase's Installations host.
    package static let defaultBaseURL = URL(string: "https://firebaseinstallations.googleapis.com")!

    /// The base URL (a path prefix is kept).
    package var baseURL: URL
    /// The Firebase project ID or number.
    package var project: String
    /// The Web API key.
    package var apiKey: String
    /// The Firebase app ID.
    package var appID: String
    /// The SDK version reported (`sdkVersion`).
    package var sdkVersion: String
    /// Headers sent with every request besides the API key: the app's identifier
    /// (`X-Ios-Bundle-Identifier` or `X-Android-Package`), for API-key restrictions.
    package var appHeaders: [String: String]

    /// Creates a wire format description.
    package init(
        baseURL: URL = FirebaseInstallationsWire.defaultBaseURL, project: String, apiKey: String, appID: String, sdkVersion: String,
        appHeaders: [String: String] = [:]
    ) {
        self.baseURL = baseURL
        self.project = project
        self.apiKey = apiKey
        self.appID = appID
        self.sdkVersion = sdkVersion
        self.appHeaders = appHeaders
    }

    /// The request registering `fid`.
    package func createRequest(fid: String) -> WireRequest {
        let body: JSONValue = .object([
            "fid": .string(fid),
            "appId": .string(appID),
            "authVersion": "FIS_v2",
            "sdkVersion": .string(sdkVersion),
        ])
        return WireRequest(method: .post, url: url("/installations"), headers: headers(), body: body.data())
    }

    /// The request for a new auth token of the installation `fid`.
    package func generateAuthTokenRequest(fid: String, refreshToken: String) -> WireRequest {
        var headers = headers()
        headers["Authorization"] = "FIS_v2 \(refreshToken)"
        let body: JSONValue = .object(["installation": .object(["sdkVersion": .string(sdkVersion), "appId": .string(appID)])])
        return WireRequest(method: .post, url: url("/installations/\(WireURL.encode(fid))/authTokens:generate"), headers: headers, body: body.data())
    }

    /// Decodes the answer to `createRequest`: the registered installation, its token issued at
    /// `now`.
    package func decodeCreateResponse(_ response: WireResponse, now: Date) throws(FirebaseInstallationsError) -> FirebaseInstallationsRecord {
        let object = try Self.object(in: response, what: "create installation")
        guard let fid = object["fid"]?.stringValue, FirebaseInstallations.isValidFID(fid) else {
            throw .invalidResponse(message: "create installation: no valid fid")
        }
        guard let refreshToken = object["refreshToken"]?.stringValue, !refreshToken.isEmpty else {
            throw .invalidResponse(message: "create installation: no refreshToken")
        }
        guard let tokenObject = object["authToken"]?.objectValue else {
            throw .invalidResponse(message: "create installation: no authToken")
        }
        let token = try Self.authToken(tokenObject, now: now, what: "create installation")
        return FirebaseInstallationsRecord(fid: fid, appID: appID, refreshToken: refreshToken, authToken: token)
    }

    /// Decodes the answer to `generateAuthTokenRequest`: the token, issued at `now`.
    package func decodeAuthTokenResponse(_ response: WireResponse, now: Date) throws(FirebaseInstallationsError) -> FirebaseInstallationsAuthToken {
        try Self.authToken(Self.object(in: response, what: "generate auth token"), now: now, what: "generate auth token")
    }

    // MARK: - Helpers

    private func url(_ suffix: String) -> URL {
        WireURL.make(base: baseURL, encodedPath: "/v1/projects/\(WireURL.encode(project))" + suffix, query: [])
    }

    private func headers() -> [String: String] {
        var headers = ["Content-Type": "application/json", "Accept": "application/json", "X-Goog-Api-Key": apiKey]
        headers.merge(appHeaders) { sent, _ in sent }
        return headers
    }

    /// The JSON object of a 200 answer; a typed error for any other status or body.
    private static func object(in response: WireResponse, what: String) throws(FirebaseInstallationsError) -> [String: JSONValue] {
        guard response.statusCode == 200 else { throw error(for: response) }
        guard let json = try? JSONValue(parsing: response.body), let object = json.objectValue else {
            throw .invalidResponse(message: "\(what): the body is not a JSON object")
        }
        return object
    }

    private static func authToken(_ object: [String: JSONValue], now: Date, what: String) throws(FirebaseInstallationsError) -> FirebaseInstallationsAuthToken {
        guard let token = object["token"]?.stringValue, !token.isEmpty else {
            throw .invalidResponse(message: "\(what): no token")
        }
        guard let expiresIn = object["expiresIn"]?.stringValue, let seconds = duration(expiresIn), seconds > 0 else {
            throw .invalidResponse(message: "\(what): no valid expiresIn")
        }
        return FirebaseInstallationsAuthToken(token: token, expirationDate: now.addingTimeInterval(seconds))
    }

    /// Reads a protobuf JSON duration (`"604800s"`, `"3.5s"`).
    static func duration(_ text: String) -> TimeInterval? {
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds.isFinite else { return nil }
        return seconds
    }

    /// The error for a non-200 answer.
    static func error(for response: WireResponse) -> FirebaseInstallationsError {
        let status = response.statusCode
        if status == 429 { return .rateLimited }
        if (500...599).contains(status) { return .unavailable(statusCode: status) }
        if (400...499).contains(status) { return .http(statusCode: status, message: RemoteConfigWire.googleErrorMessage(in: response)) }
        return .invalidResponse(message: "unexpected HTTP status \(status)")
    }
}
