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

    /// The ETag of a stored value: a digest of its canonical JSON (equal values, equal ETags),
    /// opaque to clients as Firebase's are.
    static func eTag(of value: JSONValue) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in value.serialized().utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second &+ UInt64(byte) &+ 1) &* 0x9E37_79B9_7F4A_7C15
            second ^= second >> 29
        }
        return String(first, radix: 16).leftPadded16 + String(second, radix: 16).leftPadded16
    }

    /// A 200 answer whose body is not valid JSON.
    static let malformedBody = Data(#"{"path":"/","data":{"unterminated"#.utf8)
}

extension String {
    fileprivate var leftPadded16: String { String(repeating: "0", count: max(0, 16 - count)) + self }
}

extension ServerState {
    /// Answers a request to `/{path}.json`.
    ///
    /// - Parameters:
    ///   - rawPath: The decoded path before `.json`.
    ///   - pushID: The key a `POST` stores under (generated outside the lock).
    ///   - now: The request's instant (read outside the lock): the rules' `now` and the value of
    ///     the server timestamps a write stores, the same for both.
    ///   - malformed: Whether a stream's first event must be malformed (fault).
    mutating func handleDatabase(
        _ request: HTTPRequest, rawPath: String, pushID: String, now: Date, connection: Connection, malformed: Bool, _ effects: inout Effects
    )
        -> Reply
    {
        if rawPath.trimmingCharacters(in: ["/"]) == ".settings/rules" { return .response(handleRulesSettings(request, now: now, &effects)) }
        let location: RealtimeDatabasePath
        do {
            location = try RealtimeDatabasePath(rawPath)
        } catch {
            return .response(DatabaseWire.error(400, "Invalid path: \(error)"))
        }
        let token = Self.databaseToken(request)
        if let refusal = databaseAuthRefusal(token) { return .response(refusal) }
        let print = request.query("print")
        let current = databaseValue(at: location)

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
            if let refusal = rulesReadRefusal(request, at: location, now: now) { return .response(refusal) }
            if request.header("accept")?.lowercased().contains("text/event-stream") == true {
                rememberListen(request, at: location, connection: connection.id)
                return openDatabaseStream(at: location, query: query, token: token, connection: connection, malformed: malformed)
            }
            let eTag = DatabaseWire.eTag(of: current)
            if let expected = request.header("if-none-match") {
                if query != nil || shallow == "true" {
                    return .response(DatabaseWire.error(400, "ETag headers cannot be combined with query parameters or shallow"))
                }
                if expected == eTag { return .response(HTTPResponse(status: 304, headers: [("ETag", eTag)])) }
                return .response(success(current, print: print, eTag: eTag))
            }
            var value = current
            if let query { value = query.result(of: value) }
            if shallow == "true" { value = Self.shallow(value) }
            let wantsETag = request.header("x-firebase-etag")?.lowercased() == "true"
            if wantsETag && (query != nil || shallow == "true") {
                return .response(DatabaseWire.error(400, "ETag headers cannot be combined with query parameters or shallow"))
            }
            return .response(success(value, print: print, eTag: wantsETag ? eTag : nil))
        case "PUT", "POST", "PATCH", "DELETE":
            if let expected = request.header("if-match") {
                // Conditional writes (PUT and DELETE only, as Firebase's REST API): a stale ETag
                // is answered 412 with the current value and ETag, and nothing is written.
                guard request.method == "PUT" || request.method == "DELETE" else {
                    return .response(DatabaseWire.error(400, "if-match is only supported for PUT and DELETE"))
                }
                let eTag = DatabaseWire.eTag(of: current)
                if expected != eTag { return .response(.json(412, current, headers: [("ETag", eTag)])) }
            }
            let conditional = request.header("if-match") != nil
            if request.method == "DELETE" {
                if let refusal = rulesWriteRefusal(request, .set(location, .null), now: now) { return .response(refusal) }
                apply(.set(location, .null), at: now, &effects)
                return .response(success(.null, print: print, eTag: conditional ? DatabaseWire.eTag(of: .null) : nil))
            }
            guard let body = try? JSONValue(parsing: request.body) else { return .response(DatabaseWire.invalidData) }
            do {
                switch request.method {
                case "PUT":
                    let change = try DatabaseChange.set(body, at: location)
                    if let refusal = rulesWriteRefusal(request, change, now: now) { return .response(refusal) }
                    apply(change, at: now, &effects)
                    let stored = databaseValue(at: location)
                    return .response(success(stored, print: print, eTag: conditional ? DatabaseWire.eTag(of: stored) : nil))
                case "POST":
                    let change = try DatabaseChange.set(body, at: location.child(pushID))
                    if let refusal = rulesWriteRefusal(request, change, now: now) { return .response(refusal) }
                    apply(change, at: now, &effects)
                    return .response(success(["name": .string(pushID)], print: print))
                default:
                    guard let members = body.objectValue else {
                        return .response(DatabaseWire.error(400, "Invalid data; couldn't parse JSON object. PATCH requires an object of children to update."))
                    }
                    let change = try DatabaseChange.update(members, at: location)
                    if let refusal = rulesWriteRefusal(request, change, now: now) { return .response(refusal) }
                    let applied = apply(change, at: now, &effects)
                    guard case .update(let base, let writes) = applied else { return .response(success(body, print: print)) }
                    var written: [String: JSONValue] = [:]
                    for (path, value, _) in writes { written[DatabaseChange.relativeKey(path, to: base)] = value }
                    return .response(success(.object(written), print: print))
                }
            } catch {
                return .response(DatabaseWire.error(400, "\(error)"))
            }
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

    /// 200 with `value` (`print=pretty` indents it, `print=silent` answers 204), with an `ETag`
    /// header when given.
    private func success(_ value: JSONValue, print: String?, eTag: String? = nil) -> HTTPResponse {
        let headers = eTag.map { [(name: "ETag", value: $0)] } ?? []
        switch print {
        case "silent": return HTTPResponse(status: 204, headers: headers)
        case "pretty": return .json(200, value, prettyPrinted: true, headers: headers)
        default: return .json(200, value, headers: headers)
        }
    }

    /// Registers an SSE stream of `location` and queues its first `put` (after a malformed one
    /// for the `malformedJSON` fault).
    private mutating func openDatabaseStream(
        at location: RealtimeDatabasePath, query: ResolvedRealtimeDatabaseQuery?, token: String?, connection: Connection, malformed: Bool
    ) -> Reply {
        var value = databaseValue(at: location)
        if let query { value = query.result(of: value) }
        let first = ServerSentEvents.change("put", path: "/", data: value)
        let pending = malformed ? [ServerSentEvents.malformedPut, first] : [first]
        streams[connection.id] = OpenStream(kind: .database(location: location, token: token, query: query), connection: connection, pending: pending)
        return .stream(head: HTTPResponse.streamHead(contentType: "text/event-stream; charset=utf-8"))
    }
}
