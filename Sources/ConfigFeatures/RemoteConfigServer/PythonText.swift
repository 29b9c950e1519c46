/// Python's text rules that firebase-admin's server-template evaluator relies on, written out so
/// ours gives the same answers: `str.strip()`, `float(str)` and `int(str)` (CPython 3).
enum PythonText {
    /// Whether Python's `str.isspace()` holds for `scalar` (bidirectional class WS, B or S, or
    /// general category Zs): what `strip()`, `float()` and `int()` skip.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// `text.strip()`: `text` without leading and trailing whitespace, as Unicode scalars.
    static func strip(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, isSpace(scalars[start]) { start += 1 }
        while end > start, isSpace(scalars[end - 1]) { end -= 1 }
        return Array(scalars[start..<end])
    }

    /// `float(text)`, or `nil` where Python raises `ValueError`.
    ///
    /// Python first turns Unicode whitespace into a space and Unicode decimal digits into ASCII
    /// ones, trims ASCII whitespace, allows single underscores between digits, then reads a
    /// decimal literal or `inf`, `infinity`, `nan` (any case, optionally signed).
    static func float(_ text: String) -> Double? {
        guard var ascii = asciiNumber(text), let stripped = removeUnderscores(&ascii) else { return nil }
        var body = Substring(stripped)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        switch body.lowercased() {
        case "inf", "infinity": return negative ? -.infinity : .infinity
        case "nan": return .nan
        default: break
        }
        guard isDecimalLiteral(body) else { return nil }
        guard let magnitude = Double(String(body)) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// `int(text)` in base 10, as a sign and a magnitude without leading zeros (`[]` for zero),
    /// or `nil` where Python raises `ValueError` (including its 4,300-digit conversion limit).
    static func integer(_ text: String) -> (negative: Bool, digits: [UInt8])? {
        guard var ascii = asciiNumber(text) else { return nil }
        var negative = false
        if let sign = ascii.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            ascii.removeFirst()
        }
        guard let digitsOnly = removeUnderscores(&ascii), !digitsOnly.isEmpty,
            digitsOnly.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        guard digitsOnly.utf8.count <= 4300 else { return nil }
        let digits = Array(digitsOnly.utf8.drop { $0 == UInt8(ascii: "0") }.map { $0 - UInt8(ascii: "0") })
        return (negative && !digits.isEmpty, digits)
    }

    /// Python's `_PyUnicode_TransformDecimalAndSpaceToASCII` followed by trimming ASCII
    /// whitespace: `nil` when a character is neither ASCII, whitespace nor a decimal digit.
    private static func asciiNumber(_ text: String) -> [UInt8]? {
        var bytes = [UInt8]()
        for scalar in text.unicodeScalars {
            if scalar.value < 127 {
                bytes.append(UInt8(scalar.value))
            } else if isSpace(scalar) {
                bytes.append(UInt8(ascii: " "))
            } else if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                bytes.append(UInt8(ascii: "0") + UInt8(value))
            } else {
                return nil
            }
        }
        let isASCIISpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        while let last = bytes.last, isASCIISpace(last) { bytes.removeLast() }
        let leading = bytes.prefix { isASCIISpace($0) }.count
        return Array(bytes.dropFirst(leading))
    }

    /// `bytes` without its underscores, or `nil` unless each sits between two digits.
    private static func removeUnderscores(_ bytes: inout [UInt8]) -> String? {
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "_") {
                guard index > 0, index + 1 < bytes.count, isDigit(bytes[index - 1]), isDigit(bytes[index + 1]) else { return nil }
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `digits [. digits] [e [sign] digits]` with at least one mantissa digit.
    private static func isDecimalLiteral(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        var mantissaDigits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
            mantissaDigits += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return false }
        }
        return index == bytes.count
    }
}
