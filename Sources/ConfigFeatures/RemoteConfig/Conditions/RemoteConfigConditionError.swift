/// Why a Remote Config condition's expression cannot be used: the condition, where in its
/// expression the problem starts, and what it is.
///
/// Thrown when a template is published (`InMemoryRemoteConfigBackend.publish(templateJSON:)`,
/// the test server's `RemoteConfigTemplate(json:)`), so a condition that cannot be evaluated is
/// refused instead of silently evaluating to false. See <doc:RemoteConfigConditions>.
public struct RemoteConfigConditionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Reason: Sendable, Hashable {
        /// A character that starts no token (`#`, a lone `&`).
        case unexpectedCharacter(Character)
        /// A string literal without its closing quote.
        case unterminatedString
        /// `found` where `expected` belongs (`end of expression` when the text ends early).
        case unexpectedToken(found: String, expected: String)
        /// An element Firebase has but this evaluator does not (`app.audiences`,
        /// `app.firebasePredefined`, `app.operatingSystemAndVersion`, …), or one Firebase does not
        /// have; `element` names it.
        case unsupportedElement(String)
        /// An operator the element does not take (`device.os > 'ios'`, `||`, which Firebase's
        /// conditions lack); `element` names the element.
        case unsupportedOperator(String, element: String)
        /// A literal that cannot be used: a date that is not `yyyy-MM-ddTHH:mm:ss`, an unknown
        /// time zone, a percentage outside 0…100, a regular expression this evaluator cannot
        /// run; `reason` says which.
        case invalidLiteral(String, reason: String)
        /// The expression, a list or a regular expression is longer than `limit` (characters or
        /// items): conditions are small, and a bound keeps evaluation fast.
        case tooLong(limit: Int)
        /// The condition has no name, or its name is used by another condition.
        case invalidName(String)
    }

    /// The condition's name (`""` when the condition has none).
    public var condition: String
    /// The 0-based offset, in characters, of the problem in `expression` (its length when
    /// the expression ends early).
    public var position: Int
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(condition: String, position: Int, reason: Reason) {
        self.condition = condition
        self.position = position
        self.reason = reason
    }

    /// A readable description: the condition, the position and the reason.
    public var description: String {
        "condition \"\(condition)\" at position \(position): " + reasonText
    }

    private var reasonText: String {
        switch reason {
        case .unexpectedCharacter(let character):
            return "unexpected character \"\(character)\""
        case .unterminatedString:
            return "a string literal has no closing quote"
        case .unexpectedToken(let found, let expected):
            return "found \(found), expected \(expected)"
        case .unsupportedElement(let element):
            return "\(element) is not supported (see the Remote Config conditions article)"
        case .unsupportedOperator(let op, let element):
            return "\(element) does not take the operator \(op)"
        case .invalidLiteral(let literal, let reason):
            return "\(literal): \(reason)"
        case .tooLong(let limit):
            return "longer than \(limit)"
        case .invalidName(let reason):
            return reason
        }
    }
}
