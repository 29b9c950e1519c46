import ConfigFeatures
import Foundation

/// The Realtime Database REST API's error bodies.
enum DatabaseWire {
    /// `{"error":"<message>"}`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, ["error": .string(message)])
    }

    static let permissionDenied = error(401, "Permission denied")
    static let invalidData = error(400, "Invalid data; couldn't parse JSON object, array, or value.")

    /// A 200 answer whose body is not valid JSON.
    static let malformedBody = Data(#"{"path":"/","data":{"unterminated"#.utf8)
}

extension ServerState {
    /// Answers a request to `/{path}.json`.
    ///
    /// - Parameters:
    ///   - rawPath: The decoded path before `.json`.
    ///   - pushID: The key a `POST` stores under (generated outside the lock).
    ///   - malformed: Whether a stream's first event must be malformed (fault).
    mutating func handleDatabase(_ request: HTTPRequest, rawPath: String, pushID: String, connection: Connection, malformed: Bool, _ effects: inout Effects) -> Reply {
        let location: RealtimeDatabasePath
        do {
            location = try RealtimeDatabasePath(rawPath)
        } catch {
            return .response(DatabaseWire.error(400, "Invalid path: \(error)"))
        }
        let token = request.query("auth") ?? request.query("access_token")
        guard database.allows(token) else { return .response(DatabaseWire.permissionDenied) }
        let print = request.query("print")

        switch request.method {
        case "GET":
            if request.header("accept")?.lowercased().contains("text/event-stream") == true {
                return openDatabaseStream(at: location, token: token, connection: connection, malformed: malformed)
            }
            return .response(success(databaseValue(at: location), print: print))
        case "PUT", "POST", "PATCH":
            guard let body = try? JSONValue(parsing: request.body) else { return .response(DatabaseWire.invalidData) }
            do {
                switch request.method {
                case "PUT":
                    apply(try DatabaseChange.set(body, at: location), &effects)
                    return .response(success(body, print: print))
                case "POST":
                    apply(try DatabaseChange.set(body, at: location.child(pushID)), &effects)
                    return .response(success(["name": .string(pushID)], print: print))
                default:
                    guard let members = body.objectValue else {
                        return .response(DatabaseWire.error(400, "Invalid data; couldn't parse JSON object. PATCH requires an object of children to update."))
                    }
                    apply(try DatabaseChange.update(members, at: location), &effects)
                    return .response(success(body, print: print))
                }
            } catch {
                return .response(DatabaseWire.error(400, "\(error)"))
            }
        case "DELETE":
            apply(.set(location, .null), &effects)
            return .response(success(.null, print: print))
        default:
            return .response(DatabaseWire.error(405, "Method \(request.method) not allowed"))
        }
    }

    /// 200 with `value` (`print=pretty` indents it, `print=silent` answers 204).
    private func success(_ value: JSONValue, print: String?) -> HTTPResponse {
        switch print {
        case "silent": return HTTPResponse(status: 204)
        case "pretty": return .json(200, value, prettyPrinted: true)
        default: return .json(200, value)
        }
    }

    /// Registers an SSE stream of `location` and queues its first `put` (after a malformed one
    /// for the `malformedJSON` fault).
    private mutating func openDatabaseStream(at location: RealtimeDatabasePath, token: String?, connection: Connection, malformed: Bool) -> Reply {
        let first = ServerSentEvents.change("put", path: "/", data: databaseValue(at: location))
        let pending = malformed ? [ServerSentEvents.malformedPut, first] : [first]
        streams[connection.id] = OpenStream(kind: .database(location: location, token: token), connection: connection, pending: pending)
        return .stream(head: HTTPResponse.streamHead(contentType: "text/event-stream; charset=utf-8"))
    }
}
