import ConfigFeatures
import Foundation

/// Who the rules see for a request.
enum RulesSubject {
    /// The admin token without an override: rules are bypassed.
    case admin
    /// `auth` (`.null` when signed out).
    case auth(JSONValue)
    /// An invalid `auth_variable_override`.
    case refused(HTTPResponse)
}

/// What a streaming listen was opened as, to check it again when the rules change.
struct RulesListen {
    var auth: JSONValue
    var location: [String]
    var query: JSONValue
}

extension ServerState {
    /// Who the rules see for `request`: `nil` for the admin (`owner`, rules bypassed), else
    /// `auth` (`.null` when signed out), or `auth_variable_override`'s JSON with the admin token.
    func rulesAuth(_ request: HTTPRequest) -> RulesSubject {
        let verified = databaseAuth(of: request)
        if verified?.isAdmin == true {
            guard let override = request.query("auth_variable_override") else { return .admin }
            guard let value = try? JSONValue(parsing: override), value == .null || value.objectValue != nil else {
                return .refused(DatabaseWire.error(400, "auth_variable_override must be a JSON object or null"))
            }
            return .auth(value)
        }
        guard let verified else { return .auth(.null) }
        return .auth(.object(["uid": .string(verified.uid), "provider": .string(verified.provider), "token": .object(verified.token)]))
    }

    /// `query` of a REST read: its `orderBy`, limits and bounds.
    static func rulesQuery(_ request: HTTPRequest) -> JSONValue {
        guard case .object(var members) = DatabaseRules.noQuery else { return DatabaseRules.noQuery }
        if let orderBy = request.query("orderBy").flatMap({ try? JSONValue(parsing: $0) })?.stringValue {
            switch orderBy {
            case "$key": members["orderByKey"] = .bool(true)
            case "$value": members["orderByValue"] = .bool(true)
            case "$priority": members["orderByPriority"] = .bool(true)
            default: members["orderByChild"] = .string(orderBy)
            }
        }
        for name in ["limitToFirst", "limitToLast", "startAt", "endAt", "equalTo"] {
            if let value = request.query(name).flatMap({ try? JSONValue(parsing: $0) }) { members[name] = value }
        }
        return .object(members)
    }

    /// The milliseconds of `date` as `now` in rules: as a server timestamp resolves at `date`
    /// (whole milliseconds, rounded down), so that a write's `{".sv": "timestamp"}` is `now`
    /// (one write reads the clock once: the rules and `apply(_:at:_:)` get the same `date`).
    static func rulesNow(at date: Date) -> Double { (date.timeIntervalSince1970 * 1_000).rounded(.down) }

    /// Firebase's `401 {"error": "Permission denied"}`, with the deciding rule in an
    /// `X-Firebase-Test-Server-Rules` header when `explainsRejections` is on.
    func rulesDenial(_ decision: RulesDecision) -> HTTPResponse {
        var denial = DatabaseWire.permissionDenied
        if explainsRejections { denial.headers.append(("X-Firebase-Test-Server-Rules", decision.explanation)) }
        return denial
    }

    /// The refusal of a read (or listen) of `location` at `now`, if the rules deny it.
    func rulesReadRefusal(_ request: HTTPRequest, at location: RealtimeDatabasePath, now: Date) -> HTTPResponse? {
        guard let rules = database.rules else { return nil }
        switch rulesAuth(request) {
        case .refused(let response): return response
        case .admin: return nil
        case .auth(let auth):
            let decision = rules.read(location.segments, auth: auth, root: database.root, now: Self.rulesNow(at: now), query: Self.rulesQuery(request))
            return decision.allowed ? nil : rulesDenial(decision)
        }
    }

    /// The refusal of `change` at `now`, if the rules deny it (all its locations or none). Its
    /// server values resolve at `now`, as `apply(_:at:_:)` then stores them.
    func rulesWriteRefusal(_ request: HTTPRequest, _ change: DatabaseChange, now: Date) -> HTTPResponse? {
        guard let rules = database.rules else { return nil }
        switch rulesAuth(request) {
        case .refused(let response): return response
        case .admin: return nil
        case .auth(let auth):
            let write: RulesWrite
            switch change.resolved(in: database.root, now: now) {
            case .set(let location, let value, _): write = RulesWrite([(location.segments, value)])
            case .update(_, let writes): write = RulesWrite(writes.map { ($0.0.segments, $0.1) })
            }
            let decision = rules.write(write, auth: auth, root: database.root, now: Self.rulesNow(at: now))
            return decision.allowed ? nil : rulesDenial(decision)
        }
    }

    /// Remembers what the listen on `connection` was opened as (for `cancelDeniedListens`).
    mutating func rememberListen(_ request: HTTPRequest, at location: RealtimeDatabasePath, connection id: UInt64) {
        guard case .auth(let auth) = rulesAuth(request) else { return }
        database.rulesListens[id] = RulesListen(auth: auth, location: location.segments, query: Self.rulesQuery(request))
    }

    /// After a rules or data change at `now`: sends `cancel` on, and closes, every listen the
    /// rules now deny.
    mutating func cancelDeniedListens(now: Date, _ effects: inout Effects) {
        database.rulesListens = database.rulesListens.filter { streams[$0.key].map { !$0.isEnding } ?? false }
        for (id, listen) in database.rulesListens.sorted(by: { $0.key < $1.key }) {
            let milliseconds = Self.rulesNow(at: now)
            let allowed =
                database.rules.map { $0.read(listen.location, auth: listen.auth, root: database.root, now: milliseconds, query: listen.query).allowed } ?? true
            guard !allowed else { continue }
            end(stream: id, after: ServerSentEvents.cancel, &effects)
            database.rulesListens[id] = nil
        }
    }

    /// `GET`/`PUT /.settings/rules.json` (admin token only), as Firebase's REST API.
    mutating func handleRulesSettings(_ request: HTTPRequest, now: Date, _ effects: inout Effects) -> HTTPResponse {
        guard databaseAuth(of: request)?.isAdmin == true else { return DatabaseWire.permissionDenied }
        switch request.method {
        case "GET":
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Data((database.rules?.text ?? DatabaseRules.openText).utf8))
        case "PUT":
            do throws(FirebaseTestServerRulesError) {
                database.rules = try DatabaseRules(String(decoding: request.body, as: UTF8.self))
            } catch {
                return DatabaseWire.error(400, "\(error)")
            }
            cancelDeniedListens(now: now, &effects)
            return .json(200, ["status": "ok"])
        default:
            return DatabaseWire.error(405, "Method \(request.method) not allowed on /.settings/rules.json")
        }
    }
}
