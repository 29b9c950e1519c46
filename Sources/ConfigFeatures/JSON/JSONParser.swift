/// A JSON text parser that builds ``JSONValue``s without recursion: the open arrays and objects
/// live on an explicit stack, so the call stack stays the same at any nesting depth and the
/// work is linear in the input (each byte is looked at a bounded number of times).
///
/// It accepts what `JSONDecoder` accepts, so replacing it changed no result: RFC 8259 JSON
/// with any top-level value, one leading UTF-8 byte order mark, a trailing comma before `]` or
/// `}`, and (for a repeated object key) the first value. Numbers must be finite doubles;
/// strings must be valid UTF-8 without unescaped control characters or lone surrogates.
/// Nesting deeper than `maximumDepth` arrays and objects fails with
/// `JSONParseError.Kind.nestingTooDeep` as soon as the first container past it opens.
struct JSONParser {
    /// An array or object still open, with what it holds so far.
    private enum Frame {
        case array([JSONValue])
        case object([String: JSONValue], key: String)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses `bytes` as one JSON text.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.parseText()
    }

    private mutating func parseText() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        var stack: [Frame] = []
        parsing: while true {
            // Read one value; an opening bracket pushes a frame and reads its first member.
            skipWhitespace()
            var value: JSONValue
            switch try peek(expecting: "a value") {
            case UInt8(ascii: "["):
                try open(depth: stack.count + 1)
                skipWhitespace()
                if try peek(expecting: "a value or \"]\"") == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    stack.append(.array([]))
                    continue parsing
                }
            case UInt8(ascii: "{"):
                try open(depth: stack.count + 1)
                skipWhitespace()
                if try peek(expecting: "a key or \"}\"") == UInt8(ascii: "}") {
                    index += 1
                    value = .object([:])
                } else {
                    stack.append(.object([:], key: try parseKey()))
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case let byte:
                throw unexpected(byte, expecting: "a value")
            }
            // Hand the value to the innermost open container, closing containers as they end.
            while let frame = stack.popLast() {
                skipWhitespace()
                // `consume`: binding `var` members from a live `frame` would share, then copy, them.
                switch consume frame {
                case .array(var elements):
                    elements.append(value)
                    let byte = try peek(expecting: "\",\" or \"]\"")
                    index += 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        if try peek(expecting: "a value") == UInt8(ascii: "]") {
                            index += 1  // a trailing comma, as JSONDecoder allows
                        } else {
                            stack.append(.array(elements))
                            continue parsing
                        }
                    } else if byte != UInt8(ascii: "]") {
                        index -= 1
                        throw unexpected(byte, expecting: "\",\" or \"]\"")
                    }
                    value = .array(elements)
                case .object(var members, let key):
                    if members[key] == nil { members[key] = value }  // the first of repeated keys, as JSONDecoder
                    let byte = try peek(expecting: "\",\" or \"}\"")
                    index += 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        if try peek(expecting: "a key") == UInt8(ascii: "}") {
                            index += 1
                        } else {
                            stack.append(.object(members, key: try parseKey()))
                            continue parsing
                        }
                    } else if byte != UInt8(ascii: "}") {
                        index -= 1
                        throw unexpected(byte, expecting: "\",\" or \"}\"")
                    }
                    value = .object(members)
                }
            }
            skipWhitespace()
            if index < bytes.count { throw unexpected(bytes[index], expecting: "the end of the data") }
            return value
        }
    }

    // MARK: - Tokens

    private mutating func open(depth: Int) throws(JSONParseError) {
        if depth > maximumDepth {
            throw JSONParseError(kind: .nestingTooDeep(limit: maximumDepth), message: "more than \(maximumDepth) nested arrays and objects at offset \(index)")
        }
        index += 1
    }

    /// A key and its colon; the value is read next.
    private mutating func parseKey() throws(JSONParseError) -> String {
        let byte = try peek(expecting: "a key")
        guard byte == UInt8(ascii: "\"") else { throw unexpected(byte, expecting: "a key") }
        let key = try parseString()
        skipWhitespace()
        let colon = try peek(expecting: "\":\"")
        guard colon == UInt8(ascii: ":") else { throw unexpected(colon, expecting: "\":\"") }
        index += 1
        return key
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek(expecting what: String) throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw JSONParseError("unexpected end of data, expected \(what)") }
        return bytes[index]
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        guard matches else { throw JSONParseError("invalid literal at offset \(index), expected \(literal)") }
        index += count
    }

    private func unexpected(_ byte: UInt8, expecting what: String) -> JSONParseError {
        let shown = (0x21...0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return JSONParseError("unexpected \(shown) at offset \(index), expected \(what)")
    }

    // MARK: - Strings

    /// A string starting at the opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                guard let string = String(validating: content, as: UTF8.self) else {
                    throw JSONParseError("invalid UTF-8 in the string at offset \(start)")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONParseError("unescaped control character in the string at offset \(start)") }
            index += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw JSONParseError("invalid UTF-8 in the string at offset \(start)")
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(stringStart: start)
            case 0..<0x20:
                throw JSONParseError("unescaped control character in the string at offset \(start)")
            default:
                scratch.append(byte)
            }
        }
        throw JSONParseError("unterminated string at offset \(start)")
    }

    /// The escape after a backslash, appended to `scratch` as UTF-8.
    private mutating func parseEscape(stringStart start: Int) throws(JSONParseError) {
        guard index < bytes.count else { throw JSONParseError("unterminated string at offset \(start)") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = UInt32(try hex4(stringStart: start))
            if (0xD800...0xDBFF).contains(code) {
                // A high surrogate must be followed by an escaped low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError("unpaired surrogate escape in the string at offset \(start)")
                }
                index += 2
                let low = UInt32(try hex4(stringStart: start))
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError("unpaired surrogate escape in the string at offset \(start)")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw JSONParseError("unpaired surrogate escape in the string at offset \(start)")
            }
            // Safety of the force unwrap: surrogates were excluded above, so `code` is a scalar.
            scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(code)!)!)
        default:
            throw JSONParseError("invalid escape in the string at offset \(start)")
        }
    }

    private mutating func hex4(stringStart start: Int) throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw JSONParseError("unterminated string at offset \(start)") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError("invalid \\u escape in the string at offset \(start)")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: - Numbers

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite double.
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        var isInteger = true
        var hasNonZeroDigit = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw invalidNumber(at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw invalidNumber(at: start) }
        } else {
            hasNonZeroDigit = true
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw invalidNumber(at: start) }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                if bytes[index] != UInt8(ascii: "0") { hasNonZeroDigit = true }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw invalidNumber(at: start) }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, text.count <= 15 {
            // Exact in a double: no rounding question, no string.
            var magnitude: Int64 = 0
            for byte in text where byte != UInt8(ascii: "-") { magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0")) }
            return text[0] == UInt8(ascii: "-") ? -Double(magnitude) : Double(magnitude)
        }
        // `Double(_:)` rounds correctly; the text is ASCII by construction.
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isFinite,
            number != 0 || !hasNonZeroDigit
        else {
            // Out of range either way (as JSONDecoder, which rejects overflow and underflow).
            throw JSONParseError("number \(String(decoding: text, as: UTF8.self)) at offset \(start) is not representable as a double")
        }
        return number
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func invalidNumber(at start: Int) -> JSONParseError {
        JSONParseError("invalid number at offset \(start)")
    }
}
