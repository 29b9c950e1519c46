/// A JSON value of a rules text with the positions of its parts.
indirect enum RulesJSON {
    /// An object's members in text order, each with the key's position.
    case object([(key: String, keyAt: RulesPosition, value: RulesJSON)], at: RulesPosition)
    case array([RulesJSON], at: RulesPosition)
    /// A string with the position of each of its characters (for errors inside expressions).
    case string(String, characters: [RulesPosition], at: RulesPosition)
    case number(Double, at: RulesPosition)
    case bool(Bool, at: RulesPosition)
    case null(at: RulesPosition)

    var position: RulesPosition {
        switch self {
        case .object(_, let at), .array(_, let at), .string(_, _, let at), .number(_, let at), .bool(_, let at), .null(let at): return at
        }
    }
}

/// A tolerant JSON reader for rules texts: `//` and `/* */` comments and trailing commas are
/// allowed (as Firebase's rules editor allows them); every value keeps its line and column.
package struct RulesJSONReader {
    /// The deepest nesting accepted.
    package static let maximumDepth = 64

    private let characters: [Character]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) { characters = Array(text) }

    /// Reads the whole text as one value.
    static func read(_ text: String) throws(FirebaseTestServerRulesError) -> RulesJSON {
        var reader = RulesJSONReader(text)
        let value = try reader.value(depth: 0)
        try reader.skipSpace()
        if reader.index < reader.characters.count { throw reader.here.error("expected the end of the text after the rules object") }
        return value
    }

    private var here: RulesPosition { RulesPosition(line: line, column: column) }
    private var current: Character? { index < characters.count ? characters[index] : nil }

    private mutating func advance() {
        guard let character = current else { return }
        index += 1
        if character == "\n" || character == "\r\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    private mutating func skipSpace() throws(FirebaseTestServerRulesError) {
        while let character = current {
            if character.isWhitespace {
                advance()
            } else if character == "/", index + 1 < characters.count, characters[index + 1] == "/" {
                while let next = current, next != "\n", next != "\r\n" { advance() }
            } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                let start = here
                advance()
                advance()
                while true {
                    guard let next = current else { throw start.error("unterminated /* comment") }
                    if next == "*", index + 1 < characters.count, characters[index + 1] == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(FirebaseTestServerRulesError) -> RulesJSON {
        try skipSpace()
        let start = here
        guard depth < Self.maximumDepth else { throw start.error("rules nested deeper than \(Self.maximumDepth) levels") }
        guard let character = current else { throw start.error("expected a JSON value, found the end of the text") }
        switch character {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"":
            let (text, positions) = try string()
            return .string(text, characters: positions, at: start)
        case "t", "f", "n":
            var word = ""
            while let next = current, next.isLetter {
                word.append(next)
                advance()
            }
            switch word {
            case "true": return .bool(true, at: start)
            case "false": return .bool(false, at: start)
            case "null": return .null(at: start)
            default: throw start.error("expected a JSON value, found '\(word)'")
            }
        case "-", "0"..."9":
            var literal = ""
            while let next = current, next.isNumber || "+-.eE".contains(next) {
                literal.append(next)
                advance()
            }
            guard let number = Double(literal), number.isFinite else { throw start.error("expected a number, found '\(literal)'") }
            return .number(number, at: start)
        default:
            throw start.error("expected a JSON value, found '\(character)'")
        }
    }

    private mutating func object(depth: Int) throws(FirebaseTestServerRulesError) -> RulesJSON {
        let start = here
        advance()
        var members: [(key: String, keyAt: RulesPosition, value: RulesJSON)] = []
        while true {
            try skipSpace()
            if current == "}" {
                advance()
                return .object(members, at: start)
            }
            let keyAt = here
            guard current == "\"" else { throw keyAt.error("expected a quoted key or '}'") }
            let (key, _) = try string()
            if members.contains(where: { $0.key == key }) { throw keyAt.error("duplicate key \"\(key)\"") }
            try skipSpace()
            guard current == ":" else { throw here.error("expected ':' after the key \"\(key)\"") }
            advance()
            members.append((key, keyAt, try value(depth: depth + 1)))
            try skipSpace()
            if current == "," {
                advance()
            } else if current != "}" {
                throw here.error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func array(depth: Int) throws(FirebaseTestServerRulesError) -> RulesJSON {
        let start = here
        advance()
        var elements: [RulesJSON] = []
        while true {
            try skipSpace()
            if current == "]" {
                advance()
                return .array(elements, at: start)
            }
            elements.append(try value(depth: depth + 1))
            try skipSpace()
            if current == "," {
                advance()
            } else if current != "]" {
                throw here.error("expected ',' or ']' in the array")
            }
        }
    }

    /// A quoted string, with the text position of each decoded character.
    private mutating func string() throws(FirebaseTestServerRulesError) -> (String, [RulesPosition]) {
        let start = here
        advance()
        var text = ""
        var positions: [RulesPosition] = []
        while true {
            let at = here
            guard let character = current else { throw start.error("unterminated string") }
            if character == "\"" {
                advance()
                return (text, positions)
            }
            if character == "\n" || character == "\r\n" { throw at.error("unterminated string (a line break inside it)") }
            advance()
            guard character == "\\" else {
                text.append(character)
                positions.append(at)
                continue
            }
            guard let escaped = current else { throw start.error("unterminated string") }
            advance()
            let decoded: Character
            switch escaped {
            case "\"": decoded = "\""
            case "\\": decoded = "\\"
            case "/": decoded = "/"
            case "b": decoded = "\u{8}"
            case "f": decoded = "\u{c}"
            case "n": decoded = "\n"
            case "r": decoded = "\r"
            case "t": decoded = "\t"
            case "u":
                var hex = ""
                for _ in 0..<4 {
                    guard let digit = current, digit.isHexDigit else { throw at.error("expected 4 hexadecimal digits after \\u") }
                    hex.append(digit)
                    advance()
                }
                guard let scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) else {
                    throw at.error("\\u\(hex) is not a character the rules accept")
                }
                decoded = Character(scalar)
            default: throw at.error("unknown escape \\\(escaped)")
            }
            text.append(decoded)
            positions.append(at)
        }
    }
}
