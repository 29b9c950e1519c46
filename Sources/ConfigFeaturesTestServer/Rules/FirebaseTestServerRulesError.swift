/// Why a Realtime Database Security Rules text was refused by `FirebaseTestServer`: where in the
/// text (1-based line and column, counted in characters) and what was expected there.
public struct FirebaseTestServerRulesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the text where the problem is.
    public var line: Int
    /// The 1-based column (in characters) of the text where the problem is.
    public var column: Int
    /// What was wrong or expected there, for example `expected ')'` or `unknown variable 'usr'`.
    public var message: String

    /// Creates an error at `line`:`column`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// A readable description: `line L, column C: message`.
    public var description: String { "Security Rules error at line \(line), column \(column): \(message)" }
}

/// A position in the rules text.
struct RulesPosition: Hashable, Sendable {
    var line: Int
    var column: Int

    func error(_ message: String) -> FirebaseTestServerRulesError {
        FirebaseTestServerRulesError(line: line, column: column, message: message)
    }
}
