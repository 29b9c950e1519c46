/// A validated location in a Realtime Database tree, e.g. `Groups/group0/1`.
///
/// Paths are slash-separated keys. A single leading and a single trailing slash are ignored, so
/// `"/a/b/"`, `"a/b"` and `"/a/b"` are the same path; `""` and `"/"` are the root. A path is
/// rejected with `RealtimeDatabaseError.invalidPath` when a segment is empty (`"a//b"`) or
/// contains `.`, `#`, `$`, `[`, `]` or an ASCII control character (U+0000–U+001F, U+007F);
/// with `.pathTooDeep` when it has more segments than `RealtimeDatabaseLimits.maximumDepth`
/// (32), and with `.keyTooLong` for a segment longer than `maximumKeyLength` (768 UTF-8 bytes):
/// Firebase's limits, https://firebase.google.com/docs/database/usage/limits.
///
/// Paths are split on the `/` byte of their UTF-8 form, never on `Character`s, so a key that
/// starts with a combining mark (`"a/\u{301}x"`, where `/` and the mark form one
/// `Character`) is read exactly as it was written. See <doc:RealtimeDatabaseGuide>.
public struct RealtimeDatabasePath: Hashable, Sendable, CustomStringConvertible {
    /// The keys from the root down; empty for the root.
    public let segments: [String]

    /// The root of the tree.
    public static let root = RealtimeDatabasePath(validSegments: [])

    /// The longest key Firebase accepts, in UTF-8 bytes (`RealtimeDatabaseLimits.firebase`).
    public static let maximumKeyLength = RealtimeDatabaseLimits.firebase.maximumKeyLength

    /// Parses and validates `string` against Firebase's limits.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath(string, reason:)`, `.pathTooDeep` or
    ///   `.keyTooLong`.
    public init(_ string: String) throws {
        try self.init(string, limits: .firebase)
    }

    /// Parses and validates `string` against `limits`.
    ///
    /// - Complexity: O(n) in the UTF-8 length of `string`; a path deeper than the limit is
    ///   rejected before any segment is made.
    /// - Throws: `RealtimeDatabaseError.invalidPath(string, reason:)`, `.pathTooDeep` or
    ///   `.keyTooLong`.
    public init(_ string: String, limits: RealtimeDatabaseLimits) throws {
        segments = try Self.parse(string, limits: limits, depthAbove: 0)
    }

    /// Parses `string` as a path relative to a location `depthAbove` keys below the root; the
    /// depth limit applies to the whole path.
    package init(_ string: String, limits: RealtimeDatabaseLimits, depthAbove: Int) throws(RealtimeDatabaseError) {
        segments = try Self.parse(string, limits: limits, depthAbove: depthAbove)
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
    /// - Throws: `RealtimeDatabaseError.invalidPath(relativePath, reason:)`, `.pathTooDeep`
    ///   (for the whole path) or `.keyTooLong`.
    public func child(_ relativePath: String, limits: RealtimeDatabaseLimits = .firebase) throws -> RealtimeDatabasePath {
        RealtimeDatabasePath(validSegments: segments + (try Self.parse(relativePath, limits: limits, depthAbove: segments.count)))
    }

    /// The number of keys from the root (0 for the root).
    public var depth: Int { segments.count }

    /// Whether `self` is `other` or one of its ancestors.
    public func isAncestor(ofOrEqualTo other: RealtimeDatabasePath) -> Bool {
        segments.count <= other.segments.count && other.segments.starts(with: segments)
    }

    /// The path with a leading slash, e.g. `/Groups/group0`; `/` for the root.
    public var description: String { "/" + segments.joined(separator: "/") }

    /// Validates the length of `key` against `limits`.
    ///
    /// - Throws: `RealtimeDatabaseError.keyTooLong`.
    static func checkLength(of key: String, limits: RealtimeDatabaseLimits) throws(RealtimeDatabaseError) {
        let bytes = key.utf8.count
        if bytes > limits.maximumKeyLength { throw .keyTooLong(bytes: bytes, limit: limits.maximumKeyLength) }
    }

    /// Why `key` is not a valid key (its characters), or `nil` when it is valid (used for
    /// paths and object keys); the length is checked by `checkLength(of:limits:)`.
    static func problem(withKey key: String) -> String? {
        if key.isEmpty { return "empty segment" }
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

    /// The segments of `string`, split on the `/` byte (0x2F never occurs inside a multi-byte
    /// UTF-8 sequence), for a path that starts `depthAbove` keys below the root.
    private static func parse(_ string: String, limits: RealtimeDatabaseLimits, depthAbove: Int) throws(RealtimeDatabaseError) -> [String] {
        let slash = UInt8(ascii: "/")
        let utf8 = string.utf8
        if utf8.isEmpty || utf8.elementsEqual(CollectionOfOne(slash)) { return [] }
        var body = utf8[...]
        if body.first == slash { body = body.dropFirst() }
        if body.last == slash { body = body.dropLast() }
        let depth = depthAbove + body.count(where: { $0 == slash }) + 1
        if depth > limits.maximumDepth { throw .pathTooDeep(depth: depth, limit: limits.maximumDepth) }
        var segments: [String] = []
        segments.reserveCapacity(depth - depthAbove)
        for piece in body.split(separator: slash, omittingEmptySubsequences: false) {
            let segment = String(Substring(piece))
            if let problem = problem(withKey: segment) {
                throw .invalidPath(string, reason: problem)
            }
            try checkLength(of: segment, limits: limits)
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
