import Foundation

/// The Firebase Realtime Database REST wire format: builds requests and decodes responses as
/// plain values (no I/O).
///
/// - URL: `{databaseURL}/{path}.json` (each path segment percent-encoded; `/.json` for the
///   root), plus `auth=` or `access_token=` from `auth`. A query already on `databaseURL` (the
///   emulator's `?ns=`) is kept.
/// - Reads: `GET`; streams: `GET` with `Accept: text/event-stream` (the transport must follow
///   HTTP 307 redirects).
/// - Writes: `setValue` → `PUT` (the value), `updateChildValues` → `PATCH` (an object keyed by
///   relative paths; `null` deletes), `removeValue` → `DELETE`, push → `POST`. JSON bodies.
package struct RealtimeDatabaseRESTWire: Sendable, Hashable {
    /// The database URL, e.g. `https://<db>.firebaseio.com` (a path prefix is kept).
    package var databaseURL: URL
    /// The credential sent with every request.
    package var auth: FirebaseRESTAuth

    /// Creates a wire format description.
    package init(databaseURL: URL, auth: FirebaseRESTAuth = .none) {
        self.databaseURL = databaseURL
        self.auth = auth
    }

    /// The REST URL of `path`: `{databaseURL}/{segments}.json` with the credential, and the
    /// parameters of `query` (see `RealtimeDatabaseRESTQuery`).
    package func url(for path: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery? = nil) -> URL {
        let encodedPath = "/" + path.segments.map(WireURL.encode).joined(separator: "/") + ".json"
        var items = auth.queryItem.map { [$0] } ?? []
        if let query { items += RealtimeDatabaseRESTQuery.parameters(for: query) }
        return WireURL.make(base: databaseURL, encodedPath: encodedPath, query: items)
    }

    /// A one-time read of `path` (`GET`), of what `query` selects there when given.
    package func readRequest(at path: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery? = nil) -> WireRequest {
        WireRequest(method: .get, url: url(for: path, query: query), headers: ["Accept": "application/json"])
    }

    /// The streaming read of `path` (`GET` with `Accept: text/event-stream`), of what `query`
    /// selects there when given.
    package func streamRequest(at path: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery? = nil) -> WireRequest {
        WireRequest(method: .get, url: url(for: path, query: query), headers: ["Accept": "text/event-stream"])
    }

    /// A read of `path` that asks for its ETag (`GET` with `X-Firebase-ETag: true`), the first
    /// step of a transaction.
    package func eTagReadRequest(at path: RealtimeDatabasePath) -> WireRequest {
        WireRequest(method: .get, url: url(for: path), headers: ["Accept": "application/json", "X-Firebase-ETag": "true"])
    }

    /// A conditional `PUT` of `value` at `path` (`if-match: eTag`): the server stores it only
    /// if the value there still has that ETag, else answers 412 with the current value and
    /// ETag.
    ///
    /// - Throws: ``RealtimeDatabaseError`` for an invalid value (nothing is sent).
    package func conditionalSetRequest(_ value: JSONValue, at path: RealtimeDatabasePath, eTag: String, limits: RealtimeDatabaseLimits = .firebase) throws
        -> WireRequest
    {
        var request = jsonRequest(.put, at: path, body: try RealtimeDatabaseTree.normalized(value, at: path, limits: limits))
        request.headers["if-match"] = eTag
        return request
    }

    /// The request performing `write`, after validating it as ``InMemoryRealtimeDatabase`` does.
    ///
    /// Values are sent normalized (nulls inside objects and empty containers dropped); an
    /// update's keys are sent as canonical relative paths (`"/a/b/"` → `"a/b"`) with `null`
    /// values kept (they delete).
    ///
    /// - Throws: ``RealtimeDatabaseError`` for an invalid path, value or update, or one past
    ///   `limits` (nothing is sent).
    package func request(for write: RealtimeDatabaseWrite, limits: RealtimeDatabaseLimits = .firebase) throws -> WireRequest {
        switch write {
        case .setValue(let value, let pathText):
            let path = try RealtimeDatabasePath(pathText, limits: limits)
            return jsonRequest(.put, at: path, body: try RealtimeDatabaseTree.normalized(value, at: path, limits: limits))
        case .updateChildValues(let values, let pathText):
            let path = try RealtimeDatabasePath(pathText, limits: limits)
            var body: [String: JSONValue] = [:]
            for write in try RealtimeDatabaseUpdate.writes(values, at: pathText, limits: limits) { body[write.relativeKey] = write.value }
            return jsonRequest(.patch, at: path, body: .object(body))
        case .removeValue(let pathText):
            let path = try RealtimeDatabasePath(pathText, limits: limits)
            return WireRequest(method: .delete, url: url(for: path), headers: ["Accept": "application/json"])
        }
    }

    /// A push (`POST`) of `value` under a server-generated key at `path`; the response is
    /// `{"name": "<key>"}`.
    ///
    /// - Throws: ``RealtimeDatabaseError`` for an invalid path or value, or one past `limits`
    ///   (counting the key the server adds).
    package func pushRequest(_ value: JSONValue, at pathText: String, limits: RealtimeDatabaseLimits = .firebase) throws -> WireRequest {
        let path = try RealtimeDatabasePath(pathText, limits: limits)
        if path.depth + 1 > limits.maximumDepth {
            throw RealtimeDatabaseError.pathTooDeep(depth: path.depth + 1, limit: limits.maximumDepth)
        }
        return jsonRequest(.post, at: path, body: try RealtimeDatabaseTree.normalized(value, at: path, keysBelow: 1, limits: limits))
    }

    // MARK: - Responses

    /// Decodes a response: the JSON body of a 2xx response (`.null` when empty, as for 204).
    ///
    /// - Throws: `error(for:)`'s error for other statuses, `.invalidResponse` for a body that is
    ///   not JSON, `RealtimeDatabaseError.pathTooDeep` for one nesting more than
    ///   `maximumJSONDepth` arrays and objects (the depth `limits` leave below the location).
    package static func decodeResponse(
        _ response: WireResponse, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth, limits: RealtimeDatabaseLimits = .firebase
    ) throws -> JSONValue {
        if let error = error(for: response) { throw error }
        if response.body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .null }
        do {
            return try JSONValue(parsing: response.body, maximumDepth: maximumJSONDepth)
        } catch let error as JSONParseError {
            if case .nestingTooDeep = error.kind {
                throw RealtimeDatabaseError.pathTooDeep(depth: limits.maximumDepth + 1, limit: limits.maximumDepth)
            }
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(error)")
        }
    }

    /// The error for a response status (`nil` for 2xx): 400 → `.invalidData`, 401/403 →
    /// `.permissionDenied`, 5xx → `.unavailable`, anything else → `.http`, each with the
    /// server's `{"error": "…"}` message when present.
    package static func error(for response: WireResponse) -> FirebaseRESTDatabaseError? {
        let status = response.statusCode
        if (200...299).contains(status) { return nil }
        let message = errorMessage(in: response)
        switch status {
        case 400: return .invalidData(message: message)
        case 401, 403: return .permissionDenied(message: message)
        case 500...599: return .unavailable(statusCode: status, message: message)
        default: return .http(statusCode: status, message: message)
        }
    }

    /// Whether a 401 `response` to a user's ID token may come from a stale token, so that one
    /// forced refresh and one retry may cure it: every 401 but a Security Rules denial.
    ///
    /// Firebase answers a denial with `{"error": "Permission denied"}`, which a fresh token
    /// would only earn again; its token errors ("Auth token is expired", "Could not parse auth
    /// token.", "Invalid token in path") are stale. A body that cannot be read counts as stale
    /// too: only a body that says "Permission denied" skips the refresh.
    static func isStaleTokenRefusal(_ response: WireResponse) -> Bool {
        guard response.statusCode == 401 else { return false }
        return !errorMessage(in: response).lowercased().contains("permission denied")
    }

    /// The server's `{"error": "…"}` message (or Google's `{"error": {"message": …}}`), else
    /// the body text, else `"no details"`.
    static func errorMessage(in response: WireResponse) -> String {
        if let json = try? JSONValue(parsing: response.body), let error = json["error"] {
            if let message = error.stringValue, !message.isEmpty { return message }
            if let message = error["message"]?.stringValue, !message.isEmpty { return message }
        }
        return response.bodyExcerpt() ?? "no details"
    }

    // MARK: - Helpers

    private func jsonRequest(_ method: WireRequest.Method, at path: RealtimeDatabasePath, body: JSONValue) -> WireRequest {
        WireRequest(
            method: method,
            url: url(for: path),
            headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: body.data()
        )
    }
}
