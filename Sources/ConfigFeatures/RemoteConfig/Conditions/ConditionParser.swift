import Foundation

/// A recursive-descent parser of Firebase's client-template condition expressions.
///
/// Every failure is a `RemoteConfigConditionError` at the offending token; nothing is skipped.
struct ConditionParser {
    /// The most items a `[…]` list may hold.
    static let maximumListCount = 500

    private let tokens: [ConditionToken]
    private let condition: String
    private var index = 0

    init(_ expression: String, condition: String) throws(RemoteConfigConditionError) {
        tokens = try ConditionLexer.tokens(expression, condition: condition)
        self.condition = condition
    }

    // MARK: Helpers

    private var current: ConditionToken { tokens[index] }

    private mutating func advance() -> ConditionToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private func fail(_ token: ConditionToken, _ reason: RemoteConfigConditionError.Reason) -> RemoteConfigConditionError {
        RemoteConfigConditionError(condition: condition, position: token.position, reason: reason)
    }

    private func unexpected(_ expected: String) -> RemoteConfigConditionError {
        fail(current, .unexpectedToken(found: current.text, expected: expected))
    }

    private mutating func expect(_ symbol: String) throws(RemoteConfigConditionError) {
        guard current.kind == .symbol(symbol) else { throw unexpected("\"\(symbol)\"") }
        _ = advance()
    }

    private mutating func identifier(_ expected: String) throws(RemoteConfigConditionError) -> (String, ConditionToken) {
        guard case .identifier(let name) = current.kind else { throw unexpected(expected) }
        return (name, advance())
    }

    private mutating func string(_ expected: String) throws(RemoteConfigConditionError) -> (String, ConditionToken) {
        guard case .string(let value) = current.kind else { throw unexpected(expected) }
        return (value, advance())
    }

    private mutating func number(_ expected: String) throws(RemoteConfigConditionError) -> (Double, ConditionToken) {
        guard case .number(let value) = current.kind else { throw unexpected(expected) }
        return (value, advance())
    }

    private mutating func comparison(for element: String, allowed: [ConditionComparison] = ConditionComparison.allCases) throws(RemoteConfigConditionError)
        -> ConditionComparison?
    {
        guard case .symbol(let symbol) = current.kind, let op = ConditionComparison(rawValue: symbol) else { return nil }
        guard allowed.contains(op) else { throw fail(current, .unsupportedOperator(symbol, element: element)) }
        _ = advance()
        return op
    }

    /// `[ 'a', 'b' ]` (strings; numbers are read as their text).
    private mutating func stringList() throws(RemoteConfigConditionError) -> [String] {
        try expect("[")
        var items: [String] = []
        if current.kind == .symbol("]") {
            _ = advance()
            return items
        }
        while true {
            switch current.kind {
            case .string(let value): items.append(value)
            case .number: items.append(current.text)
            default: throw unexpected("a quoted string")
            }
            guard items.count <= Self.maximumListCount else { throw fail(current, .tooLong(limit: Self.maximumListCount)) }
            _ = advance()
            if current.kind == .symbol(",") {
                _ = advance()
                continue
            }
            try expect("]")
            return items
        }
    }

    // MARK: Grammar

    /// `term ('&&' term)*` then the end.
    mutating func parseCondition() throws(RemoteConfigConditionError) -> [ConditionTerm] {
        var terms = [try term()]
        while true {
            switch current.kind {
            case .end:
                return terms
            case .symbol("&&"):
                _ = advance()
                terms.append(try term())
            case .symbol("||"):
                throw fail(current, .unsupportedOperator("||", element: "a condition (Firebase joins elements with && only)"))
            default:
                throw unexpected("&& or the end of the condition")
            }
        }
    }

    private mutating func term() throws(RemoteConfigConditionError) -> ConditionTerm {
        let start = current
        switch start.kind {
        case .symbol("!"), .symbol("("):
            throw fail(start, .unsupportedOperator(start.text, element: "a condition (Firebase has no negation or grouping)"))
        case .identifier("app"):
            _ = advance()
            try expect(".")
            return try appElement(start)
        case .identifier("device"):
            _ = advance()
            try expect(".")
            return try deviceElement(start)
        case .identifier("dateTime"):
            _ = advance()
            return try dateElement("dateTime") { .dateTime($0, $1) }
        case .identifier("percent"):
            _ = advance()
            return try percentElement()
        case .identifier(let name):
            throw fail(start, .unsupportedElement(name))
        default:
            throw unexpected("an element such as app.version or device.os")
        }
    }

    private mutating func appElement(_ start: ConditionToken) throws(RemoteConfigConditionError) -> ConditionTerm {
        let (name, _) = try identifier("an app element (id, version, build, userProperty, customSignal, firstOpenTimestamp)")
        let element = "app.\(name)"
        switch name {
        case "id":
            return .appID(try valueTest(element, numeric: false, ordered: false))
        case "version":
            return .appVersion(try valueTest(element))
        case "build":
            return .appBuild(try valueTest(element))
        case "userProperty", "customSignal":
            try expect("[")
            let (key, _) = try string("the \(name) key as a quoted string")
            try expect("]")
            let test = try valueTest("\(element)['\(key)']")
            return name == "userProperty" ? .userProperty(key, test) : .customSignal(key, test)
        case "firstOpenTimestamp":
            return try dateElement(element) { .firstOpen($0, $1) }
        case "firebaseInstallationId":
            let (keyword, token) = try identifier("in")
            guard keyword == "in" else { throw fail(token, .unexpectedToken(found: keyword, expected: "in")) }
            return .installationID(try stringList())
        default:
            throw fail(start, .unsupportedElement(element))
        }
    }

    private mutating func deviceElement(_ start: ConditionToken) throws(RemoteConfigConditionError) -> ConditionTerm {
        let (name, _) = try identifier("a device element (os, language, country, dateTime)")
        let element = "device.\(name)"
        switch name {
        case "os":
            guard let op = try comparison(for: element, allowed: [.equal, .notEqual]) else { throw unexpected("== or !=") }
            let (value, _) = try string("'ios', 'android' or 'web'")
            return .os(op, value.lowercased())
        case "language", "country":
            let (keyword, token) = try identifier("in")
            guard keyword == "in" else { throw fail(token, .unexpectedToken(found: keyword, expected: "in")) }
            let list = try stringList()
            return name == "language" ? .language(list) : .country(list)
        case "dateTime":
            return try dateElement(element) { .dateTime($0, $1) }
        default:
            throw fail(start, .unsupportedElement(element))
        }
    }

    /// After a value element: `op literal`, `.op([…])` or `.stringOperator([…])`.
    private mutating func valueTest(_ element: String, numeric: Bool = true, ordered: Bool = true) throws(RemoteConfigConditionError)
        -> ConditionValueTest
    {
        let allowed: [ConditionComparison] = ordered ? ConditionComparison.allCases : [.equal, .notEqual]
        if let op = try comparison(for: element, allowed: allowed) {
            switch current.kind {
            case .number(let value) where numeric:
                _ = advance()
                return .number(op, value)
            case .string(let value):
                _ = advance()
                return ordered ? .version(op, [value]) : .text(op, [value])
            default:
                throw unexpected(numeric ? "a number or a quoted string" : "a quoted string")
            }
        }
        guard current.kind == .symbol(".") else {
            throw unexpected("an operator (==, !=, <, <=, >, >=) or .contains, .notContains, .exactlyMatches, .matches")
        }
        _ = advance()
        let opToken = current
        let list: [String]
        switch opToken.kind {
        case .identifier(let name):
            guard let op = ConditionStringOperator(rawValue: name) else {
                throw fail(opToken, .unsupportedOperator(name, element: element))
            }
            _ = advance()
            try expect("(")
            list = try stringList()
            try expect(")")
            if op == .matches {
                var programs: [ConditionRegex] = []
                for pattern in list {
                    do {
                        programs.append(try ConditionRegex(pattern))
                    } catch {
                        throw fail(opToken, .invalidLiteral("'\(pattern)'", reason: error.message))
                    }
                }
                return .regex(programs)
            }
            return .strings(op, list)
        case .symbol(let symbol):
            guard let op = ConditionComparison(rawValue: symbol) else { throw unexpected("an operator name") }
            guard ordered || op == .equal || op == .notEqual else { throw fail(opToken, .unsupportedOperator(symbol, element: element)) }
            _ = advance()
            try expect("(")
            list = try stringList()
            try expect(")")
            return ordered ? .version(op, list) : .text(op, list)
        default:
            throw unexpected("an operator name")
        }
    }

    /// `op dateTime('…'[, 'zone'])` or `op ('…'[, 'zone'])`.
    private mutating func dateElement(_ element: String, _ make: (ConditionComparison, ConditionDate) -> ConditionTerm) throws(RemoteConfigConditionError)
        -> ConditionTerm
    {
        guard let op = try comparison(for: element, allowed: [.less, .lessOrEqual, .greater, .greaterOrEqual]) else {
            throw unexpected("<, <=, > or >=")
        }
        if current.kind == .identifier("dateTime") { _ = advance() }
        try expect("(")
        let (text, textToken) = try string("a date such as '2026-04-01T09:00:00'")
        guard let components = Self.dateComponents(text) else {
            throw fail(textToken, .invalidLiteral("'\(text)'", reason: "not a date in the form yyyy-MM-ddTHH:mm:ss"))
        }
        var zone: TimeZone?
        if current.kind == .symbol(",") {
            _ = advance()
            let (identifier, zoneToken) = try string("a time zone such as 'Asia/Tokyo'")
            guard let found = TimeZone(identifier: identifier) else {
                throw fail(zoneToken, .invalidLiteral("'\(identifier)'", reason: "not an IANA time zone"))
            }
            zone = found
        }
        try expect(")")
        return make(op, ConditionDate(components: components, timeZone: zone))
    }

    /// `percent['(' seed ')'] (op number | between a and b)`.
    private mutating func percentElement() throws(RemoteConfigConditionError) -> ConditionTerm {
        var seed = ""
        if current.kind == .symbol("(") {
            _ = advance()
            (seed, _) = try string("the seed as a quoted string")
            try expect(")")
        }
        func micro(_ value: Double, _ token: ConditionToken) throws(RemoteConfigConditionError) -> Int64 {
            guard value >= 0, value <= 100 else { throw fail(token, .invalidLiteral(token.text, reason: "a percentage is between 0 and 100")) }
            return Int64((value * 1_000_000).rounded())
        }
        let top: Int64 = 100_000_000
        if current.kind == .identifier("between") {
            _ = advance()
            let (low, lowToken) = try number("a percentage")
            let (keyword, keywordToken) = try identifier("and")
            guard keyword == "and" else { throw fail(keywordToken, .unexpectedToken(found: keyword, expected: "and")) }
            let (high, highToken) = try number("a percentage")
            return .percent(seed: seed, lower: try micro(low, lowToken) + 1, upper: try micro(high, highToken))
        }
        guard let op = try comparison(for: "percent", allowed: [.less, .lessOrEqual, .greater, .greaterOrEqual]) else {
            throw unexpected("<, <=, >, >= or between")
        }
        let (value, token) = try number("a percentage")
        let bound = try micro(value, token)
        switch op {
        case .less: return .percent(seed: seed, lower: 0, upper: bound - 1)
        case .lessOrEqual: return .percent(seed: seed, lower: 0, upper: bound)
        case .greater: return .percent(seed: seed, lower: bound + 1, upper: top)
        case .greaterOrEqual, .equal, .notEqual: return .percent(seed: seed, lower: bound, upper: top)
        }
    }

    /// `yyyy-MM-ddTHH:mm:ss` (a space may replace `T`), checked field by field.
    static func dateComponents(_ text: String) -> DateComponents? {
        let characters = Array(text)
        guard characters.count == 19, characters[4] == "-", characters[7] == "-", characters[10] == "T" || characters[10] == " ",
            characters[13] == ":", characters[16] == ":"
        else { return nil }
        func field(_ range: Range<Int>) -> Int? {
            let digits = characters[range]
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(digits))
        }
        guard let year = field(0..<4), let month = field(5..<7), let day = field(8..<10), let hour = field(11..<13),
            let minute = field(14..<16), let second = field(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        return DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
