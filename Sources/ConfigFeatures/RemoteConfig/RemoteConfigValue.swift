import Foundation

/// One config value with Firebase's conversions (Firebase's ``RemoteConfigValue``).
///
/// Values are stored as text, as in Firebase; each accessor interprets that text:
///
/// | accessor | rule |
/// |---|---|
/// | `stringValue` | the text (UTF-8) |
/// | `numberValue` | `NSString.doubleValue`: the longest leading decimal number after leading whitespace; `0` when there is none |
/// | `boolValue` | `NSString.boolValue`: after leading whitespace, an optional `+`/`-` and zeros, true if the next character is `Y`, `y`, `T`, `t` or `1`–`9` |
/// | `dataValue` | the UTF-8 bytes |
/// | `jsonValue` | the text parsed as JSON, `nil` if it is not JSON |
/// | `decoded(asType:)` | a `Decodable` read from the text (see `decoded(asType:)`) |
///
/// So `"true"`, `"yes"`, `"1"` and `"42"` are true; `"false"`, `"no"`, `"0"` and `""` are false;
/// `"abc"` is the number 0.
public struct RemoteConfigValue: Sendable, Hashable, CustomStringConvertible {
    /// The raw bytes of the value.
    public let dataValue: Data
    /// Where the value came from.
    public let source: RemoteConfigSource

    /// Creates a value from raw bytes.
    public init(data: Data, source: RemoteConfigSource) {
        dataValue = data
        self.source = source
    }

    /// Creates a value from text.
    public init(string: String, source: RemoteConfigSource) {
        self.init(data: Data(string.utf8), source: source)
    }

    /// The static value of a key that is neither active nor a default: empty text.
    public static let staticValue = RemoteConfigValue(data: Data(), source: .static)

    /// The value as text (invalid UTF-8 is replaced by U+FFFD).
    public var stringValue: String { String(decoding: dataValue, as: UTF8.self) }

    /// The value as a number, read like `NSString.doubleValue` (`0` when the text is not a number).
    public var numberValue: Double { RemoteConfigText.doubleValue(of: stringValue) }

    /// The value as a Boolean, read like `NSString.boolValue`.
    public var boolValue: Bool { RemoteConfigText.boolValue(of: stringValue) }

    /// The value parsed as JSON (any JSON text, including `3`, `true` and `"s"`); `nil` when the
    /// text is not JSON.
    public var jsonValue: JSONValue? { try? JSONValue(parsing: dataValue) }

    /// Decodes the value as `T`.
    ///
    /// The text is read lazily for what `T` asks: a `String` is the text itself; numbers and
    /// `Bool` parse the text (strictly: `"abc"` as an `Int` is an error, not 0); arrays,
    /// dictionaries and structs parse the text as JSON. So `"make"` decodes as a `String`,
    /// `"5"` as an `Int` or a `String`, and `{"a": 1}` as a struct.
    ///
    /// - Throws: `RemoteConfigError.decoding` with the coding path and the problem.
    public func decoded<T: Decodable>(asType type: T.Type = T.self) throws -> T {
        try RemoteConfigDecoding.decode(type, from: .text(stringValue))
    }

    /// The text, with its source.
    public var description: String { "RemoteConfigValue(\(stringValue.debugDescription), source: \(source))" }
}

/// Firebase's storage format for default values and `NSString`'s conversions.
enum RemoteConfigText {
    /// The text Firebase stores for a JSON default: strings as themselves, numbers without a
    /// trailing `.0` when integral, bools as `true`/`false`, `null`, arrays and objects as JSON.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let string): return string
        case .number(let number): return text(of: number)
        case .bool(let bool): return bool ? "true" : "false"
        case .null: return "null"
        case .array, .object: return value.serialized()
        }
    }

    /// A number as text: `3`, `-2`, `2.5`, `1e+20`.
    static func text(of number: Double) -> String {
        if number.isFinite, number == number.rounded(.towardZero), abs(number) < 9.0e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    /// Leading characters `NSString` skips: whitespace and newlines.
    private static func isSkippable(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.whitespacesAndNewlines.contains(scalar)
    }

    /// `NSString.boolValue`: skip leading whitespace, one optional `+`/`-`, then zeros; true if
    /// the next character is `Y`, `y`, `T`, `t` or a digit `1`–`9`.
    static func boolValue(of text: String) -> Bool {
        var scalars = text.unicodeScalars[...]
        while let first = scalars.first, isSkippable(first) { scalars = scalars.dropFirst() }
        if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
        while scalars.first == "0" { scalars = scalars.dropFirst() }
        guard let first = scalars.first else { return false }
        switch first {
        case "Y", "y", "T", "t", "1"..."9": return true
        default: return false
        }
    }

    /// `NSString.doubleValue`: skip leading whitespace, then read the longest prefix of the form
    /// `[+-] digits [. digits] [(e|E) [+-] digits]` (at least one mantissa digit); `0` when
    /// there is none. Overflow gives ±infinity.
    static func doubleValue(of text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count, isSkippable(scalars[index]) { index += 1 }
        var number = ""
        func isDigit(_ i: Int) -> Bool { i < scalars.count && ("0"..."9").contains(scalars[i]) }
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
            number.unicodeScalars.append(scalars[index])
            index += 1
        }
        var mantissaDigits = 0
        while isDigit(index) { number.unicodeScalars.append(scalars[index]); index += 1; mantissaDigits += 1 }
        if index < scalars.count, scalars[index] == "." {
            var fraction = "."
            var probe = index + 1
            var fractionDigits = 0
            while isDigit(probe) { fraction.unicodeScalars.append(scalars[probe]); probe += 1; fractionDigits += 1 }
            if mantissaDigits + fractionDigits > 0 {
                // "1." and "1.e2" are numbers (the dot is consumed); only digits are kept.
                if fractionDigits > 0 { number += fraction }
                mantissaDigits += fractionDigits
                index = probe
            }
        }
        guard mantissaDigits > 0 else { return 0 }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var exponent = "e"
            var probe = index + 1
            if probe < scalars.count, scalars[probe] == "+" || scalars[probe] == "-" {
                exponent.unicodeScalars.append(scalars[probe])
                probe += 1
            }
            var exponentDigits = 0
            while isDigit(probe) { exponent.unicodeScalars.append(scalars[probe]); probe += 1; exponentDigits += 1 }
            if exponentDigits > 0 { number += exponent }
        }
        if number.hasPrefix("+") { number.removeFirst() }
        if number.hasPrefix(".") { number = "0" + number }
        if number.hasPrefix("-.") { number = "-0" + number.dropFirst() }
        return Double(number) ?? 0
    }
}
