import Foundation

/// A JSON value: null, bool, number, string, array or object.
///
/// Used by both Remote Config (JSON config values, `decoded(asType:)`) and the Realtime Database
/// (the data tree). `Sendable`, `Hashable`, `Codable`, and writable as literals:
///
///     let value: JSONValue = ["title": "make", "tabs": [1, 2, 3], "enabled": true, "note": nil]
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
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Creates an error with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { "Invalid JSON: \(message)" }
}

extension JSONValue {
    /// Parses JSON text (any top-level value, including fragments like `"3"` or `true`).
    ///
    /// - Throws: `JSONParseError` for text that is not JSON.
    public init(parsing text: String) throws {
        try self.init(parsing: Data(text.utf8))
    }

    /// Parses JSON data (any top-level value).
    ///
    /// - Throws: `JSONParseError` for data that is not JSON.
    public init(parsing data: Data) throws {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            throw JSONParseError(Self.describe(error))
        } catch {
            throw JSONParseError("\(error)")
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
        try JSONDecoder().decode(T.self, from: data())
    }

    /// The JSON text, with sorted keys (stable for comparisons and files).
    public func serialized(prettyPrinted: Bool = false) -> String {
        String(decoding: data(prettyPrinted: prettyPrinted), as: UTF8.self)
    }

    /// The JSON text as UTF-8 data, with sorted keys.
    public func data(prettyPrinted: Bool = false) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value
        // (non-finite numbers are written as null).
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
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
    /// Decodes any JSON value.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
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
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
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
