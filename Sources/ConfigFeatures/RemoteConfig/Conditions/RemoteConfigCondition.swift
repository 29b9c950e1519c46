/// A condition of a Remote Config template: a name, and an expression in Firebase's condition
/// syntax (`device.os == 'ios' && app.version >= '2.0'`).
///
/// A parameter's `conditionalValues` are keyed by condition name; for each fetch the first
/// condition, in template order, that is true and has a value for the parameter gives it.
/// See <doc:RemoteConfigConditions>.
public struct RemoteConfigCondition: Sendable, Hashable {
    /// The condition's name, unique in its template.
    public var name: String
    /// The expression (Firebase's client-template condition syntax).
    public var expression: String
    /// The console's colour for the condition (`BLUE`, `GREEN`, …), kept for round trips.
    public var tagColor: String?

    /// Creates a condition (it is parsed when its template is built).
    public init(name: String, expression: String, tagColor: String? = nil) {
        self.name = name
        self.expression = expression
        self.tagColor = tagColor
    }
}

/// A parameter's value in a Remote Config template, default or conditional.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigParameterValue: Sendable, Hashable {
    /// `{"value": "…"}`: the fetch answers this text.
    case value(String)
    /// `{"useInAppDefault": true}`: the fetch leaves the parameter out, so the app's in-app
    /// default applies.
    case useInAppDefault
}

/// Why a Remote Config template cannot be published.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RemoteConfigTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not JSON.
    case invalidJSON(reason: String)
    /// The JSON is not a Remote Config template: `path` is where
    /// (`parameters.welcome.defaultValue`), `expected` what belongs there.
    case invalidTemplate(path: String, expected: String)
    /// A condition's expression cannot be parsed, or its name is missing or repeated.
    case invalidCondition(RemoteConfigConditionError)

    /// A readable description of what is wrong and where.
    public var description: String {
        switch self {
        case .invalidJSON(let reason): return "the Remote Config template is not valid JSON: \(reason)"
        case .invalidTemplate(let path, let expected): return "the JSON is not a Remote Config template: at \(path), expected \(expected)"
        case .invalidCondition(let error): return "the Remote Config template has an invalid \(error)"
        }
    }
}
