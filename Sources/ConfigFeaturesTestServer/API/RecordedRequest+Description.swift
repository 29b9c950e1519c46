import ConfigFeatures
import Foundation

extension FirebaseTestServer.RecordedRequest: CustomStringConvertible {
    /// The query parameters, headers and JSON or form body members that carry credentials:
    /// their values are redacted in `description`.
    public static let secretNames: Set<String> = [
        "auth", "access_token", "key", "authorization", "x-goog-api-key", "x-goog-firebase-installations-auth", "idtoken", "id_token",
        "refreshtoken", "refresh_token", "password", "token", "oobcode", "app_instance_id_token",
    ]

    /// `METHOD path?query` with the route, the verified uid and the body, every credential
    /// (tokens, passwords, API keys) replaced by `<redacted>`.
    public var description: String {
        var text = "\(method) \(path)"
        if !query.isEmpty {
            text += "?" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.redacted($0.key, $0.value))" }.joined(separator: "&")
        }
        text += " [\(route.map(\.description) ?? "unknown")]"
        if let auth { text += " auth uid=\(auth.uid) provider=\(auth.provider)" }
        let secretHeaders = headers.keys.filter { Self.secretNames.contains($0) }.sorted()
        if !secretHeaders.isEmpty { text += " headers " + secretHeaders.map { "\($0): <redacted>" }.joined(separator: ", ") }
        if !body.isEmpty { text += " body " + redactedBody }
        return text
    }

    /// The body with credential members redacted (JSON or form-encoded); its size otherwise.
    private var redactedBody: String {
        if let json = bodyJSON { return Self.redacting(json).serialized() }
        if let text = String(data: body, encoding: .utf8), text.contains("=") {
            return text.split(separator: "&").map { pair -> String in
                let halves = pair.split(separator: "=", maxSplits: 1)
                let name = String(halves[0])
                return Self.secretNames.contains(name.lowercased()) ? "\(name)=<redacted>" : String(pair)
            }.joined(separator: "&")
        }
        return "(\(body.count) bytes)"
    }

    private static func redacted(_ name: String, _ value: String) -> String {
        secretNames.contains(name.lowercased()) ? "<redacted>" : value
    }

    private static func redacting(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (name, member) in members { result[name] = secretNames.contains(name.lowercased()) ? "<redacted>" : redacting(member) }
            return .object(result)
        case .array(let elements): return .array(elements.map(redacting))
        default: return value
        }
    }
}
