import Foundation

/// A parsed server template: its conditions in order and its parameters, read as
/// firebase-admin's `_ServerTemplateData` and `_ConditionEvaluator` read them. `package`: the
/// test server checks a published template with it (one parse, the same errors).
package struct RemoteConfigServerTemplateData: Sendable {
    /// A named condition, in template order.
    struct NamedCondition: Sendable {
        /// `name`; a condition without one never selects a value.
        var name: String?
        /// `condition`.
        var condition: RemoteConfigServerCondition
    }

    /// A parameter's `defaultValue` or one of its `conditionalValues`.
    struct Value: Sendable, Hashable {
        /// The value object is `null` or `{}`: firebase-admin treats it as absent.
        var isEmpty: Bool
        /// `useInAppDefault` is set (Python-truthy).
        var useInAppDefault: Bool
        /// `value`; `nil` when absent.
        var value: String?
    }

    /// A parameter's values.
    struct Parameter: Sendable {
        /// `defaultValue`; `nil` when absent.
        var defaultValue: Value?
        /// `conditionalValues` by condition name.
        var conditionalValues: [String: Value]
    }

    /// The conditions in template order.
    var conditions: [NamedCondition]
    /// The parameters by key.
    var parameters: [String: Parameter]
    /// `version.versionNumber` when the template has one.
    var versionNumber: String?
    /// The template's ETag (from the response's `ETag` header, or the JSON's `etag`).
    var eTag: String?
    /// The template as received.
    package var json: JSONValue

    /// Parses a server template's JSON.
    ///
    /// - Throws: ``RemoteConfigServerTemplateError/invalidJSON(_:)`` for text that is not JSON,
    ///   ``RemoteConfigServerTemplateError/invalidTemplate(path:expected:)`` for JSON that is not a template.
    package init(data: Data, eTag: String? = nil) throws(RemoteConfigServerTemplateError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        try self.init(json: json, eTag: eTag)
    }

    /// Parses a server template already read as JSON.
    init(json: JSONValue, eTag: String? = nil) throws(RemoteConfigServerTemplateError) {
        guard case .object(let root) = json else { throw .invalidTemplate(path: "the template", expected: "a JSON object") }
        self.json = json
        conditions = []
        if let list = root["conditions"] {
            guard case .array(let items) = list else {
                throw .invalidTemplate(path: "conditions", expected: "a non-null array")
            }
            for (index, item) in items.enumerated() {
                let path = "conditions[\(index)]"
                guard case .object(let named) = item else { throw .invalidTemplate(path: "\(path)", expected: "an object") }
                var name: String?
                switch named["name"] {
                case nil, .null?: name = nil
                case .string(let value)?: name = value
                default: throw .invalidTemplate(path: "\(path).name", expected: "a string")
                }
                let condition = try RemoteConfigServerCondition.parse(named["condition"] ?? .object([:]), level: 0, path: path + ".condition")
                conditions.append(NamedCondition(name: name, condition: condition))
            }
        }
        parameters = [:]
        if let map = root["parameters"] {
            guard case .object(let entries) = map else {
                throw .invalidTemplate(path: "parameters", expected: "a non-null object")
            }
            for (key, entry) in entries {
                let path = "parameters.\(key)"
                guard case .object(let fields) = entry else { throw .invalidTemplate(path: "\(path)", expected: "an object") }
                var parameter = Parameter(defaultValue: nil, conditionalValues: [:])
                if let value = fields["defaultValue"] {
                    parameter.defaultValue = try Self.value(value, path: path + ".defaultValue")
                }
                switch fields["conditionalValues"] {
                case nil, .null?:
                    break
                case .object(let values)?:
                    for (name, value) in values {
                        parameter.conditionalValues[name] = try Self.value(value, path: "\(path).conditionalValues.\(name)")
                    }
                default:
                    throw .invalidTemplate(path: "\(path).conditionalValues", expected: "an object")
                }
                parameters[key] = parameter
            }
        }
        if case .object(let version)? = root["version"] {
            switch version["versionNumber"] {
            case .string(let number)?: versionNumber = number
            case .number(let number)?: versionNumber = String(Int(exactly: number) ?? 0)
            default: versionNumber = nil
            }
        }
        if let eTag {
            self.eTag = eTag
        } else if case .string(let tag)? = root["etag"] {
            self.eTag = tag
        } else {
            self.eTag = nil
        }
    }

    private static func value(_ json: JSONValue, path: String) throws(RemoteConfigServerTemplateError) -> Value {
        switch json {
        case .null:
            return Value(isEmpty: true, useInAppDefault: false, value: nil)
        case .object(let fields):
            let useInAppDefault = fields["useInAppDefault"].map(Self.isTruthy) ?? false
            switch fields["value"] {
            case nil, .null?:
                return Value(isEmpty: fields.isEmpty, useInAppDefault: useInAppDefault, value: nil)
            case .string(let value)?:
                return Value(isEmpty: false, useInAppDefault: useInAppDefault, value: value)
            default:
                throw .invalidTemplate(path: "\(path).value", expected: "a string")
            }
        default:
            throw .invalidTemplate(path: "\(path)", expected: "an object")
        }
    }

    /// Python's truth value of a JSON value.
    private static func isTruthy(_ json: JSONValue) -> Bool {
        switch json {
        case .null: return false
        case .bool(let value): return value
        case .number(let value): return value != 0
        case .string(let value): return !value.isEmpty
        case .array(let value): return !value.isEmpty
        case .object(let value): return !value.isEmpty
        }
    }
}
