import ConfigFeatures
import Foundation

/// A value during evaluation.
enum RulesValue: Equatable {
    case json(JSONValue)
    /// A snapshot of `tree` (the data before or after the write) at `path`.
    case snapshot(tree: JSONValue, path: [String])
}

/// Why an evaluation stopped: the rule then counts as `false`, with this reason.
struct RulesEvaluationError: Error {
    var message: String
}

/// The variables of one rule evaluation.
struct RulesEnvironment {
    /// `auth`: `.null`, or `{uid, provider, token}`.
    var auth: JSONValue
    /// The tree before the operation (`root`, `data`).
    var before: JSONValue
    /// The tree after the write (`newData`); the same as `before` for reads.
    var after: JSONValue
    /// The location of the rule.
    var path: [String]
    /// `now`, in milliseconds since 1970.
    var now: Double
    /// `query`'s fields.
    var query: JSONValue
    /// The `$captures` down to this location.
    var captures: [String: String]
}

/// Evaluates a type-checked expression, within a step budget and with bounded strings.
package struct RulesEvaluator {
    /// The most nodes evaluated for one request (all its rules together).
    package static let maximumSteps = 100_000
    /// The longest string a rule may build or match (UTF-16 code units).
    package static let maximumStringLength = 10_000
    /// The longest a regular-expression match may run, in ICU progress callbacks.
    package static let maximumRegexProgress = 1_000

    var steps = 0

    mutating func evaluate(_ expression: RulesExpression, in environment: RulesEnvironment) throws(RulesEvaluationError) -> RulesValue {
        steps += 1
        guard steps <= Self.maximumSteps else {
            throw RulesEvaluationError(message: "evaluation limit reached (more than \(Self.maximumSteps) steps for one request)")
        }
        switch expression {
        case .literal(let literal, _):
            switch literal {
            case .null: return .json(.null)
            case .bool(let value): return .json(.bool(value))
            case .number(let value): return .json(.number(value))
            case .string(let value): return .json(.string(value))
            }
        case .array, .regex:
            throw RulesEvaluationError(message: "an array or regular expression out of place")
        case .variable(let name, _):
            switch name {
            case "auth": return .json(environment.auth)
            case "data": return .snapshot(tree: environment.before, path: environment.path)
            case "newData": return .snapshot(tree: environment.after, path: environment.path)
            case "root": return .snapshot(tree: environment.before, path: [])
            case "now": return .json(.number(environment.now))
            case "query": return .json(environment.query)
            default:
                guard let capture = environment.captures[name] else { throw RulesEvaluationError(message: "unknown variable \(name)") }
                return .json(.string(capture))
            }
        case .unary(let symbol, let operand, _):
            let value = try evaluate(operand, in: environment)
            if symbol == "!" { return .json(.bool(!(try Self.bool(value, "!")))) }
            return .json(.number(-(try Self.number(value, "-"))))
        case .binary(let symbol, let left, let right, _):
            return try binary(symbol, left, right, in: environment)
        case .conditional(let condition, let then, let otherwise, _):
            let chosen = try Self.bool(try evaluate(condition, in: environment), "?") ? then : otherwise
            return try evaluate(chosen, in: environment)
        case .member(let base, let name, _):
            let value = try evaluate(base, in: environment)
            switch value {
            case .json(.object(let members)): return .json(members[name] ?? .null)
            case .json(.string(let text)) where name == "length": return .json(.number(Double(text.utf16.count)))
            case .json(.null): throw RulesEvaluationError(message: "property '\(name)' of null")
            default: throw RulesEvaluationError(message: "no property '\(name)' on this value")
            }
        case .call(let base, let name, let arguments, _):
            let receiver = try evaluate(base, in: environment)
            if case .snapshot(let tree, let path) = receiver {
                return try snapshotMethod(name, tree: tree, path: path, arguments, in: environment)
            }
            guard case .json(.string(let text)) = receiver else { throw RulesEvaluationError(message: "\(name)() on a value that is not a string") }
            return try stringMethod(name, text, arguments, in: environment)
        }
    }

    private mutating func binary(_ symbol: String, _ left: RulesExpression, _ right: RulesExpression, in environment: RulesEnvironment)
        throws(RulesEvaluationError) -> RulesValue
    {
        let first = try evaluate(left, in: environment)
        switch symbol {
        case "&&":
            guard try Self.bool(first, symbol) else { return .json(.bool(false)) }
            return .json(.bool(try Self.bool(try evaluate(right, in: environment), symbol)))
        case "||":
            if try Self.bool(first, symbol) { return .json(.bool(true)) }
            return .json(.bool(try Self.bool(try evaluate(right, in: environment), symbol)))
        default: break
        }
        let second = try evaluate(right, in: environment)
        switch (symbol, first, second) {
        case ("==", _, _), ("===", _, _): return .json(.bool(try Self.equal(first, second)))
        case ("!=", _, _), ("!==", _, _): return .json(.bool(!(try Self.equal(first, second))))
        case ("+", .json(.string(let a)), .json(.string(let b))):
            guard a.utf16.count + b.utf16.count <= Self.maximumStringLength else {
                throw RulesEvaluationError(message: "string longer than \(Self.maximumStringLength) characters")
            }
            return .json(.string(a + b))
        case ("<", .json(.string(let a)), .json(.string(let b))): return .json(.bool(Self.less(a, b)))
        case ("<=", .json(.string(let a)), .json(.string(let b))): return .json(.bool(!Self.less(b, a)))
        case (">", .json(.string(let a)), .json(.string(let b))): return .json(.bool(Self.less(b, a)))
        case (">=", .json(.string(let a)), .json(.string(let b))): return .json(.bool(!Self.less(a, b)))
        default: break
        }
        let a = try Self.number(first, symbol)
        let b = try Self.number(second, symbol)
        let result: Double
        switch symbol {
        case "+": result = a + b
        case "-": result = a - b
        case "*": result = a * b
        case "/":
            guard b != 0 else { throw RulesEvaluationError(message: "division by zero") }
            result = a / b
        case "%":
            guard b != 0 else { throw RulesEvaluationError(message: "division by zero") }
            result = a.truncatingRemainder(dividingBy: b)
        case "<": return .json(.bool(a < b))
        case "<=": return .json(.bool(a <= b))
        case ">": return .json(.bool(a > b))
        default: return .json(.bool(a >= b))
        }
        guard result.isFinite else { throw RulesEvaluationError(message: "'\(symbol)' overflowed") }
        return .json(.number(result))
    }

    private mutating func snapshotMethod(_ name: String, tree: JSONValue, path: [String], _ arguments: [RulesExpression], in environment: RulesEnvironment)
        throws(RulesEvaluationError) -> RulesValue
    {
        let value = RealtimeDatabaseTree.value(at: path[...], in: tree)
        switch name {
        case "val": return .json(value)
        case "getPriority": return .json(.null)
        case "exists": return .json(.bool(value != .null))
        case "isNumber": return .json(.bool(value.numberValue != nil))
        case "isString": return .json(.bool(value.stringValue != nil))
        case "isBoolean": return .json(.bool(value.boolValue != nil))
        case "parent":
            guard !path.isEmpty else { throw RulesEvaluationError(message: "parent() of the root") }
            return .snapshot(tree: tree, path: Array(path.dropLast()))
        case "child", "hasChild":
            let relative = try Self.string(try evaluate(arguments[0], in: environment), name)
            let segments = relative.split(separator: "/").map(String.init)
            guard !segments.isEmpty else { throw RulesEvaluationError(message: "\(name)() of an empty path") }
            if name == "child" { return .snapshot(tree: tree, path: path + segments) }
            return .json(.bool(RealtimeDatabaseTree.value(at: segments[...], in: value) != .null))
        case "hasChildren":
            guard let first = arguments.first, case .array(let names, _) = first else {
                return .json(.bool(Self.childCount(value) > 0))
            }
            guard Self.childCount(value) > 0 else { return .json(.bool(false)) }
            return .json(.bool(names.allSatisfy { RealtimeDatabaseTree.value(at: [$0][...], in: value) != .null }))
        default: throw RulesEvaluationError(message: "no snapshot method \(name)()")
        }
    }

    private static func childCount(_ value: JSONValue) -> Int {
        switch value {
        case .object(let members): return members.count
        case .array(let elements): return elements.filter { $0 != .null }.count
        default: return 0
        }
    }

    private mutating func stringMethod(_ name: String, _ text: String, _ arguments: [RulesExpression], in environment: RulesEnvironment)
        throws(RulesEvaluationError) -> RulesValue
    {
        switch name {
        case "toLowerCase": return .json(.string(text.lowercased()))
        case "toUpperCase": return .json(.string(text.uppercased()))
        case "matches":
            guard case .regex(let regex, _) = arguments[0] else { throw RulesEvaluationError(message: "matches() without a regular expression") }
            return .json(.bool(try Self.matches(regex, text)))
        default: break
        }
        var strings: [String] = []
        for argument in arguments { strings.append(try Self.string(try evaluate(argument, in: environment), name)) }
        switch name {
        case "contains": return .json(.bool(strings[0].isEmpty || text.contains(strings[0])))
        case "beginsWith": return .json(.bool(text.hasPrefix(strings[0])))
        case "endsWith": return .json(.bool(text.hasSuffix(strings[0])))
        case "replace":
            guard !strings[0].isEmpty else { return .json(.string(text)) }
            let replaced = text.replacingOccurrences(of: strings[0], with: strings[1])
            guard replaced.utf16.count <= Self.maximumStringLength else {
                throw RulesEvaluationError(message: "string longer than \(Self.maximumStringLength) characters")
            }
            return .json(.string(replaced))
        default: throw RulesEvaluationError(message: "no string method \(name)()")
        }
    }

    /// Whether `regex` matches `text`, stopped (as an error) when the match runs too long.
    static func matches(_ regex: RulesRegex, _ text: String) throws(RulesEvaluationError) -> Bool {
        let length = text.utf16.count
        guard length <= maximumStringLength else {
            throw RulesEvaluationError(message: "matches() on a string longer than \(maximumStringLength) characters")
        }
        var found = false
        var progress = 0
        var stopped = false
        regex.expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: length)) { match, _, stop in
            if match != nil {
                found = true
                stop.pointee = true
                return
            }
            progress += 1
            if progress > maximumRegexProgress {
                stopped = true
                stop.pointee = true
            }
        }
        if stopped && !found { throw RulesEvaluationError(message: "matches() ran too long (the regular expression backtracks too much)") }
        return found
    }

    static func bool(_ value: RulesValue, _ symbol: String) throws(RulesEvaluationError) -> Bool {
        guard case .json(.bool(let bool)) = value else { throw RulesEvaluationError(message: "'\(symbol)' on a value that is not a boolean") }
        return bool
    }

    static func number(_ value: RulesValue, _ symbol: String) throws(RulesEvaluationError) -> Double {
        guard case .json(.number(let number)) = value else { throw RulesEvaluationError(message: "'\(symbol)' on a value that is not a number") }
        return number
    }

    static func string(_ value: RulesValue, _ name: String) throws(RulesEvaluationError) -> String {
        guard case .json(.string(let string)) = value else { throw RulesEvaluationError(message: "\(name)() needs a string argument") }
        return string
    }

    static func equal(_ first: RulesValue, _ second: RulesValue) throws(RulesEvaluationError) -> Bool {
        guard case .json(let a) = first, case .json(let b) = second else {
            throw RulesEvaluationError(message: "a snapshot compared with '=='; use val() or exists()")
        }
        return a == b
    }

    /// JavaScript's string order: by UTF-16 code units.
    static func less(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }
}
