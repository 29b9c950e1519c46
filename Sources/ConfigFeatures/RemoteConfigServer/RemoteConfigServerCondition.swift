/// A server template's condition, parsed from Firebase's JSON the way firebase-admin reads it.
///
/// A node is read by the first of these keys whose value is not `null`: `orCondition`,
/// `andCondition`, `true`, `false`, `percent`, `customSignal`; a node with none of them is
/// ``unknown`` (false). Nodes at nesting level 10 or deeper are never evaluated by
/// firebase-admin (each `and`/`or` adds two levels), so they are not read either.
indirect enum RemoteConfigServerCondition: Sendable, Hashable {
    /// True when any subcondition is (false for none).
    case or([RemoteConfigServerCondition])
    /// True when every subcondition is (true for none).
    case and([RemoteConfigServerCondition])
    /// `true` or `false`.
    case constant(Bool)
    /// A seeded percentile of the randomization ID.
    case percent(Percent)
    /// A comparison of one custom signal with target values.
    case customSignal(CustomSignal)
    /// A node firebase-admin does not recognise, or one deeper than it evaluates: false.
    case unknown

    /// The nesting level at which firebase-admin stops and answers false (`MAX_CONDITION_RECURSION_DEPTH`).
    static let maximumLevel = 10

    /// A `percent` condition's fields as firebase-admin reads them (absent or falsy numbers are 0).
    struct Percent: Sendable, Hashable {
        /// `seed`; an empty or absent seed hashes the randomization ID alone.
        var seed: String
        /// `percentOperator`: `LESS_OR_EQUAL`, `GREATER_THAN`, `BETWEEN`; others are false.
        var percentOperator: String
        /// `microPercent`, for `LESS_OR_EQUAL` and `GREATER_THAN`.
        var microPercent: Double
        /// `microPercentRange.microPercentLowerBound` (exclusive), for `BETWEEN`.
        var lowerBound: Double
        /// `microPercentRange.microPercentUpperBound` (inclusive), for `BETWEEN`.
        var upperBound: Double
    }

    /// A `customSignal` condition's fields.
    struct CustomSignal: Sendable, Hashable {
        /// `customSignalOperator`, e.g. `STRING_CONTAINS`, `NUMERIC_LESS_THAN`, `SEMANTIC_VERSION_EQUAL`.
        var signalOperator: String
        /// `customSignalKey`: the context key compared.
        var key: String
        /// `targetCustomSignalValues`; numeric and version operators use the first.
        var targets: [String]
    }

    /// Parses `json` found at nesting `level` (0 for a named condition's `condition`).
    ///
    /// - Throws: ``RemoteConfigServerTemplateError/invalidTemplate(path:expected:)`` naming `path` when a
    ///   field has the wrong JSON type.
    static func parse(_ json: JSONValue, level: Int, path: String) throws(RemoteConfigServerTemplateError) -> RemoteConfigServerCondition {
        if level >= maximumLevel { return .unknown }
        guard case .object(let node) = json else { throw .invalidTemplate(path: path, expected: "an object") }
        if let or = node["orCondition"], !or.isNull {
            return .or(try children(of: or, level: level, path: path + ".orCondition"))
        }
        if let and = node["andCondition"], !and.isNull {
            return .and(try children(of: and, level: level, path: path + ".andCondition"))
        }
        if let value = node["true"], !value.isNull { return .constant(true) }
        if let value = node["false"], !value.isNull { return .constant(false) }
        if let percent = node["percent"], !percent.isNull {
            return .percent(try parsePercent(percent, path: path + ".percent"))
        }
        if let signal = node["customSignal"], !signal.isNull {
            return .customSignal(try parseCustomSignal(signal, path: path + ".customSignal"))
        }
        return .unknown
    }

    private static func children(of json: JSONValue, level: Int, path: String) throws(RemoteConfigServerTemplateError) -> [RemoteConfigServerCondition] {
        guard case .object(let group) = json else { throw .invalidTemplate(path: path, expected: "an object") }
        guard let list = group["conditions"], !list.isNull else { return [] }
        guard case .array(let items) = list else { throw .invalidTemplate(path: "\(path).conditions", expected: "an array") }
        var result = [RemoteConfigServerCondition]()
        for (index, item) in items.enumerated() {
            result.append(try parse(item, level: level + 2, path: "\(path).conditions[\(index)]"))
        }
        return result
    }

    private static func parsePercent(_ json: JSONValue, path: String) throws(RemoteConfigServerTemplateError) -> Percent {
        guard case .object(let fields) = json else { throw .invalidTemplate(path: path, expected: "an object") }
        let seed = try string(fields["seed"], path: path + ".seed")
        let percentOperator = try string(fields["percentOperator"], path: path + ".percentOperator")
        let microPercent = try number(fields["microPercent"], path: path + ".microPercent")
        var lower = 0.0
        var upper = 0.0
        if let range = fields["microPercentRange"], !range.isNull {
            guard case .object(let bounds) = range else { throw .invalidTemplate(path: "\(path).microPercentRange", expected: "an object") }
            lower = try number(bounds["microPercentLowerBound"], path: path + ".microPercentRange.microPercentLowerBound")
            upper = try number(bounds["microPercentUpperBound"], path: path + ".microPercentRange.microPercentUpperBound")
        }
        return Percent(seed: seed, percentOperator: percentOperator, microPercent: microPercent, lowerBound: lower, upperBound: upper)
    }

    private static func parseCustomSignal(_ json: JSONValue, path: String) throws(RemoteConfigServerTemplateError) -> CustomSignal {
        guard case .object(let fields) = json else { throw .invalidTemplate(path: path, expected: "an object") }
        let signalOperator = try string(fields["customSignalOperator"], path: path + ".customSignalOperator")
        let key = try string(fields["customSignalKey"], path: path + ".customSignalKey")
        var targets = [String]()
        if let list = fields["targetCustomSignalValues"], !list.isNull {
            guard case .array(let items) = list else { throw .invalidTemplate(path: "\(path).targetCustomSignalValues", expected: "an array") }
            for (index, item) in items.enumerated() {
                guard case .string(let target) = item else { throw .invalidTemplate(path: "\(path).targetCustomSignalValues[\(index)]", expected: "a string") }
                targets.append(target)
            }
        }
        return CustomSignal(signalOperator: signalOperator, key: key, targets: targets)
    }

    /// A string field; absent or `null` is `""`.
    private static func string(_ json: JSONValue?, path: String) throws(RemoteConfigServerTemplateError) -> String {
        switch json {
        case nil, .null?: return ""
        case .string(let value)?: return value
        default: throw .invalidTemplate(path: path, expected: "a string")
        }
    }

    /// A number field; absent or `null` is 0.
    private static func number(_ json: JSONValue?, path: String) throws(RemoteConfigServerTemplateError) -> Double {
        switch json {
        case nil, .null?: return 0
        case .number(let value)?: return value
        default: throw .invalidTemplate(path: path, expected: "a number")
        }
    }
}
