import Foundation

/// A JSON value: null, bool, number, string, array or object.
///
/// Used by both Remote Config (JSON config values, `decoded(asType:)`) and the Realtime Database
/// (the data tree). `Sendable`, `Hashable`, `Codable`, and writable as literals:
///
///     let value: JSONValue = ["title": "make", "tabs": [1, 2, 3], "enabled": true, "note": nil]
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON numbers are doubles; integers up to 2^53 are exact).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    indirect case array([JSONValue])
    /// An object.
    indirect case object([String: JSONValue])
}

/// Why text could not be read as JSON.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Kind: Hashable, Sendable {
        /// The text is not JSON (a syntax error, invalid UTF-8, a number out of range).
        case invalidJSON
        /// Arrays and objects are nested deeper than `limit` levels (``JSONValue``'s
        /// `maximumDepth`); parsing stopped there.
        case nestingTooDeep(limit: Int)
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// What went wrong, and where (a byte offset).
    public let message: String

    /// Creates an `.invalidJSON` error with `message`.
    public init(_ message: String) {
        self.init(kind: .invalidJSON, message: message)
    }

    /// Creates an error of `kind` with `message`.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { "Invalid JSON: \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects that parsing accepts by default: 512 levels,
    /// the limit of Foundation's `JSONSerialization` and `JSONDecoder`.
    ///
    /// Parsing itself uses no call stack per level (it is not recursive), so the limit bounds
    /// the recursive work done later on a parsed value (comparing, hashing, `Codable`
    /// conversions, releasing it) and rejects pathological input early. Real data is far
    /// shallower: a Realtime Database tree is at most 32 levels deep. See
    /// <doc:RemoteConfigGuide#Limits>.
    public static let defaultMaximumDepth = 512

    /// Parses JSON text (any top-level value, including fragments like `"3"` or `true`).
    ///
    /// - Complexity: O(n) in the length of the text, with the same call stack at any depth.
    /// - Throws: ``JSONParseError`` for text that is not JSON (`.invalidJSON`) or nests more than
    ///   `maximumDepth` arrays and objects (`.nestingTooDeep(limit:)`).
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws {
        var text = text
        self = try text.withUTF8 { bytes throws(JSONParseError) in
            try JSONParser.parse(bytes, maximumDepth: maximumDepth)
        }
    }

    /// Parses JSON data (any top-level value).
    ///
    /// - Complexity: O(n) in the size of the data, with the same call stack at any depth.
    /// - Throws: ``JSONParseError`` for data that is not JSON (`.invalidJSON`) or nests more than
    ///   `maximumDepth` arrays and objects (`.nestingTooDeep(limit:)`).
    public init(parsing data: Data, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws {
        self = try data.withUnsafeBytes { raw throws(JSONParseError) in
            try JSONParser.parse(raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
        }
    }

    /// Converts any `Encodable` value to JSON.
    public init<T: Encodable>(encoding value: T) throws {
        let data = try JSONEncoder().encode(value)
        try self.init(parsing: data)
    }

    /// Decodes a `Decodable` value from this JSON.
    ///
    /// - Throws: `DecodingError` when the JSON does not match `T`.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws -> T {
        if let value = self as? T { return value }  // `JSONValue` itself: no round trip
        return try JSONDecoder().decode(T.self, from: data())
    }

    /// The JSON text, with sorted keys (stable for comparisons and files).
    public func serialized(prettyPrinted: Bool = false) -> String {
        String(decoding: data(prettyPrinted: prettyPrinted), as: UTF8.self)
    }

    /// The JSON text as UTF-8 data, with sorted keys (as `JSONEncoder` writes it with
    /// `.sortedKeys` and `.withoutEscapingSlashes`; non-finite numbers as `null`).
    ///
    /// - Complexity: O(n log n) for sorting keys; the same call stack at any depth.
    public func data(prettyPrinted: Bool = false) -> Data {
        Data(JSONWriter.write(self, prettyPrinted: prettyPrinted))
    }
}

extension JSONValue {
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The bool, if this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }

    /// The number, if this is one.
    public var numberValue: Double? { if case .number(let value) = self { return value } else { return nil } }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }

    /// The array, if this is one.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { return value } else { return nil } }

    /// The object, if this is one.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { return value } else { return nil } }

    /// The member `key` of an object (`nil` for a missing key or a non-object).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index` of an array (`nil` when out of range or not an array).
    public subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value from any `Decoder` (for a ``JSONValue`` inside your own
    /// `Codable` types).
    ///
    /// - Note: A `Decoder` cannot say which kind of value comes next, so this tries the kinds
    ///   in turn, and each failed try costs `JSONDecoder` the length of the coding path:
    ///   O(depth²) for deep input, and a recursion per level. The library never reads network
    ///   or file input this way; parse bytes with `init(parsing:maximumDepth:)` instead.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Containers first: a failed attempt builds a `DecodingError` with the whole coding path
        // (O(depth)), so trying the scalars first made every level of a deep array or object
        // pay three of them, O(depth²) in all (a 500-deep array took 12 s in the fuzzer's ASan
        // build). Leaves still pay two failed attempts each.
        if container.decodeNil() {
            self = .null
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    /// Encodes the JSON value (non-finite numbers as `null`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized() }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A bool.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object (a repeated key keeps the last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
