/// A token of a rules expression.
struct RulesToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case number(Double)
        case string(String)
        case regex(pattern: String, flags: String)
        case symbol(String)
        case end
    }

    var kind: Kind
    /// The offset (in characters) of the token in the expression.
    var offset: Int
}

/// Splits a rules expression into tokens. A `/` starts a regular-expression literal only as the
/// argument of `matches(`, as Firebase's grammar has regular expressions nowhere else.
enum RulesLexer {
    /// The longest expression accepted (Firebase limits a rule's size too).
    static let maximumLength = 16_384

    /// The tokens of `text`; errors carry the offset of the offending character.
    static func tokens(_ text: [Character]) throws(RulesLexError) -> [RulesToken] {
        guard text.count <= maximumLength else { throw RulesLexError(offset: maximumLength, message: "expression longer than \(maximumLength) characters") }
        var tokens: [RulesToken] = []
        var index = 0
        func at(_ offset: Int) -> Character? { offset < text.count ? text[offset] : nil }
        while index < text.count {
            let character = text[index]
            let start = index
            if character.isWhitespace {
                index += 1
                continue
            }
            if character.isLetter || character == "_" || character == "$" {
                var name = ""
                while let next = at(index), next.isLetter || next.isNumber || next == "_" || next == "$" {
                    name.append(next)
                    index += 1
                }
                tokens.append(RulesToken(kind: .identifier(name), offset: start))
            } else if character.isASCII && character.isNumber {
                var literal = ""
                while let next = at(index), next.isASCII && (next.isNumber || next == ".") {
                    literal.append(next)
                    index += 1
                }
                if let next = at(index), next == "e" || next == "E" {
                    literal.append(next)
                    index += 1
                    if let sign = at(index), sign == "+" || sign == "-" {
                        literal.append(sign)
                        index += 1
                    }
                    while let next = at(index), next.isASCII && next.isNumber {
                        literal.append(next)
                        index += 1
                    }
                }
                guard let number = Double(literal), number.isFinite else {
                    throw RulesLexError(offset: start, message: "'\(literal)' is not a number")
                }
                tokens.append(RulesToken(kind: .number(number), offset: start))
            } else if character == "'" || character == "\"" {
                index += 1
                var value = ""
                while true {
                    guard let next = at(index) else { throw RulesLexError(offset: start, message: "unterminated string literal") }
                    index += 1
                    if next == character { break }
                    if next == "\\" {
                        guard let escaped = at(index) else { throw RulesLexError(offset: start, message: "unterminated string literal") }
                        index += 1
                        switch escaped {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        default: value.append(escaped)
                        }
                    } else {
                        value.append(next)
                    }
                }
                tokens.append(RulesToken(kind: .string(value), offset: start))
            } else if character == "/" && isRegexPosition(tokens) {
                index += 1
                var pattern = ""
                while true {
                    guard let next = at(index) else { throw RulesLexError(offset: start, message: "unterminated regular expression") }
                    index += 1
                    if next == "/" { break }
                    pattern.append(next)
                    if next == "\\", let escaped = at(index) {
                        pattern.append(escaped)
                        index += 1
                    }
                }
                var flags = ""
                while let next = at(index), next.isLetter {
                    flags.append(next)
                    index += 1
                }
                tokens.append(RulesToken(kind: .regex(pattern: pattern, flags: flags), offset: start))
            } else {
                let two = at(index + 1).map { String([character, $0]) }
                let three = two.flatMap { pair in at(index + 2).map { pair + String($0) } }
                if let three, three == "===" || three == "!==" {
                    tokens.append(RulesToken(kind: .symbol(three), offset: start))
                    index += 3
                } else if let two, ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                    tokens.append(RulesToken(kind: .symbol(two), offset: start))
                    index += 2
                } else if "!-+*/%<>?:.,()[]".contains(character) {
                    tokens.append(RulesToken(kind: .symbol(String(character)), offset: start))
                    index += 1
                } else {
                    throw RulesLexError(offset: start, message: "unexpected character '\(character)'")
                }
            }
        }
        tokens.append(RulesToken(kind: .end, offset: text.count))
        return tokens
    }

    /// Whether the tokens so far end with `.matches(`.
    private static func isRegexPosition(_ tokens: [RulesToken]) -> Bool {
        guard tokens.count >= 3 else { return false }
        let last = tokens.suffix(3).map(\.kind)
        return last == [.symbol("."), .identifier("matches"), .symbol("(")]
    }
}

/// A lexing or parsing error at an offset of the expression.
struct RulesLexError: Error {
    var offset: Int
    var message: String
}
