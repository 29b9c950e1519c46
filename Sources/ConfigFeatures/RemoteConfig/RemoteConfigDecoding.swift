import Foundation

/// Decodes config text into `Decodable` types, the way Firebase's Codable support reads
/// ``RemoteConfigValue``s: each value is interpreted for the type asked for.
///
/// A node is either config text (read lazily: a `String` is the text, numbers and `Bool` parse
/// it, containers parse it as JSON), a parsed JSON value (read strictly, as `JSONDecoder` would),
/// or the whole config (an object of texts).
enum RemoteConfigDecoding {
    indirect enum Node {
        /// A config value's text.
        case text(String)
        /// A value inside parsed JSON.
        case json(JSONValue)
        /// The whole config: key to text.
        case config([String: String])
    }

    /// Decodes `type` from `node`, wrapping failures in `RemoteConfigError.decoding`.
    static func decode<T: Decodable>(_ type: T.Type, from node: Node) throws -> T {
        do {
            return try NodeDecoder(node: node, codingPath: []).decodeValue(T.self)
        } catch let error as DecodingError {
            throw RemoteConfigError.decoding(describe(error))
        } catch let error as RemoteConfigError {
            throw error
        } catch {
            throw RemoteConfigError.decoding("\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "(root)" : path
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): no value for \(type): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let prefix = context.codingPath.isEmpty ? "" : path(context) + "."
            return "\(prefix)\(key.stringValue): key not found"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A coding key for array indices and the super key.
private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init(intValue: Int) { stringValue = "Index \(intValue)"; self.intValue = intValue }
    static let superKey = IndexKey(stringValue: "super")
}

private struct NodeDecoder: Decoder {
    typealias Node = RemoteConfigDecoding.Node

    let node: Node
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == URL.self {
            let string = try singleValue().decode(String.self)
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL \(string.debugDescription)"))
            }
            // Safety of the cast: T is URL, checked above.
            return url as! T
        }
        return try T(from: self)
    }

    private func mismatch(_ type: Any.Type, _ what: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: what))
    }

    /// The members of an object node (parsing text as JSON when needed).
    func members() throws -> [String: Node] {
        switch node {
        case .config(let values):
            return values.mapValues { .text($0) }
        case .json(.object(let object)):
            return object.mapValues { .json($0) }
        case .text(let text):
            if case .object(let object)? = try? JSONValue(parsing: text) { return object.mapValues { .json($0) } }
            throw mismatch([String: Any].self, "Expected a JSON object, found text \(text.debugDescription)")
        case .json(let other):
            throw mismatch([String: Any].self, "Expected a JSON object, found \(other)")
        }
    }

    /// The elements of an array node (parsing text as JSON when needed).
    func elements() throws -> [Node] {
        switch node {
        case .json(.array(let array)):
            return array.map { .json($0) }
        case .text(let text):
            if case .array(let array)? = try? JSONValue(parsing: text) { return array.map { .json($0) } }
            throw mismatch([Any].self, "Expected a JSON array, found text \(text.debugDescription)")
        case .config:
            throw mismatch([Any].self, "Expected an array, found the whole config")
        case .json(let other):
            throw mismatch([Any].self, "Expected a JSON array, found \(other)")
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(members: try members(), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        UnkeyedContainer(nodes: try elements(), codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { singleValue() }

    func singleValue() -> SingleValueContainer { SingleValueContainer(decoder: self) }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    private func mismatch(_ type: Any.Type, _ found: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(type), found \(found)"))
    }

    private var found: String {
        switch decoder.node {
        case .text(let text): return "text \(text.debugDescription)"
        case .json(let json): return "JSON \(json)"
        case .config: return "the whole config"
        }
    }

    private var trimmedText: String? {
        if case .text(let text) = decoder.node { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return nil
    }

    func decodeNil() -> Bool {
        switch decoder.node {
        case .json(.null): return true
        case .text: return trimmedText == "null"
        default: return false
        }
    }

    func decode(_ type: String.Type) throws -> String {
        switch decoder.node {
        case .text(let text): return text
        case .json(.string(let string)): return string
        default: throw mismatch(type, found)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        if case .json(.bool(let bool)) = decoder.node { return bool }
        if let text = trimmedText?.lowercased() {
            if ["true", "yes", "1"].contains(text) { return true }
            if ["false", "no", "0"].contains(text) { return false }
        }
        throw mismatch(type, found)
    }

    private func number() throws -> Double {
        if case .json(.number(let number)) = decoder.node { return number }
        if let text = trimmedText, let number = Double(text), number.isFinite { return number }
        throw mismatch(Double.self, found)
    }

    func decode(_ type: Double.Type) throws -> Double { try number() }

    func decode(_ type: Float.Type) throws -> Float { Float(try number()) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        if let text = trimmedText, let value = I(text) { return value }
        guard let number = try? number(), let value = I(exactly: number) else { throw mismatch(type, found) }
        return value
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: RemoteConfigDecoding.Node]
    let codingPath: [CodingKey]

    var allKeys: [Key] { members.keys.sorted().compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> NodeDecoder {
        guard let node = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value for key \(key.stringValue.debugDescription)"))
        }
        return NodeDecoder(node: node, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).singleValue().decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).singleValue().decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).singleValue().decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder {
        NodeDecoder(
            node: .json(
                .object(
                    members.compactMapValues { node in
                        if case .json(let json) = node { return json }
                        if case .text(let text) = node { return .string(text) }
                        return nil
                    })), codingPath: codingPath + [IndexKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> Decoder { try decoder(for: key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let nodes: [RemoteConfigDecoding.Node]
    let codingPath: [CodingKey]
    private(set) var currentIndex = 0

    init(nodes: [RemoteConfigDecoding.Node], codingPath: [CodingKey]) {
        self.nodes = nodes
        self.codingPath = codingPath
    }

    var count: Int? { nodes.count }
    var isAtEnd: Bool { currentIndex >= nodes.count }

    private func current<T>(_ type: T.Type) throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [IndexKey(intValue: currentIndex)], debugDescription: "Unkeyed container is at end"))
        }
        return NodeDecoder(node: nodes[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        let isNil = try current(Any?.self).singleValue().decodeNil()
        if isNil { currentIndex += 1 }
        return isNil
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try current(type).decodeValue(type)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try current([String: Any].self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let container = try current([Any].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> Decoder {
        let decoder = try current(Any.self)
        currentIndex += 1
        return decoder
    }
}
