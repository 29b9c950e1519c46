/// A validated location in a Realtime Database tree, e.g. `Groups/group0/1`.
///
/// Paths are slash-separated keys. A single leading and a single trailing slash are ignored, so
/// `"/a/b/"`, `"a/b"` and `"/a/b"` are the same path; `""` and `"/"` are the root. A path is
/// rejected with `RealtimeDatabaseError.invalidPath` when a segment is empty (`"a//b"`),
/// contains `.`, `#`, `$`, `[`, `]` or an ASCII control character (U+0000–U+001F, U+007F), or
/// is longer than 768 UTF-8 bytes (Firebase's key limit). See `Guides/RealtimeDatabase.md`.
public struct RealtimeDatabasePath: Hashable, Sendable, CustomStringConvertible {
    /// The keys from the root down; empty for the root.
    public let segments: [String]

    /// The root of the tree.
    public static let root = RealtimeDatabasePath(validSegments: [])

    /// The longest key Firebase accepts, in UTF-8 bytes.
    public static let maximumKeyLength = 768

    /// Parses and validates `string`.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath(string, reason:)`.
    public init(_ string: String) throws {
        segments = try Self.parse(string)
    }

    init(validSegments: [String]) {
        segments = validSegments
    }

    /// Whether this is the root.
    public var isRoot: Bool { segments.isEmpty }

    /// The last key (Firebase's `DatabaseReference.key`), `nil` for the root.
    public var key: String? { segments.last }

    /// The parent location, `nil` for the root.
    public var parent: RealtimeDatabasePath? {
        isRoot ? nil : RealtimeDatabasePath(validSegments: Array(segments.dropLast()))
    }

    /// The location at `relativePath` below this one (`relativePath` may contain slashes).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath(relativePath, reason:)`.
    public func child(_ relativePath: String) throws -> RealtimeDatabasePath {
        RealtimeDatabasePath(validSegments: segments + (try Self.parse(relativePath)))
    }

    /// Whether `self` is `other` or one of its ancestors.
    public func isAncestor(ofOrEqualTo other: RealtimeDatabasePath) -> Bool {
        segments.count <= other.segments.count && other.segments.starts(with: segments)
    }

    /// The path with a leading slash, e.g. `/Groups/group0`; `/` for the root.
    public var description: String { "/" + segments.joined(separator: "/") }

    /// Why `key` is not a valid key, or `nil` when it is valid (used for paths and object keys).
    static func problem(withKey key: String) -> String? {
        if key.isEmpty { return "empty segment" }
        if key.utf8.count > maximumKeyLength { return "segment longer than \(maximumKeyLength) bytes" }
        for scalar in key.unicodeScalars {
            switch scalar {
            case ".", "#", "$", "[", "]":
                return "segment \"\(key)\" contains \"\(scalar)\""
            case "/":
                return "key \"\(key)\" contains \"/\""
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    return "segment contains the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
                }
            }
        }
        return nil
    }

    private static func parse(_ string: String) throws -> [String] {
        if string.isEmpty || string == "/" { return [] }
        var body = Substring(string)
        if body.hasPrefix("/") { body = body.dropFirst() }
        if body.hasSuffix("/") { body = body.dropLast() }
        var segments: [String] = []
        for piece in body.split(separator: "/", omittingEmptySubsequences: false) {
            let segment = String(piece)
            if let problem = problem(withKey: segment) {
                throw RealtimeDatabaseError.invalidPath(string, reason: problem)
            }
            segments.append(segment)
        }
        return segments
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
