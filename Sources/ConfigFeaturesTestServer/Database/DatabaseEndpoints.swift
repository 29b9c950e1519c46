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
            let query: ResolvedRealtimeDatabaseQuery?
            do {
                query = try RealtimeDatabaseRESTQuery.query(at: rawPath, parameters: request.query)?.resolved()
            } catch {
                return .response(DatabaseWire.error(400, Self.reason(error)))
            }
            let shallow = request.query("shallow")
            if let shallow, shallow != "true" && shallow != "false" {
                return .response(DatabaseWire.error(400, "shallow must be true or false"))
            }
            if shallow == "true" && query != nil {
                return .response(DatabaseWire.error(400, "Mixing 'shallow' and querying parameters is not supported"))
            }
            if request.header("accept")?.lowercased().contains("text/event-stream") == true {
                return openDatabaseStream(at: location, query: query, token: token, connection: connection, malformed: malformed)
            }
            var value = databaseValue(at: location)
            if let query { value = query.result(of: value) }
            if shallow == "true" { value = Self.shallow(value) }
            return .response(success(value, print: print))
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

    /// `shallow=true`: an object's children become `true`; a leaf stays as it is.
    private static func shallow(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.mapValues { _ in .bool(true) })
        case .array(let elements):
            var members: [String: JSONValue] = [:]
            for (index, element) in elements.enumerated() where element != .null { members[String(index)] = .bool(true) }
            return .object(members)
        default: return value
        }
    }

    /// The reason of a rejected query, as the REST API words its 400 answers.
    private static func reason(_ error: RealtimeDatabaseError) -> String {
        if case .invalidQuery(_, let reason) = error { return reason }
        return "\(error)"
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
    private mutating func openDatabaseStream(at location: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery?, token: String?, connection: Connection, malformed: Bool) -> Reply {
        var value = databaseValue(at: location)
        if let query { value = query.result(of: value) }
        let first = ServerSentEvents.change("put", path: "/", data: value)
        let pending = malformed ? [ServerSentEvents.malformedPut, first] : [first]
        streams[connection.id] = OpenStream(kind: .database(location: location, token: token, query: query), connection: connection, pending: pending)
        return .stream(head: HTTPResponse.streamHead(contentType: "text/event-stream; charset=utf-8"))
    }
}
