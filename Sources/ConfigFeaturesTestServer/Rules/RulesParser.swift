import Foundation

/// Parses a rules expression with Firebase's (JavaScript's) operators and precedence, from
/// lowest to highest: `? :`, `||`, `&&`, `== != === !==`, `< <= > >=`, `+ -`, `* / %`, unary
/// `! -`, then member access and calls.
package struct RulesParser {
    /// The deepest expression nesting accepted (a static evaluation limit).
    package static let maximumDepth = 64

    private let tokens: [RulesToken]
    private var index = 0
    private var depth = 0

    /// The syntax tree of `text`.
    static func parse(_ text: [Character]) throws(RulesLexError) -> RulesExpression {
        var parser = RulesParser(tokens: try RulesLexer.tokens(text))
        let expression = try parser.conditional()
        guard parser.peek.kind == .end else { throw parser.unexpected("an operator or the end of the expression") }
        return expression
    }

    private init(tokens: [RulesToken]) { self.tokens = tokens }

    private var peek: RulesToken { tokens[min(index, tokens.count - 1)] }

    private mutating func take() -> RulesToken {
        let token = peek
        index += 1
        return token
    }

    private func isSymbol(_ symbol: String) -> Bool { peek.kind == .symbol(symbol) }

    private func unexpected(_ expected: String) -> RulesLexError {
        let found: String
        switch peek.kind {
        case .end: found = "the end of the expression"
        case .identifier(let name): found = "'\(name)'"
        case .number(let number): found = "\(number)"
        case .string(let text): found = "'\(text)'"
        case .regex(let pattern, _): found = "/\(pattern)/"
        case .symbol(let symbol): found = "'\(symbol)'"
        }
        return RulesLexError(offset: peek.offset, message: "expected \(expected), found \(found)")
    }

    private mutating func expect(_ symbol: String) throws(RulesLexError) {
        guard isSymbol(symbol) else { throw unexpected("'\(symbol)'") }
        _ = take()
    }

    private mutating func nested<T>(_ body: (inout RulesParser) throws(RulesLexError) -> T) throws(RulesLexError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw RulesLexError(offset: peek.offset, message: "expression nested deeper than \(Self.maximumDepth) levels")
        }
        return try body(&self)
    }

    private mutating func conditional() throws(RulesLexError) -> RulesExpression {
        try nested { (parser: inout RulesParser) throws(RulesLexError) -> RulesExpression in
            let condition = try parser.binary(level: 0)
            guard parser.isSymbol("?") else { return condition }
            let at = parser.take().offset
            let then = try parser.conditional()
            try parser.expect(":")
            let otherwise = try parser.conditional()
            return .conditional(condition, then, otherwise, at: at)
        }
    }

    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "===", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(level: Int) throws(RulesLexError) -> RulesExpression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .symbol(let symbol) = peek.kind, Self.levels[level].contains(symbol) {
            let at = take().offset
            let right = try nested { (parser: inout RulesParser) throws(RulesLexError) in try parser.binary(level: level + 1) }
            left = .binary(symbol, left, right, at: at)
        }
        return left
    }

    private mutating func unary() throws(RulesLexError) -> RulesExpression {
        if case .symbol(let symbol) = peek.kind, symbol == "!" || symbol == "-" {
            let at = take().offset
            let operand = try nested { (parser: inout RulesParser) throws(RulesLexError) in try parser.unary() }
            return .unary(symbol, operand, at: at)
        }
        return try postfix()
    }

    private mutating func postfix() throws(RulesLexError) -> RulesExpression {
        var expression = try primary()
        var links = 0
        while isSymbol(".") {
            links += 1
            guard links <= Self.maximumDepth else { throw RulesLexError(offset: peek.offset, message: "more than \(Self.maximumDepth) chained members") }
            _ = take()
            let nameToken = take()
            guard case .identifier(let name) = nameToken.kind else {
                index -= 1
                throw unexpected("a property or method name after '.'")
            }
            guard isSymbol("(") else {
                expression = .member(expression, name, at: nameToken.offset)
                continue
            }
            _ = take()
            var arguments: [RulesExpression] = []
            if !isSymbol(")") {
                while true {
                    arguments.append(try nested { (parser: inout RulesParser) throws(RulesLexError) in try parser.argument() })
                    if isSymbol(")") { break }
                    try expect(",")
                }
            }
            try expect(")")
            expression = .call(expression, name, arguments, at: nameToken.offset)
        }
        return expression
    }

    /// An argument: an expression, an array of string literals, or a regular expression.
    private mutating func argument() throws(RulesLexError) -> RulesExpression {
        if case .regex(let pattern, let flags) = peek.kind {
            let at = take().offset
            var options: NSRegularExpression.Options = []
            for flag in flags {
                guard flag == "i" else {
                    throw RulesLexError(offset: at, message: "unsupported regular-expression flag '\(flag)' (Firebase supports only 'i')")
                }
                options.insert(.caseInsensitive)
            }
            guard pattern.count <= 1_024 else { throw RulesLexError(offset: at, message: "regular expression longer than 1024 characters") }
            guard let compiled = try? NSRegularExpression(pattern: pattern, options: options) else {
                throw RulesLexError(offset: at, message: "invalid regular expression /\(pattern)/")
            }
            return .regex(RulesRegex(expression: compiled, source: "/\(pattern)/\(flags)"), at: at)
        }
        if isSymbol("[") {
            let at = take().offset
            var names: [String] = []
            if !isSymbol("]") {
                while true {
                    guard case .string(let name) = take().kind else {
                        index -= 1
                        throw unexpected("a string literal in the array")
                    }
                    names.append(name)
                    if isSymbol("]") { break }
                    try expect(",")
                }
            }
            try expect("]")
            return .array(names, at: at)
        }
        return try conditional()
    }

    private mutating func primary() throws(RulesLexError) -> RulesExpression {
        let token = take()
        switch token.kind {
        case .number(let number): return .literal(.number(number), at: token.offset)
        case .string(let text): return .literal(.string(text), at: token.offset)
        case .identifier("true"): return .literal(.bool(true), at: token.offset)
        case .identifier("false"): return .literal(.bool(false), at: token.offset)
        case .identifier("null"): return .literal(.null, at: token.offset)
        case .identifier(let name): return .variable(name, at: token.offset)
        case .symbol("("):
            let inner = try conditional()
            try expect(")")
            return inner
        default:
            index -= 1
            throw unexpected("a value, variable or '('")
        }
    }
}
