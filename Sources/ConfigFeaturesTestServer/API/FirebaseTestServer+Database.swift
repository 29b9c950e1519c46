import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// Replaces the database's clock (by default `Date()`), read once per database request and
    /// per write of the Swift API: that instant is the rules' `now` and the value of the server
    /// timestamps the write stores. A test hook (e.g. a clock that moves on every read, to show
    /// that one write reads it once).
    package func setDatabaseClock(_ clock: @escaping @Sendable () -> Date) {
        engine.setClock(clock)
    }

    /// The value at `path` (`.null` when absent).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`.
    public func databaseValue(at path: String) throws -> JSONValue {
        let location = try RealtimeDatabasePath(path)
        return engine.read { $0.databaseValue(at: location) }
    }

    /// Replaces the value at `path` (`.null` deletes it and prunes parents left empty), as a
    /// REST `PUT` would: streams of affected locations get a `put`.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath` or `.invalidValue`; nothing is written then.
    public func setDatabaseValue(_ value: JSONValue, at path: String) throws {
        let change = try DatabaseChange.set(value, at: RealtimeDatabasePath(path))
        let now = engine.now()
        engine.mutate { state, effects in _ = state.apply(change, at: now, &effects) }
    }

    /// Sets several children of `path` at once (keys are relative paths and may contain `/`;
    /// `.null` deletes), as a REST `PATCH` would: streams get a `patch` (or a `put` at `/`
    /// when a key covers their whole location).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.invalidValue` or `.invalidUpdate`
    ///   (an empty or overlapping key); nothing is written then.
    public func updateDatabaseChildren(_ values: [String: JSONValue], at path: String) throws {
        let change = try DatabaseChange.update(values, at: RealtimeDatabasePath(path))
        let now = engine.now()
        engine.mutate { state, effects in _ = state.apply(change, at: now, &effects) }
    }

    /// Deletes the value at `path` (and prunes parents left empty), as a REST `DELETE` would.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`.
    public func removeDatabaseValue(at path: String) throws {
        try setDatabaseValue(.null, at: path)
    }

    /// Replaces the whole database with the JSON `json` (an object of children, usually), as a
    /// REST `PUT` at `/` would: open streams get a `put`.
    ///
    /// - Parameters:
    ///   - json: The new contents.
    ///   - file: The file it came from, named in errors (`nil`: none).
    /// - Throws: `FirebaseTestServerDataError.invalidJSON` or `.invalidDatabase` (a key Firebase
    ///   refuses, say); nothing is written then.
    public func loadDatabase(json: Data, file: String? = nil) throws(FirebaseTestServerDataError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .invalidJSON(file: file, reason: "\(error)")
        }
        do {
            try setDatabaseValue(value, at: "/")
        } catch {
            throw .invalidDatabase(file: file, reason: "\(error)")
        }
    }

    /// Replaces the whole database with the JSON in the file at `url` (see `loadDatabase(json:file:)`).
    ///
    /// - Throws: `FirebaseTestServerDataError.unreadable`, `.invalidJSON` or `.invalidDatabase`.
    public func loadDatabase(contentsOf url: URL) throws(FirebaseTestServerDataError) {
        try loadDatabase(json: FirebaseTestServerDataError.read(url), file: url.path)
    }

    /// Requires a credential on every database request (`auth=`, `access_token=` or
    /// `Authorization: Bearer`): an ID token this server issued (unexpired on the auth clock, of
    /// an existing enabled user), one of `validTokens` (none by default), or the admin token
    /// `owner` (`adminToken`). Without one: 401 `{"error":"Permission denied"}`; an expired ID
    /// token: 401 `{"error":"Auth token is expired"}`; anything else: 401
    /// `{"error":"Could not parse auth token."}`. Open streams are not affected.
    public func requireDatabaseAuth(validTokens: Set<String> = []) {
        engine.mutate { state, _ in state.database.validTokens = validTokens }
    }

    /// Accepts database requests without a token again (the default); revoked tokens stay refused.
    public func allowUnauthenticatedDatabaseAccess() {
        engine.mutate { state, _ in state.database.validTokens = nil }
    }

    /// Revokes `token`: every open database stream opened with it gets `auth_revoked`
    /// (data `"credential is no longer valid"`) and is closed, and requests presenting it get
    /// 401 from now on.
    public func revokeAuth(_ token: String) {
        engine.mutate { state, effects in
            state.database.revokedTokens.insert(token)
            state.database.validTokens?.remove(token)
            for id in state.openStreamIDs(.database) {
                guard case .database(_, let streamToken, _)? = state.streams[id]?.kind, streamToken == token else { continue }
                state.end(stream: id, after: ServerSentEvents.authRevoked, &effects)
            }
        }
    }

    /// Sends `cancel` (data `null`) on every open database stream and closes them, as Firebase
    /// does when the rules stop allowing a read.
    public func sendCancel() {
        engine.mutate { state, effects in
            for id in state.openStreamIDs(.database) {
                state.end(stream: id, after: ServerSentEvents.cancel, &effects)
            }
        }
    }

    /// The interval of `keep-alive` events (data `null`) on idle database streams; `nil` (the
    /// default) sends none.
    public var databaseKeepAliveInterval: TimeInterval? {
        get { engine.read { $0.database.keepAliveInterval } }
        set {
            engine.mutate { state, effects in
                state.database.keepAliveInterval = newValue
                // Wake the streams so they wait with the new interval.
                for id in state.openStreamIDs(.database) {
                    if let connection = state.streams[id]?.connection { effects.doorbells.append(connection) }
                }
            }
        }
    }
}
