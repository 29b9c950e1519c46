/// The static type of a rules expression, checked when the rules are loaded.
enum RulesType: Equatable {
    case bool, number, string, null, snapshot, object, query, regex, array
    /// Known only when evaluated (`val()`, `auth.token.x`).
    case any
}

/// Which rule an expression is (the variables it may use differ).
enum RulesKind: String {
    case read = ".read"
    case write = ".write"
    case validate = ".validate"
}

/// Type-checks expressions as Firebase does when rules are deployed: unknown variables, methods
/// on the wrong type, `newData` in a `.read` rule, `query` outside `.read`, wrong arguments.
struct RulesTypeChecker {
    let kind: RulesKind
    /// The `$captures` in scope.
    let captures: Set<String>

    static let queryMembers: [String: RulesType] = [
        "orderByChild": .any, "orderByKey": .bool, "orderByValue": .bool, "orderByPriority": .bool, "limitToFirst": .any,
        "limitToLast": .any, "startAt": .any, "endAt": .any, "equalTo": .any,
    ]

    func type(of expression: RulesExpression) throws(RulesLexError) -> RulesType {
        switch expression {
        case .literal(let literal, _):
            switch literal {
            case .null: return .null
            case .bool: return .bool
            case .number: return .number
            case .string: return .string
            }
        case .array(_, let at): throw RulesLexError(offset: at, message: "an array is allowed only as the argument of hasChildren()")
        case .regex(_, let at): throw RulesLexError(offset: at, message: "a regular expression is allowed only as the argument of matches()")
        case .variable(let name, let at): return try variable(name, at: at)
        case .unary(let symbol, let operand, let at):
            let operandType = try type(of: operand)
            let wanted: RulesType = symbol == "!" ? .bool : .number
            guard operandType == wanted || operandType == .any else {
                throw RulesLexError(offset: at, message: "'\(symbol)' needs a \(Self.name(wanted)) operand, found \(Self.name(operandType))")
            }
            return wanted
        case .binary(let symbol, let left, let right, let at):
            return try binary(symbol, try type(of: left), try type(of: right), at: at)
        case .conditional(let condition, let then, let otherwise, let at):
            let conditionType = try type(of: condition)
            guard conditionType == .bool || conditionType == .any else {
                throw RulesLexError(offset: at, message: "the condition of '?' must be a boolean, found \(Self.name(conditionType))")
            }
            let thenType = try type(of: then)
            let otherwiseType = try type(of: otherwise)
            return thenType == otherwiseType ? thenType : .any
        case .member(let base, let name, let at):
            let baseType = try type(of: base)
            switch baseType {
            case .object: return .any
            case .any: return .any
            case .string:
                guard name == "length" else { throw RulesLexError(offset: at, message: "a string has no property '\(name)' (only length)") }
                return .number
            case .query:
                guard let memberType = Self.queryMembers[name] else {
                    throw RulesLexError(
                        offset: at, message: "query has no property '\(name)' (expected one of \(Self.queryMembers.keys.sorted().joined(separator: ", ")))")
                }
                return memberType
            case .snapshot:
                throw RulesLexError(offset: at, message: "a snapshot has no property '\(name)'; call one of its methods, like val() or child()")
            default:
                throw RulesLexError(offset: at, message: "\(Self.name(baseType)) has no property '\(name)'")
            }
        case .call(let base, let name, let arguments, let at):
            return try call(try type(of: base), name, arguments, at: at)
        }
    }

    private func variable(_ name: String, at: Int) throws(RulesLexError) -> RulesType {
        switch name {
        case "auth": return .object
        case "data", "root": return .snapshot
        case "newData":
            guard kind != .read else { throw RulesLexError(offset: at, message: "newData is not available in .read rules") }
            return .snapshot
        case "now": return .number
        case "query":
            guard kind == .read else { throw RulesLexError(offset: at, message: "query is available only in .read rules") }
            return .query
        default:
            if name.hasPrefix("$") {
                guard captures.contains(name) else { throw RulesLexError(offset: at, message: "unknown variable '\(name)' (no such wildcard above this rule)") }
                return .string
            }
            throw RulesLexError(offset: at, message: "unknown variable '\(name)' (expected auth, data, newData, root, now, query or a $wildcard)")
        }
    }

    private func binary(_ symbol: String, _ left: RulesType, _ right: RulesType, at: Int) throws(RulesLexError) -> RulesType {
        func fail(_ what: String) -> RulesLexError {
            RulesLexError(offset: at, message: "'\(symbol)' \(what), found \(Self.name(left)) and \(Self.name(right))")
        }
        func both(_ allowed: Set<RulesType>) -> Bool { (allowed.contains(left) || left == .any) && (allowed.contains(right) || right == .any) }
        switch symbol {
        case "&&", "||":
            guard both([.bool]) else { throw fail("needs boolean operands") }
            return .bool
        case "+":
            guard both([.number, .string]) else { throw fail("needs numbers or strings") }
            if left == right { return left }
            if left == .any || right == .any { return .any }
            throw fail("needs two numbers or two strings")
        case "-", "*", "/", "%":
            guard both([.number]) else { throw fail("needs numbers") }
            return .number
        case "<", "<=", ">", ">=":
            guard both([.number, .string]) else { throw fail("compares numbers or strings") }
            return .bool
        default:
            let comparable: Set<RulesType> = [.bool, .number, .string, .null, .object]
            guard both(comparable) else {
                throw fail("compares values (a snapshot is not a value: use exists() or val())")
            }
            return .bool
        }
    }

    private func call(_ base: RulesType, _ name: String, _ arguments: [RulesExpression], at: Int) throws(RulesLexError) -> RulesType {
        func expect(_ types: [RulesType]) throws(RulesLexError) {
            guard arguments.count == types.count else {
                throw RulesLexError(offset: at, message: "\(name)() takes \(types.count) argument\(types.count == 1 ? "" : "s"), found \(arguments.count)")
            }
            for (argument, wanted) in zip(arguments, types) {
                let found = try type(of: argument)
                guard found == wanted || found == .any else {
                    throw RulesLexError(offset: argument.offset, message: "\(name)() needs a \(Self.name(wanted)) argument, found \(Self.name(found))")
                }
            }
        }
        switch base {
        case .snapshot:
            switch name {
            case "val", "getPriority":
                try expect([])
                return .any
            case "child":
                try expect([.string])
                return .snapshot
            case "parent":
                try expect([])
                return .snapshot
            case "hasChild":
                try expect([.string])
                return .bool
            case "hasChildren":
                if let first = arguments.first, case .array = first, arguments.count == 1 { return .bool }
                try expect([])
                return .bool
            case "exists", "isNumber", "isString", "isBoolean":
                try expect([])
                return .bool
            default:
                throw RulesLexError(offset: at, message: "a snapshot has no method '\(name)()'")
            }
        case .string, .any:
            switch name {
            case "contains", "beginsWith", "endsWith":
                try expect([.string])
                return .bool
            case "replace":
                try expect([.string, .string])
                return .string
            case "toLowerCase", "toUpperCase":
                try expect([])
                return .string
            case "matches":
                guard arguments.count == 1, case .regex = arguments[0] else {
                    throw RulesLexError(offset: at, message: "matches() needs one regular-expression literal, like /^[a-z]+$/")
                }
                return .bool
            default:
                throw RulesLexError(offset: at, message: "\(base == .string ? "a string" : "a value") has no method '\(name)()'")
            }
        default:
            throw RulesLexError(offset: at, message: "\(Self.name(base)) has no method '\(name)()'")
        }
    }

    static func name(_ type: RulesType) -> String {
        switch type {
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .null: return "null"
        case .snapshot: return "a snapshot"
        case .object: return "an object"
        case .query: return "query"
        case .regex: return "a regular expression"
        case .array: return "an array"
        case .any: return "a value"
        }
    }
}
