import Foundation

/// Evaluates condition terms for a context.
enum ConditionEvaluator {
    static func holds(_ term: ConditionTerm, _ context: RemoteConfigConditionContext) -> Bool {
        switch term {
        case .appID(let test): return test.holds(for: context.appID)
        case .appVersion(let test): return test.holds(for: context.appVersion)
        case .appBuild(let test): return test.holds(for: context.appBuild)
        case .userProperty(let key, let test): return test.holds(for: context.userProperties[key])
        case .customSignal(let key, let test): return test.holds(for: context.customSignals[key])
        case .installationID(let ids):
            guard let id = context.installationID else { return false }
            return ids.contains(id)
        case .os(let op, let os):
            guard let actual = context.operatingSystem else { return false }
            return (actual == os) == (op == .equal)
        case .language(let targets):
            guard let language = context.languageCode else { return false }
            return targets.contains { languageMatches(language, $0) }
        case .country(let targets):
            guard let country = context.countryCode?.lowercased() else { return false }
            return targets.contains { $0.lowercased() == country }
        case .dateTime(let op, let date):
            let zone = context.timeZone.flatMap(TimeZone.init(identifier:)) ?? gmt
            guard let target = date.date(fallback: zone) else { return false }
            return op.holds(order(context.now, target))
        case .firstOpen(let op, let date):
            guard let firstOpen = context.firstOpenTime, let target = date.date(fallback: gmt) else { return false }
            return op.holds(order(firstOpen, target))
        case .percent(let seed, let lower, let upper):
            guard let id = context.installationID, !id.isEmpty else { return false }
            let micro = ConditionPercent.microPercentile(seed: seed, id: id)
            return micro >= lower && micro <= upper
        }
    }

    private static let gmt = TimeZone(identifier: "GMT")!

    private static func order(_ left: Date, _ right: Date) -> ComparisonResult {
        left < right ? .orderedAscending : (left > right ? .orderedDescending : .orderedSame)
    }

    /// `device.language in [target]`: a target with a region (`en-US`) matches that locale; a
    /// bare language (`en`) matches it with any region. Case and `_`/`-` do not matter.
    static func languageMatches(_ language: String, _ target: String) -> Bool {
        func normalized(_ text: String) -> [Substring] {
            text.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        }
        let actual = normalized(language)
        let wanted = normalized(target)
        guard !wanted.isEmpty, wanted.count <= actual.count else { return false }
        return Array(actual.prefix(wanted.count)) == wanted
    }

    /// Compares two versions segment by segment (`1.10` > `1.9`; missing segments are 0);
    /// `nil` when either is not dot-separated non-negative integers.
    static func compareVersions(_ left: String, _ right: String) -> ComparisonResult? {
        func segments(_ text: String) -> [Substring]? {
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.count <= 64, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
            return parts.map { part in
                let trimmed = part.drop { $0 == "0" }
                return trimmed.isEmpty ? "0" : trimmed
            }
        }
        guard let a = segments(left), let b = segments(right) else { return nil }
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : "0"
            let y = index < b.count ? b[index] : "0"
            if x.count != y.count { return x.count < y.count ? .orderedAscending : .orderedDescending }
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}

extension ConditionValueTest {
    /// Whether the test holds for `value` (never when the value is missing).
    func holds(for value: String?) -> Bool {
        guard let value else { return false }
        switch self {
        case .number(let op, let target):
            guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite else { return false }
            return op.holds(number < target ? .orderedAscending : (number > target ? .orderedDescending : .orderedSame))
        case .version(let op, let targets):
            return targets.contains { target in
                if let order = ConditionEvaluator.compareVersions(value, target) { return op.holds(order) }
                switch op {
                case .equal: return value == target
                case .notEqual: return value != target
                default: return false
                }
            }
        case .text(let op, let targets):
            return targets.contains(value) == (op == .equal)
        case .strings(let op, let targets):
            switch op {
            case .contains: return targets.contains { value.contains($0) }
            case .notContains: return !targets.contains { value.contains($0) }
            case .exactlyMatches: return targets.contains(value)
            case .matches: return false
            }
        case .regex(let programs):
            return programs.contains { $0.matches(value) }
        }
    }
}
