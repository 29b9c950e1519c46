import Foundation

/// A client Remote Config template with its conditions parsed: what `FirebaseTestServer` and
/// ``InMemoryRemoteConfigBackend`` evaluate for each fetch.
///
/// For each parameter, the first condition in template order that is true for the fetch and
/// has a conditional value for the parameter gives its value; otherwise its default does. A
/// value of `useInAppDefault`, or no value at all, leaves the parameter out of the answer.
package struct RemoteConfigConditionalTemplate: Sendable {
    /// Each parameter's default value (`nil`: none).
    package private(set) var defaults: [String: RemoteConfigParameterValue]
    /// The conditions, in template order.
    package private(set) var conditions: [RemoteConfigCondition]
    /// Each parameter's conditional values, keyed by condition name.
    package private(set) var conditionalValues: [String: [String: RemoteConfigParameterValue]]
    private let expressions: [RemoteConfigConditionExpression]

    /// A template without conditions whose parameters have these values.
    package init(values: [String: String]) {
        defaults = values.mapValues { .value($0) }
        conditions = []
        conditionalValues = [:]
        expressions = []
    }

    /// A template with conditions.
    ///
    /// - Throws: `.invalidCondition` for a condition that does not parse or whose name is empty
    ///   or repeated; `.invalidTemplate` for a conditional value of a condition the template
    ///   does not have.
    package init(
        defaults: [String: RemoteConfigParameterValue], conditions: [RemoteConfigCondition],
        conditionalValues: [String: [String: RemoteConfigParameterValue]]
    ) throws(RemoteConfigTemplateError) {
        var names: Set<String> = []
        var expressions: [RemoteConfigConditionExpression] = []
        for condition in conditions {
            guard !condition.name.isEmpty else {
                throw .invalidCondition(RemoteConfigConditionError(condition: "", position: 0, reason: .invalidName("a condition needs a name")))
            }
            guard names.insert(condition.name).inserted else {
                throw .invalidCondition(
                    RemoteConfigConditionError(condition: condition.name, position: 0, reason: .invalidName("another condition has the same name")))
            }
            do {
                expressions.append(try RemoteConfigConditionExpression(parsing: condition.expression, condition: condition.name))
            } catch {
                throw .invalidCondition(error)
            }
        }
        for (parameter, values) in conditionalValues.sorted(by: { $0.key < $1.key }) {
            for name in values.keys.sorted() where !names.contains(name) {
                throw .invalidTemplate(path: "parameters.\(parameter).conditionalValues.\(name)", expected: "the name of one of the template's conditions")
            }
        }
        self.defaults = defaults
        self.conditions = conditions
        self.conditionalValues = conditionalValues.filter { !$0.value.isEmpty }
        self.expressions = expressions
    }

    /// Reads Firebase's template JSON.
    package init(json: Data) throws(RemoteConfigTemplateError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .invalidJSON(reason: "\(error)")
        }
        try self.init(parsing: value)
    }

    /// Reads Firebase's template JSON: `conditions`, and `parameters` and every
    /// `parameterGroups.*.parameters` with their `defaultValue` and `conditionalValues`.
    /// `version`, `etag`, `description` and `valueType` are ignored.
    package init(parsing template: JSONValue) throws(RemoteConfigTemplateError) {
        try self.init(reading: RemoteConfigTemplateReader(template))
    }

    private init(reading reader: RemoteConfigTemplateReader) throws(RemoteConfigTemplateError) {
        let parts = try reader.read()
        try self.init(defaults: parts.defaults, conditions: parts.conditions, conditionalValues: parts.conditionalValues)
    }

    /// The parameters the default values give (without conditions), `useInAppDefault` left out.
    package var defaultEntries: [String: String] {
        defaults.compactMapValues { if case .value(let text) = $0 { return text } else { return nil } }
    }

    /// What a fetch with `context` gets: each parameter's value from the first true condition
    /// that has one, else its default; `useInAppDefault` and missing values left out.
    package func entries(for context: RemoteConfigConditionContext) -> [String: String] {
        guard isConditional else { return defaultEntries }
        let holding = zip(conditions, expressions).filter { $0.1.evaluate(context) }.map(\.0.name)
        var entries: [String: String] = [:]
        for name in Set(defaults.keys).union(conditionalValues.keys) {
            let conditional = conditionalValues[name] ?? [:]
            let value = holding.lazy.compactMap { conditional[$0] }.first ?? defaults[name]
            if case .value(let text)? = value { entries[name] = text }
        }
        return entries
    }

    /// Whether fetches may get different values (the template has conditional values).
    package var isConditional: Bool { !conditions.isEmpty && !conditionalValues.isEmpty }

    /// The ETag of an answer: `base` for a template without conditional values, else `base`
    /// plus a digest of `entries`, so an instance whose targeting changed (a new custom signal)
    /// gets its new values instead of "no change".
    package func eTag(_ base: String, entries: [String: String]) -> String {
        guard isConditional else { return base }
        var text = ""
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) { text += "\(key.utf8.count):\(key)\(value.utf8.count):\(value)" }
        let digest = SHA256.hex(Array(SHA256.digest(text).prefix(6)))
        return "\(base)-\(digest)"
    }

    /// The template in Firebase's JSON shape (`conditions`, `parameters`).
    package var json: JSONValue {
        func encode(_ value: RemoteConfigParameterValue) -> JSONValue {
            switch value {
            case .value(let text): return ["value": .string(text)]
            case .useInAppDefault: return ["useInAppDefault": true]
            }
        }
        var parameters: [String: JSONValue] = [:]
        for name in Set(defaults.keys).union(conditionalValues.keys) {
            var fields: [String: JSONValue] = [:]
            if let value = defaults[name] { fields["defaultValue"] = encode(value) }
            if let values = conditionalValues[name] { fields["conditionalValues"] = .object(values.mapValues(encode)) }
            parameters[name] = .object(fields)
        }
        let conditions = conditions.map { condition -> JSONValue in
            var fields: [String: JSONValue] = ["name": .string(condition.name), "expression": .string(condition.expression)]
            if let color = condition.tagColor { fields["tagColor"] = .string(color) }
            return .object(fields)
        }
        return ["conditions": .array(conditions), "parameters": .object(parameters)]
    }
}
