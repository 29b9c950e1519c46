import ConfigFeatures
import Foundation

/// The Firebase Installations side of the server state: registered installations and the auth
/// tokens issued to them.
struct InstallationsState {
    /// One registered installation.
    struct Installation {
        var appID: String
        var sdkVersion: String?
        var refreshToken: String
        /// The auth tokens issued (and not superseded by a re-registration), with their expiry.
        var authTokens: [String: Date] = [:]
        var issuedTokenCount = 0
    }

    /// Installations by FID.
    var installations: [String: Installation] = [:]
    /// The order the FIDs were first registered in.
    var registrationOrder: [String] = []
    /// How long an issued auth token lives.
    var authTokenLifetime: TimeInterval = 7 * 24 * 60 * 60
    /// Whether Remote Config requests must carry a valid installation auth token.
    var requiresAuthToken = false
    /// A counter that makes every token unique.
    var tokenSerial = 0

    /// Whether `token` was issued to the installation `fid` and has not expired at `now`.
    func isValid(token: String, fid: String, at now: Date) -> Bool {
        guard let expiry = installations[fid]?.authTokens[token] else { return false }
        return expiry > now
    }
}

extension ServerState {
    /// The error for a request to the wrong project or without a valid API key, if any (the
    /// checks Google's APIs make before anything else).
    func googleAPIAccessError(_ request: HTTPRequest, project: String) -> HTTPResponse? {
        guard request.method == "POST" else {
            return RemoteConfigWire.error(404, "The requested method \(request.method) is not allowed for \(request.path).", status: "NOT_FOUND")
        }
        guard let key = request.query("key") ?? request.header("x-goog-api-key"), !key.isEmpty else {
            return RemoteConfigWire.error(
                403,
                "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
                    + keyHint,
                status: "PERMISSION_DENIED")
        }
        guard key == configuration.apiKey else {
            return RemoteConfigWire.error(400, "API key not valid. Please pass a valid API key." + keyHint, status: "INVALID_ARGUMENT")
        }
        if let error = projectError(project) { return error }
        return nil
    }

    /// `text` when rejections are explained, else nothing (Google's message alone).
    func hint(_ text: @autoclosure () -> String) -> String {
        explainsRejections ? text() : ""
    }

    /// The key hint when rejections are explained.
    private var keyHint: String { hint(configuration.acceptedKeyHint) }

    /// The 403 for a request to a project other than the server's, if it is one.
    func projectError(_ project: String) -> HTTPResponse? {
        guard project != configuration.project else { return nil }
        return RemoteConfigWire.error(
            403,
            "Permission denied on resource project \(project)."
                + hint(
                    " FirebaseTestServer serves the project \"\(configuration.project)\" only "
                        + "(use that project ID, or start the server with --project \(project), FirebaseTestServer(project: \"\(project)\") in Swift)."),
            status: "PERMISSION_DENIED")
    }

    /// The 401 Google answers a request whose credentials are missing or invalid.
    static func unauthenticated(_ detail: String) -> HTTPResponse {
        RemoteConfigWire.error(401, "Request had invalid authentication credentials: \(detail).", status: "UNAUTHENTICATED")
    }

    /// When installation auth is required: the 401 for a Remote Config request whose
    /// `X-Goog-Firebase-Installations-Auth` (or the fetch body's `app_instance_id_token`) is not a
    /// valid token of the installation `fid`.
    func installationAuthError(_ request: HTTPRequest, fid: String?, bodyToken: String?, now: Date) -> HTTPResponse? {
        guard installations.requiresAuthToken else { return nil }
        guard let token = request.header("x-goog-firebase-installations-auth") ?? bodyToken, !token.isEmpty else {
            return Self.unauthenticated("no Firebase Installations auth token")
        }
        guard let fid, installations.isValid(token: token, fid: fid, at: now) else {
            return Self.unauthenticated("the Firebase Installations auth token is invalid or expired for this app instance")
        }
        return nil
    }

    /// Issues a new auth token for `fid`: `{token, expiresIn}`.
    mutating func issueAuthToken(fid: String, now: Date) -> JSONValue {
        installations.tokenSerial += 1
        let token = "fis-auth.\(fid).\(installations.tokenSerial)"
        let lifetime = installations.authTokenLifetime
        installations.installations[fid]?.authTokens[token] = now.addingTimeInterval(lifetime)
        installations.installations[fid]?.issuedTokenCount += 1
        return ["token": .string(token), "expiresIn": .string("\(Int(lifetime.rounded()))s")]
    }

    /// Answers `POST /v1/projects/{project}/installations`: registers the body's FID (a new one
    /// when it is not a valid FID, as Firebase does), with a new refresh token and auth token.
    mutating func createInstallation(_ request: HTTPRequest, project: String, now: Date) -> HTTPResponse {
        if let error = googleAPIAccessError(request, project: project) { return error }
        guard let body = Self.remoteConfigBody(request) else {
            return RemoteConfigWire.error(400, "Invalid JSON payload received. The installation must be a JSON object.")
        }
        guard let appID = body["appId"]?.stringValue, !appID.isEmpty else {
            return RemoteConfigWire.error(400, "Invalid argument: appId is required.")
        }
        guard body["authVersion"]?.stringValue == "FIS_v2" else {
            return RemoteConfigWire.error(400, "Invalid argument: authVersion must be FIS_v2.")
        }
        var fid = body["fid"]?.stringValue ?? ""
        if !FirebaseInstallations.isValidFID(fid) || installations.installations[fid].map({ $0.appID != appID }) == true {
            fid = FirebaseInstallations.generateFID()
        }
        installations.tokenSerial += 1
        let refreshToken = "fis-refresh.\(fid).\(installations.tokenSerial)"
        if installations.installations[fid] == nil { installations.registrationOrder.append(fid) }
        // A re-registration supersedes the old refresh token and auth tokens.
        installations.installations[fid] = InstallationsState.Installation(
            appID: appID, sdkVersion: body["sdkVersion"]?.stringValue, refreshToken: refreshToken)
        let authToken = issueAuthToken(fid: fid, now: now)
        return .json(
            200,
            [
                "name": .string("projects/\(project)/installations/\(fid)"),
                "fid": .string(fid),
                "refreshToken": .string(refreshToken),
                "authToken": authToken,
            ])
    }

    /// Answers `POST …/installations/{fid}/authTokens:generate`: 404 for an unknown (deleted)
    /// installation, 401 without its current refresh token (`Authorization: FIS_v2 <token>`).
    mutating func generateInstallationAuthToken(_ request: HTTPRequest, project: String, fid: String, now: Date) -> HTTPResponse {
        if let error = googleAPIAccessError(request, project: project) { return error }
        guard let installation = installations.installations[fid] else {
            return RemoteConfigWire.error(404, "Installation \(fid) not found (it was deleted).", status: "NOT_FOUND")
        }
        let authorization = request.header("authorization") ?? ""
        guard authorization.hasPrefix("FIS_v2 "), authorization.dropFirst("FIS_v2 ".count) == installation.refreshToken else {
            return Self.unauthenticated("the refresh token is missing, revoked or not this installation's")
        }
        return .json(200, issueAuthToken(fid: fid, now: now))
    }
}
