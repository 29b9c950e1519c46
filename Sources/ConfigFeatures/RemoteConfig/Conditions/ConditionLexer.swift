/// One token of a condition expression, with its character offset.
struct ConditionToken: Equatable {
    enum Kind: Equatable {
        /// A name: `app`, `version`, `in`, `between`, `and`, `percent`, `dateTime`.
        case identifier(String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// A number literal (`20`, `2.5`, `-1`).
        case number(Double)
        /// Punctuation or an operator: `.`, `,`, `(`, `)`, `[`, `]`, `==`, `!=`, `<`, `<=`, `>`,
        /// `>=`, `&&`, `||`, `!`.
        case symbol(String)
        /// The end of the expression.
        case end
    }

    var kind: Kind
    var position: Int

    /// How the token reads in an error message.
    var text: String {
        switch kind {
        case .identifier(let name): return name
        case .string(let value): return "'\(value)'"
        case .number(let value): return ConditionToken.format(value)
        case .symbol(let symbol): return symbol
        case .end: return "end of expression"
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Splits a condition expression into tokens.
enum ConditionLexer {
    /// The longest expression accepted, in characters.
    static let maximumLength = 10_000

    static func tokens(_ expression: String, condition: String) throws(RemoteConfigConditionError) -> [ConditionToken] {
        let characters = Array(expression)
        func fail(_ position: Int, _ reason: RemoteConfigConditionError.Reason) -> RemoteConfigConditionError {
            RemoteConfigConditionError(condition: condition, position: position, reason: reason)
        }
        guard characters.count <= maximumLength else { throw fail(maximumLength, .tooLong(limit: maximumLength)) }
        var tokens: [ConditionToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
                continue
            }
            if character.isASCII && (character.isLetter || character == "_") {
                while index < characters.count, characters[index].isASCII, characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    index += 1
                }
                tokens.append(ConditionToken(kind: .identifier(String(characters[start..<index])), position: start))
                continue
            }
            if character.isASCII && character.isNumber
                || (character == "-" && index + 1 < characters.count && characters[index + 1].isASCII && characters[index + 1].isNumber)
            {
                index += 1
                var seenPoint = false
                while index < characters.count {
                    let next = characters[index]
                    if next.isASCII && next.isNumber {
                        index += 1
                    } else if next == ".", !seenPoint, index + 1 < characters.count, characters[index + 1].isASCII, characters[index + 1].isNumber {
                        seenPoint = true
                        index += 1
                    } else {
                        break
                    }
                }
                let text = String(characters[start..<index])
                guard let value = Double(text), value.isFinite else { throw fail(start, .invalidLiteral(text, reason: "not a number")) }
                tokens.append(ConditionToken(kind: .number(value), position: start))
                continue
            }
            if character == "'" || character == "\"" {
                index += 1
                var value = ""
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == character {
                        closed = true
                        index += 1
                        break
                    }
                    if next == "\\", index + 1 < characters.count {
                        value.append(characters[index + 1])
                        index += 2
                        continue
                    }
                    value.append(next)
                    index += 1
                }
                guard closed else { throw fail(start, .unterminatedString) }
                tokens.append(ConditionToken(kind: .string(value), position: start))
                continue
            }
            let pair = index + 1 < characters.count ? String([character, characters[index + 1]]) : ""
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(pair) {
                tokens.append(ConditionToken(kind: .symbol(pair), position: start))
                index += 2
                continue
            }
            if ".,()[]<>!".contains(character) {
                tokens.append(ConditionToken(kind: .symbol(String(character)), position: start))
                index += 1
                continue
            }
            throw fail(start, .unexpectedCharacter(character))
        }
        tokens.append(ConditionToken(kind: .end, position: characters.count))
        return tokens
    }
}
