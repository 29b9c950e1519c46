/// Evaluates a server template's conditions for one context as firebase-admin's
/// `_ConditionEvaluator` does (firebase-admin 7.7.0, `remote_config.py`).
///
/// The context is the custom signals with the randomization ID under `randomization_id`, one
/// dictionary as in firebase-admin, so a custom signal named `randomization_id` is the
/// randomization ID (and, without one, stands in for it).
struct RemoteConfigServerEvaluator {
    /// The context key of the randomization ID.
    static let randomizationIDKey = "randomization_id"

    /// The custom signals and the randomization ID.
    let context: [String: String]

    /// Each condition's result by name, in template order; a name that repeats keeps its first
    /// place and its last result (a Python dictionary's assignment).
    func evaluate(_ conditions: [RemoteConfigServerTemplateData.NamedCondition]) -> [(name: String?, result: Bool)] {
        var results = [(name: String?, result: Bool)]()
        var positions = [String?: Int]()
        for named in conditions {
            let result = evaluate(named.condition)
            if let position = positions[named.name] {
                results[position].result = result
            } else {
                positions[named.name] = results.count
                results.append((named.name, result))
            }
        }
        return results
    }

    /// Whether `condition` holds (levels past firebase-admin's limit were parsed as false).
    func evaluate(_ condition: RemoteConfigServerCondition) -> Bool {
        switch condition {
        case .or(let children): return children.contains { evaluate($0) }
        case .and(let children): return children.allSatisfy { evaluate($0) }
        case .constant(let value): return value
        case .percent(let percent): return evaluate(percent)
        case .customSignal(let signal): return evaluate(signal)
        case .unknown: return false
        }
    }

    /// The instance's micro-percentile: SHA-256 of `"seed.id"` (or `"id"` without a seed) read
    /// as a 256-bit big-endian integer, modulo 100,000,000.
    static func microPercentile(seed: String, randomizationID: String) -> UInt64 {
        let digest = SHA256.digest(seed.isEmpty ? randomizationID : "\(seed).\(randomizationID)")
        var remainder: UInt64 = 0
        for byte in digest { remainder = (remainder << 8 | UInt64(byte)) % 100_000_000 }
        return remainder
    }

    private func evaluate(_ percent: RemoteConfigServerCondition.Percent) -> Bool {
        guard let id = context[Self.randomizationIDKey], !id.isEmpty, !percent.percentOperator.isEmpty else { return false }
        let instance = Double(Self.microPercentile(seed: percent.seed, randomizationID: id))
        switch percent.percentOperator {
        case "LESS_OR_EQUAL": return instance <= percent.microPercent
        case "GREATER_THAN": return instance > percent.microPercent
        case "BETWEEN": return percent.lowerBound < instance && instance <= percent.upperBound
        default: return false
        }
    }

    private func evaluate(_ signal: RemoteConfigServerCondition.CustomSignal) -> Bool {
        guard !signal.signalOperator.isEmpty, !signal.key.isEmpty, let target = signal.targets.first,
            let actual = context[signal.key], !actual.isEmpty
        else { return false }
        switch signal.signalOperator {
        case "STRING_CONTAINS":
            return signal.targets.contains { Self.contains(actual, $0) }
        case "STRING_DOES_NOT_CONTAIN":
            return !signal.targets.contains { Self.contains(actual, $0) }
        case "STRING_EXACTLY_MATCHES":
            let stripped = PythonText.strip(actual)
            return signal.targets.contains { PythonText.strip($0) == stripped }
        case "STRING_CONTAINS_REGEX":
            return signal.targets.contains { Self.search(pattern: $0, in: actual) }
        case "NUMERIC_LESS_THAN": return Self.compareNumbers(actual, target).map { $0 < 0 } ?? false
        case "NUMERIC_LESS_EQUAL": return Self.compareNumbers(actual, target).map { $0 <= 0 } ?? false
        case "NUMERIC_EQUAL": return Self.compareNumbers(actual, target).map { $0 == 0 } ?? false
        case "NUMERIC_NOT_EQUAL": return Self.compareNumbers(actual, target).map { $0 != 0 } ?? false
        case "NUMERIC_GREATER_THAN": return Self.compareNumbers(actual, target).map { $0 > 0 } ?? false
        case "NUMERIC_GREATER_EQUAL": return Self.compareNumbers(actual, target).map { $0 >= 0 } ?? false
        case "SEMANTIC_VERSION_LESS_THAN": return Self.compareVersions(actual, target).map { $0 < 0 } ?? false
        case "SEMANTIC_VERSION_LESS_EQUAL": return Self.compareVersions(actual, target).map { $0 <= 0 } ?? false
        case "SEMANTIC_VERSION_EQUAL": return Self.compareVersions(actual, target).map { $0 == 0 } ?? false
        case "SEMANTIC_VERSION_NOT_EQUAL": return Self.compareVersions(actual, target).map { $0 != 0 } ?? false
        case "SEMANTIC_VERSION_GREATER_THAN": return Self.compareVersions(actual, target).map { $0 > 0 } ?? false
        case "SEMANTIC_VERSION_GREATER_EQUAL": return Self.compareVersions(actual, target).map { $0 >= 0 } ?? false
        default: return false
        }
    }

    /// Python's `target in actual`: code-point substring (the empty string is in every string).
    static func contains(_ actual: String, _ target: String) -> Bool {
        let haystack = Array(actual.utf8)
        let needle = Array(target.utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `re.search(pattern, actual)`, with Swift's regex engine on Unicode scalars; a pattern it
    /// cannot compile matches nothing (firebase-admin raises `re.error` there).
    static func search(pattern: String, in actual: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.matchingSemantics(.unicodeScalar).firstMatch(in: actual)) != nil
    }

    /// -1, 0 or 1 as `actual` is below, equal to or above `target` (Python's `float()` of each;
    /// NaN compares equal to everything, as firebase-admin's `<`/`>` test makes it), or `nil`
    /// when either is not a number.
    static func compareNumbers(_ actual: String, _ target: String) -> Int? {
        guard let targetNumber = PythonText.float(target), let actualNumber = PythonText.float(actual) else { return nil }
        return actualNumber < targetNumber ? -1 : actualNumber > targetNumber ? 1 : 0
    }

    /// -1, 0 or 1 comparing dot-separated integers (`int()` of each, missing ones 0), or `nil`
    /// when a segment is not an integer or a negative one is reached before the first difference.
    static func compareVersions(_ actual: String, _ target: String) -> Int? {
        var left = [(negative: Bool, digits: [UInt8])]()
        for part in actual.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false) {
            guard let number = PythonText.integer(String(String.UnicodeScalarView(part))) else { return nil }
            left.append(number)
        }
        var right = [(negative: Bool, digits: [UInt8])]()
        for part in target.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false) {
            guard let number = PythonText.integer(String(String.UnicodeScalarView(part))) else { return nil }
            right.append(number)
        }
        let zero = (negative: false, digits: [UInt8]())
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : zero
            let b = index < right.count ? right[index] : zero
            if a.negative || b.negative { return nil }
            if a.digits.count != b.digits.count { return a.digits.count < b.digits.count ? -1 : 1 }
            if a.digits != b.digits { return a.digits.lexicographicallyPrecedes(b.digits) ? -1 : 1 }
        }
        return 0
    }
}
