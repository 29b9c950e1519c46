/// Cuts a byte stream carrying a JSON array of objects (`[{…},{…}`, sent in chunks split
/// anywhere) into the text of each complete top-level object, as soon as its closing brace
/// arrives.
///
/// It tracks braces, strings and escapes, so a `}` or `"` inside a string does not end an
/// object; it does not validate the objects (decode them afterwards). Between objects it
/// accepts only JSON whitespace, `[`, `]` and `,`; anything else, or an object larger than
/// `maximumObjectSize`, is a failure after which the splitter stops.
struct JSONObjectStreamSplitter: Sendable {
    /// The largest object accepted, in bytes.
    let maximumObjectSize: Int

    /// Why the stream is malformed, once it is; no more objects are returned then.
    private(set) var failure: String?
    /// Whether the failure is an object past `maximumObjectSize` (what was buffered is freed).
    private(set) var isObjectTooLarge = false

    /// The bytes of the object being read (empty between objects).
    private var object: [UInt8] = []
    /// The brace depth: 0 between objects.
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// Creates a splitter at the start of a stream.
    init(maximumObjectSize: Int = 1 << 20) {
        self.maximumObjectSize = maximumObjectSize
    }

    /// Whether an object has started but not ended.
    var isInsideObject: Bool { depth > 0 }

    /// Reads the next chunk and returns the complete objects it ends, in order. Stops at the
    /// first malformed byte (see `failure`).
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var objects: [[UInt8]] = []
        guard failure == nil else { return objects }
        for byte in bytes {
            if depth == 0 {
                switch byte {
                case UInt8(ascii: "{"):
                    depth = 1
                    object.append(byte)
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                    UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","):
                    continue
                default:
                    failure = "unexpected \(Self.describe(byte)) between objects"
                    return objects
                }
                continue
            }
            object.append(byte)
            if object.count > maximumObjectSize {
                failure = "object larger than \(maximumObjectSize) bytes"
                isObjectTooLarge = true
                object = []
                return objects
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    objects.append(object)
                    object.removeAll(keepingCapacity: true)
                }
            default:
                break
            }
        }
        return objects
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
