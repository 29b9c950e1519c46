import Foundation

/// A comparison operator of a condition (`==`, `!=`, `<`, `<=`, `>`, `>=`).
enum ConditionComparison: String, CaseIterable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether `order` (the value compared with the target) satisfies the operator.
    func holds(_ order: ComparisonResult) -> Bool {
        switch self {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        }
    }
}

/// A string operator of a condition, written as a method: `app.version.contains(['1.2'])`.
enum ConditionStringOperator: String, CaseIterable, Sendable {
    /// Some target is a substring of the value.
    case contains
    /// No target is a substring of the value.
    case notContains
    /// Some target equals the value.
    case exactlyMatches
    /// Some target, a regular expression, matches part of the value.
    case matches
}

/// What a value element (`app.version`, `app.customSignal['x']`, …) is tested with.
enum ConditionValueTest: Sendable {
    /// The value read as a number, compared with a number (`app.customSignal['n'] >= 10`).
    case number(ConditionComparison, Double)
    /// The value compared with a version, segment by segment (`app.version >= '2.1.0'`,
    /// `app.version.>=(['2.1.0'])`); with `==`/`!=`, text that is not a version compares as text.
    case version(ConditionComparison, [String])
    /// Text equality: `==` when some target equals the value, `!=` when none does (`app.id`).
    case text(ConditionComparison, [String])
    /// `contains`, `notContains`, `exactlyMatches`.
    case strings(ConditionStringOperator, [String])
    /// `matches`: some regular expression matches.
    case regex([ConditionRegex])
}

/// A date literal: `dateTime('2026-04-01T09:00:00', 'Asia/Tokyo')` or `('…', '…')`.
struct ConditionDate: Sendable {
    var components: DateComponents
    /// The fixed time zone; `nil` uses the element's own (the device's for `dateTime`, GMT for
    /// `app.firstOpenTimestamp`).
    var timeZone: TimeZone?

    /// The instant, in `timeZone` or else `fallback`.
    func date(fallback: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone ?? fallback
        return calendar.date(from: components)
    }
}

/// One element of a condition (the parts joined by `&&`).
enum ConditionTerm: Sendable {
    case appID(ConditionValueTest)
    case appVersion(ConditionValueTest)
    case appBuild(ConditionValueTest)
    case userProperty(String, ConditionValueTest)
    case customSignal(String, ConditionValueTest)
    case installationID([String])
    case os(ConditionComparison, String)
    case language([String])
    case country([String])
    case dateTime(ConditionComparison, ConditionDate)
    case firstOpen(ConditionComparison, ConditionDate)
    /// The instance's micro-percentile for `seed` is in `lower...upper` (0…100,000,000).
    case percent(seed: String, lower: Int64, upper: Int64)
}

/// A parsed condition expression: its terms, all of which must hold.
package struct RemoteConfigConditionExpression: Sendable {
    let terms: [ConditionTerm]

    /// Parses `expression`, Firebase's client-template condition syntax.
    ///
    /// - Parameter condition: The condition's name, for errors.
    /// - Throws: `RemoteConfigConditionError` with the position of the problem.
    package init(parsing expression: String, condition: String = "") throws(RemoteConfigConditionError) {
        var parser = try ConditionParser(expression, condition: condition)
        terms = try parser.parseCondition()
    }

    /// Whether every term holds for `context`.
    package func evaluate(_ context: RemoteConfigConditionContext) -> Bool {
        terms.allSatisfy { ConditionEvaluator.holds($0, context) }
    }
}
