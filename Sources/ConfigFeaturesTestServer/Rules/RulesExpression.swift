import Foundation

/// A parsed rules expression (the syntax tree), each node with its offset in the expression.
indirect enum RulesExpression: Sendable {
    /// `true`, `false`, `null`, a number or a string literal.
    case literal(RulesLiteral, at: Int)
    /// An array of string literals (only as `hasChildren`'s argument).
    case array([String], at: Int)
    /// A regular-expression literal (only as `matches`'s argument), compiled when loaded.
    case regex(RulesRegex, at: Int)
    /// `auth`, `data`, `newData`, `root`, `now`, `query` or a `$capture`.
    case variable(String, at: Int)
    /// `!x` or `-x`.
    case unary(String, RulesExpression, at: Int)
    /// `x op y` (`&&` and `||` short-circuit).
    case binary(String, RulesExpression, RulesExpression, at: Int)
    /// `c ? a : b`.
    case conditional(RulesExpression, RulesExpression, RulesExpression, at: Int)
    /// `x.name` (a property: `auth.uid`, `s.length`, `query.limitToFirst`).
    case member(RulesExpression, String, at: Int)
    /// `x.name(arguments)`.
    case call(RulesExpression, String, [RulesExpression], at: Int)

    /// The offset of the node in the expression text.
    var offset: Int {
        switch self {
        case .literal(_, let at), .array(_, let at), .regex(_, let at), .variable(_, let at), .unary(_, _, let at),
            .binary(_, _, _, let at), .conditional(_, _, _, let at), .member(_, _, let at), .call(_, _, _, let at):
            return at
        }
    }
}

/// A literal of a rules expression.
enum RulesLiteral: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
}

/// A compiled regular-expression literal: `/pattern/flags`.
struct RulesRegex: @unchecked Sendable {
    // Safety: NSRegularExpression is immutable and documented as safe to use from several threads.
    let expression: NSRegularExpression
    let source: String
}
