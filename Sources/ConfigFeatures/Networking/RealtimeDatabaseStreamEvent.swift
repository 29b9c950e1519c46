import Foundation

/// One event of a Realtime Database REST stream (`GET …/path.json` with
/// `Accept: text/event-stream`), decoded from its ``ServerSentEvent``.
///
/// Paths are relative to the streamed location. Apply `put` and `patch` to a
/// `RealtimeDatabaseStreamTree`.
package enum RealtimeDatabaseStreamEvent: Sendable, Hashable {
    /// `put`: replace the node at `path` with `data` (`null` deletes it); the first `put` at
    /// `/` is the full snapshot.
    case put(path: RealtimeDatabasePath, data: JSONValue)
    /// `patch`: for each key of `data` (a relative path, possibly with `/`), replace that child
    /// of `path`.
    case patch(path: RealtimeDatabasePath, data: [String: JSONValue])
    /// `keep-alive`: nothing changed; the connection is alive.
    case keepAlive
    /// `cancel`: the security rules no longer allow reading the location; the server closes
    /// the stream.
    case cancel(reason: String?)
    /// `auth_revoked`: the credential expired or was revoked; reconnect with a fresh one.
    case authRevoked(reason: String?)

    /// Decodes `event`; `nil` for an event type the protocol does not define (ignore it).
    ///
    /// `put` and `patch` data must be `{"path": "/…", "data": …}` (for `patch`, `data` an object
    /// whose keys are valid relative paths). The reason of `cancel` and `auth_revoked` is the
    /// data as a JSON string, `nil` for `null` or nothing, else the raw text.
    ///
    /// Paths are checked against `limits`, for a stream of a location `depthAbove` keys below
    /// the root; the data is parsed with JSON nesting up to the depth the limits leave (the
    /// depth of every node is checked when a `RealtimeDatabaseStreamTree` applies the event).
    ///
    /// - Throws: `FirebaseRESTDatabaseError.invalidResponse` for a malformed `put` or `patch`;
    ///   `RealtimeDatabaseError.pathTooDeep` or `.keyTooLong` for a path or data past `limits`.
    package static func decode(_ event: ServerSentEvent, limits: RealtimeDatabaseLimits = .firebase, depthAbove: Int = 0) throws -> RealtimeDatabaseStreamEvent?
    {
        switch event.type {
        case "put":
            let (path, data) = try pathAndData(of: event, limits: limits, depthAbove: depthAbove)
            return .put(path: path, data: data)
        case "patch":
            let (path, data) = try pathAndData(of: event, limits: limits, depthAbove: depthAbove)
            guard let children = data.objectValue else {
                throw FirebaseRESTDatabaseError.invalidResponse(message: "patch data is not an object: \(data)")
            }
            for key in children.keys {
                do {
                    guard !key.isEmpty, key != "/" else { throw RealtimeDatabaseError.invalidPath(key, reason: "empty key") }
                    _ = try RealtimeDatabasePath(key, limits: limits, depthAbove: depthAbove + path.depth)
                } catch let error as RealtimeDatabaseError {
                    if case .invalidPath = error {
                        throw FirebaseRESTDatabaseError.invalidResponse(message: "patch key \"\(key)\" is not a valid path")
                    }
                    throw error
                }
            }
            return .patch(path: path, data: children)
        case "keep-alive":
            return .keepAlive
        case "cancel":
            return .cancel(reason: reason(in: event.data))
        case "auth_revoked":
            return .authRevoked(reason: reason(in: event.data))
        default:
            return nil
        }
    }

    private static func pathAndData(of event: ServerSentEvent, limits: RealtimeDatabaseLimits, depthAbove: Int) throws -> (RealtimeDatabasePath, JSONValue) {
        let json: JSONValue
        // The event object is one level; its data may nest as deep as the limit leaves below
        // the streamed location.
        let dataDepth = max(0, limits.maximumDepth - depthAbove)
        do {
            json = try JSONValue(parsing: event.data, maximumDepth: dataDepth + 1)
        } catch let error as JSONParseError {
            if case .nestingTooDeep = error.kind {
                throw RealtimeDatabaseError.pathTooDeep(depth: limits.maximumDepth + 1, limit: limits.maximumDepth)
            }
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(event.type) event: \(error)")
        }
        guard let object = json.objectValue else {
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(event.type) event is not an object: \(json)")
        }
        guard let pathText = object["path"]?.stringValue else {
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(event.type) event has no path: \(json)")
        }
        let path: RealtimeDatabasePath
        do {
            path = try RealtimeDatabasePath(pathText, limits: limits, depthAbove: depthAbove)
        } catch {
            if case .invalidPath = error {
                throw FirebaseRESTDatabaseError.invalidResponse(message: "\(event.type) event has an invalid path \"\(pathText)\"")
            }
            throw error
        }
        guard let data = object["data"] else {
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(event.type) event has no data: \(json)")
        }
        return (path, data)
    }

    private static func reason(in data: String) -> String? {
        let text = data.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return nil }
        switch try? JSONValue(parsing: text) {
        case .null?: return nil
        case .string(let reason)?: return reason
        case let other?: return other.serialized()
        case nil: return text
        }
    }
}
