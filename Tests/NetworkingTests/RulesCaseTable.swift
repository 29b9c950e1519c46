import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation

/// One case of `Scripts/rules-cases.json`: Security Rules cases drawn from Firebase's
/// documentation examples, shared with `Scripts/firebase_admin_check.py`.
struct RulesTableCase {
    enum Operation {
        /// A read of the path, with REST query parameters (`orderBy`, `equalTo`, `limitToFirst`, …).
        case read(String, query: [String: JSONValue])
        /// A write of the value at the path (`null` deletes).
        case write(String, JSONValue)
        /// A multi-location update: each relative path and its value.
        case update(String, [String: JSONValue])
    }

    var name: String
    /// The documentation page the case is drawn from.
    var doc: String
    /// The rules text (Firebase's rules JSON).
    var rules: String
    /// The `auth` the rules see: `.null` when signed out.
    var auth: JSONValue
    /// The database before the operation.
    var data: JSONValue
    var operation: Operation
    var allowed: Bool

    /// Where the table is: `Scripts/rules-cases.json` of this package.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/rules-cases.json")

    /// The table's rule sets by name, as texts.
    static func rulesets() throws -> [String: String] {
        let table = try JSONValue(parsing: Data(contentsOf: url))
        guard let sets = table["rulesets"]?.objectValue else { throw RulesTableError("no rulesets in \(url.path)") }
        return sets.mapValues { $0.serialized() }
    }

    /// Every case of the table.
    static func load() throws -> [RulesTableCase] {
        let table = try JSONValue(parsing: Data(contentsOf: url))
        let sets = try rulesets()
        guard let cases = table["cases"]?.arrayValue, let docs = table["docs"]?.objectValue else { throw RulesTableError("no cases or docs in \(url.path)") }
        return try cases.map { entry in
            guard let name = entry["name"]?.stringValue, let doc = entry["doc"]?.stringValue, docs[doc] != nil,
                let rulesName = entry["rules"]?.stringValue, let rules = sets[rulesName], let expected = entry["expected"]?.stringValue,
                expected == "allow" || expected == "deny", let operation = entry["operation"]
            else { throw RulesTableError("malformed case \(entry)") }
            return RulesTableCase(
                name: name, doc: doc, rules: rules, auth: entry["auth"] ?? .null, data: entry["data"] ?? .null, operation: try Self.operation(operation),
                allowed: expected == "allow")
        }
    }

    private static func operation(_ json: JSONValue) throws -> Operation {
        if let path = json["read"]?.stringValue { return .read(path, query: json["query"]?.objectValue ?? [:]) }
        if let path = json["write"]?.stringValue, let value = json["value"] { return .write(path, value) }
        if let path = json["update"]?.stringValue, let values = json["values"]?.objectValue { return .update(path, values) }
        throw RulesTableError("unknown operation \(json)")
    }

    static func segments(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    /// The rules' `query` for REST query parameters, as the server derives it.
    static func rulesQuery(_ parameters: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = DatabaseRules.noQuery else { return DatabaseRules.noQuery }
        switch parameters["orderBy"]?.stringValue {
        case "$key": members["orderByKey"] = true
        case "$value": members["orderByValue"] = true
        case "$priority": members["orderByPriority"] = true
        case let child?: members["orderByChild"] = .string(child)
        case nil: break
        }
        for name in ["limitToFirst", "limitToLast", "startAt", "endAt", "equalTo"] {
            if let value = parameters[name] { members[name] = value }
        }
        return .object(members)
    }

    /// The decision of `rules` on this case, in process.
    func decide(_ rules: DatabaseRules, now: Double) -> RulesDecision {
        switch operation {
        case .read(let path, let query):
            return rules.read(Self.segments(path), auth: auth, root: data, now: now, query: Self.rulesQuery(query))
        case .write(let path, let value):
            return rules.write(RulesWrite([(Self.segments(path), value)]), auth: auth, root: data, now: now)
        case .update(let path, let values):
            let base = Self.segments(path)
            return rules.write(RulesWrite(values.sorted { $0.key < $1.key }.map { (base + Self.segments($0.key), $0.value) }), auth: auth, root: data, now: now)
        }
    }
}

/// A malformed `Scripts/rules-cases.json`.
struct RulesTableError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
