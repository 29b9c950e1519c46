/// Writes ``JSONValue``s as JSON text without recursion (an explicit stack of open containers),
/// byte for byte as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` (plus
/// `.prettyPrinted` when asked) writes them, so deep values cost no call stack.
///
/// Numbers are written as their shortest round-tripping decimal (`1`, `0.1`, `1e+21`),
/// non-finite numbers as `null`; object keys are sorted.
enum JSONWriter {
    private enum Frame {
        case array([JSONValue], next: Int)
        case object([(key: String, value: JSONValue)], next: Int)
    }

    static func write(_ root: JSONValue, prettyPrinted: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var stack: [Frame] = []
        var pending: JSONValue? = root
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: out.append(contentsOf: "null".utf8)
                case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
                case .number(let number): writeNumber(number, to: &out)
                case .string(let string): writeString(string, to: &out)
                case .array(let elements):
                    if elements.isEmpty {
                        writeEmpty("[", "]", depth: stack.count, prettyPrinted: prettyPrinted, to: &out)
                    } else {
                        out.append(UInt8(ascii: "["))
                        stack.append(.array(elements, next: 0))
                    }
                case .object(let members):
                    if members.isEmpty {
                        writeEmpty("{", "}", depth: stack.count, prettyPrinted: prettyPrinted, to: &out)
                    } else {
                        out.append(UInt8(ascii: "{"))
                        // By UTF-8 bytes, without Unicode normalization, as JSONEncoder sorts.
                        stack.append(.object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, next: 0))
                    }
                }
            }
            guard let frame = stack.popLast() else { return out }
            switch frame {
            case .array(let elements, let next):
                if next < elements.count {
                    separate(first: next == 0, depth: stack.count + 1, prettyPrinted: prettyPrinted, to: &out)
                    pending = elements[next]
                    stack.append(.array(elements, next: next + 1))
                } else {
                    close("]", depth: stack.count, prettyPrinted: prettyPrinted, to: &out)
                }
            case .object(let members, let next):
                if next < members.count {
                    separate(first: next == 0, depth: stack.count + 1, prettyPrinted: prettyPrinted, to: &out)
                    writeString(members[next].key, to: &out)
                    out.append(contentsOf: (prettyPrinted ? " : " : ":").utf8)
                    pending = members[next].value
                    stack.append(.object(members, next: next + 1))
                } else {
                    close("}", depth: stack.count, prettyPrinted: prettyPrinted, to: &out)
                }
            }
        }
    }

    private static func separate(first: Bool, depth: Int, prettyPrinted: Bool, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        if prettyPrinted { newline(depth: depth, to: &out) }
    }

    private static func close(_ bracket: Unicode.Scalar, depth: Int, prettyPrinted: Bool, to out: inout [UInt8]) {
        if prettyPrinted { newline(depth: depth, to: &out) }
        out.append(UInt8(ascii: bracket))
    }

    private static func writeEmpty(_ open: Unicode.Scalar, _ close: Unicode.Scalar, depth: Int, prettyPrinted: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: open))
        if prettyPrinted {
            out.append(0x0A)
            newline(depth: depth, to: &out)
        }
        out.append(UInt8(ascii: close))
    }

    private static func newline(depth: Int, to out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private static func writeNumber(_ number: Double, to out: inout [UInt8]) {
        guard number.isFinite else { return out.append(contentsOf: "null".utf8) }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    private static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
