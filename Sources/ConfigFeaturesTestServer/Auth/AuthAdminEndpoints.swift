import ConfigFeatures
import Foundation

extension ServerState {
    /// Answers an Admin request to `/identitytoolkit.googleapis.com/v1/projects/{project}/accounts`
    /// (`method` empty: create) or `…/accounts:{method}`, as firebase-admin sends them in emulator
    /// mode (`Authorization: Bearer owner`).
    mutating func handleAuthAdmin(_ request: HTTPRequest, project: String, method: String, now realNow: Date, _ effects: inout Effects) -> HTTPResponse {
        if let error = projectError(project) { return error }
        guard request.header("authorization")?.lowercased() == "bearer \(FirebaseTestServer.adminToken)" else {
            return AuthWire.error(
                401,
                "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential."
                    + hint(" FirebaseTestServer accepts the emulator's admin credential, Authorization: Bearer owner, as firebase-admin sends it."),
                reason: "unauthorized", grpcStatus: "UNAUTHENTICATED")
        }
        let now = auth.clock(realNow)
        let fields: [String: JSONValue]
        if request.method == "GET" {
            fields = request.query.mapValues { .string($0) }
        } else {
            guard let body = try? JSONValue(parsing: request.body.isEmpty ? Data("{}".utf8) : request.body), let object = body.objectValue else {
                return AuthWire.error(400, "Invalid JSON payload received. The request body must be a JSON object.", grpcStatus: "INVALID_ARGUMENT")
            }
            fields = object
        }
        let result: Result<JSONValue, AuthWire.Failure>
        switch (request.method, method) {
        case ("POST", ""): result = adminCreate(fields, now: now)
        case ("POST", "lookup"): result = .success(adminLookup(fields))
        case ("POST", "update"): result = adminUpdate(fields, now: now, &effects)
        case ("POST", "delete"):
            guard let uid = fields["localId"]?.stringValue else { return AuthWire.Failure("MISSING_LOCAL_ID").response }
            guard deleteAuthUser(uid, &effects) else { return AuthWire.Failure("USER_NOT_FOUND").response }
            result = .success(["kind": "identitytoolkit#DeleteAccountResponse"])
        case ("GET", "batchGet"): result = adminBatchGet(fields)
        case ("POST", "batchDelete"): result = .success(adminBatchDelete(fields, &effects))
        default:
            return AuthWire.error(
                404, "Not found: \(request.method) accounts\(method.isEmpty ? "" : ":" + method) is not served by FirebaseTestServer.", grpcStatus: "NOT_FOUND")
        }
        switch result {
        case .success(let body): return .json(200, body)
        case .failure(let failure): return failure.response
        }
    }

    /// `POST …/accounts`: `localId`, `email`, `password`, `displayName`, `photoUrl`,
    /// `emailVerified`, `disabled`.
    private mutating func adminCreate(_ fields: [String: JSONValue], now: TimeInterval) -> Result<JSONValue, AuthWire.Failure> {
        if fields["phoneNumber"] != nil { return .failure(.init("INVALID_PHONE_NUMBER", "phone numbers are not supported by FirebaseTestServer")) }
        let created = createUser(
            uid: fields["localId"]?.stringValue, email: fields["email"]?.stringValue, password: fields["password"]?.stringValue,
            displayName: fields["displayName"]?.stringValue, disabled: fields["disabled"]?.boolValue ?? false,
            emailVerified: fields["emailVerified"]?.boolValue ?? false, now: now)
        return created.map { uid in
            if let photo = fields["photoUrl"]?.stringValue { auth.users[uid]?.photoURL = photo }
            var members: [String: JSONValue] = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(uid)]
            if let email = auth.users[uid]?.email { members["email"] = .string(email) }
            return .object(members)
        }
    }

    /// `POST …/accounts:lookup`: the accounts with the `localId`s and `email`s asked for (no
    /// `users` member when none matches, as Google answers).
    private func adminLookup(_ fields: [String: JSONValue]) -> JSONValue {
        var uids: [String] = []
        for uid in fields["localId"]?.arrayValue ?? [] {
            if let uid = uid.stringValue, auth.users[uid] != nil, !uids.contains(uid) { uids.append(uid) }
        }
        for email in fields["email"]?.arrayValue ?? [] {
            if let email = email.stringValue, let uid = auth.uid(forEmail: email), !uids.contains(uid) { uids.append(uid) }
        }
        var members: [String: JSONValue] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        if !uids.isEmpty { members["users"] = .array(uids.compactMap { auth.users[$0].map(AuthWire.record) }) }
        return .object(members)
    }

    /// `POST …/accounts:update`: the account fields, `disableUser`, `validSince` (seconds) and
    /// `customAttributes` (a JSON object as a string).
    private mutating func adminUpdate(_ fields: [String: JSONValue], now: TimeInterval, _ effects: inout Effects) -> Result<JSONValue, AuthWire.Failure> {
        guard let uid = fields["localId"]?.stringValue else { return .failure(.init("MISSING_LOCAL_ID")) }
        guard auth.users[uid] != nil else { return .failure(.init("USER_NOT_FOUND")) }
        if fields["phoneNumber"] != nil { return .failure(.init("INVALID_PHONE_NUMBER", "phone numbers are not supported by FirebaseTestServer")) }
        var claims: [String: JSONValue]?
        if let text = fields["customAttributes"]?.stringValue {
            guard let parsed = (try? JSONValue(parsing: text))?.objectValue else {
                return .failure(.init("INVALID_CLAIMS", "customAttributes must be a JSON object"))
            }
            if let reserved = parsed.keys.first(where: { AuthState.reservedClaims.contains($0) }) {
                return .failure(.init("FORBIDDEN_CLAIM", "\(reserved) is a reserved claim"))
            }
            claims = parsed
        }
        var validSince: TimeInterval?
        if let value = fields["validSince"] {
            guard let seconds = value.numberValue ?? value.stringValue.flatMap(Double.init) else { return .failure(.init("INVALID_VALID_SINCE")) }
            validSince = seconds
        }
        if case .failure(let failure) = applyUpdate(fields, to: uid, now: now, &effects) { return .failure(failure) }
        if let claims { auth.users[uid]?.customClaims = claims }
        if let validSince { auth.users[uid]?.validSince = validSince }
        if let disabled = fields["disableUser"]?.boolValue {
            auth.users[uid]?.disabled = disabled
            if disabled { endDatabaseStreamsWithInvalidTokens(&effects) }
        }
        return .success(["kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(uid)])
    }

    /// `GET …/accounts:batchGet?maxResults=N&nextPageToken=T`: the accounts ordered by uid, a
    /// page at a time (the token is the last uid of the previous page).
    private func adminBatchGet(_ fields: [String: JSONValue]) -> Result<JSONValue, AuthWire.Failure> {
        let limit = fields["maxResults"]?.stringValue.map { Int($0) } ?? 1000
        guard let limit, (1...1000).contains(limit) else { return .failure(.init("INVALID_PAGE_SELECTION")) }
        let after = fields["nextPageToken"]?.stringValue ?? ""
        let uids = auth.users.keys.sorted().filter { after.isEmpty || $0 > after }
        let page = uids.prefix(limit)
        var members: [String: JSONValue] = ["kind": "identitytoolkit#DownloadAccountResponse"]
        if !page.isEmpty { members["users"] = .array(page.compactMap { auth.users[$0].map(AuthWire.record) }) }
        if uids.count > limit, let last = page.last { members["nextPageToken"] = .string(last) }
        return .success(.object(members))
    }

    /// `POST …/accounts:batchDelete`: deletes the `localIds`; without `force`, enabled accounts
    /// are kept and reported (`NOT_DISABLED`), as Google does.
    private mutating func adminBatchDelete(_ fields: [String: JSONValue], _ effects: inout Effects) -> JSONValue {
        let force = fields["force"]?.boolValue ?? false
        var errors: [JSONValue] = []
        for (index, value) in (fields["localIds"]?.arrayValue ?? []).enumerated() {
            guard let uid = value.stringValue else { continue }
            if let user = auth.users[uid], !user.disabled, !force {
                errors.append([
                    "index": .number(Double(index)), "localId": .string(uid), "message": "NOT_DISABLED : Disable the account before batch deletion.",
                ])
                continue
            }
            _ = deleteAuthUser(uid, &effects)
        }
        var members: [String: JSONValue] = ["kind": "identitytoolkit#BatchDeleteAccountsResponse"]
        if !errors.isEmpty { members["errors"] = .array(errors) }
        return .object(members)
    }

    /// The emulator's own endpoints: `DELETE /emulator/v1/projects/{project}/accounts` removes
    /// every account; `GET|PATCH …/config` reads or sets
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy`.
    mutating func handleAuthEmulator(_ request: HTTPRequest, project: String, resource: String, _ effects: inout Effects) -> HTTPResponse {
        if let error = projectError(project) { return error }
        switch (request.method, resource) {
        case ("DELETE", "accounts"):
            auth.users.removeAll()
            auth.order.removeAll()
            auth.refreshTokens.removeAll()
            endDatabaseStreamsWithInvalidTokens(&effects)
            return .json(200, [:])
        case ("GET", "config"):
            return .json(200, emulatorConfig)
        case ("PATCH", "config"):
            guard let body = try? JSONValue(parsing: request.body), body.objectValue != nil else {
                return AuthWire.error(400, "Invalid JSON payload received. The config must be a JSON object.", grpcStatus: "INVALID_ARGUMENT")
            }
            if let enabled = body["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.boolValue { auth.emailEnumerationProtection = enabled }
            return .json(200, emulatorConfig)
        default:
            return AuthWire.error(
                404, "Not found: \(request.method) /emulator/v1/projects/\(project)/\(resource) is not served by FirebaseTestServer.", grpcStatus: "NOT_FOUND")
        }
    }

    private var emulatorConfig: JSONValue {
        [
            "signIn": ["allowDuplicateEmails": false],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(auth.emailEnumerationProtection)],
        ]
    }
}
