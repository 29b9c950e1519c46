/// One value of an evaluated server template, with firebase-admin's conversions.
///
/// | accessor | rule |
/// |---|---|
/// | `stringValue` | the text; `""` for a static value |
/// | `numberValue` | Python's `float()` of the text (surrounding whitespace, `_` between digits, `inf`, `nan` allowed); `0` when it is not a number, or for a static value |
/// | `boolValue` | true when the lowercased text is `1`, `true`, `t`, `yes`, `y` or `on`; `false` for a static value |
///
/// Unlike the client's ``RemoteConfigValue`` (which follows `NSString`), `"42"` is not true
/// here and `" 1.5 "` is the number 1.5: server templates follow firebase-admin.
public struct RemoteConfigServerValue: Sendable, Hashable, CustomStringConvertible {
    /// The words `boolValue` reads as true, compared after lowercasing (firebase-admin's `BOOLEAN_TRUTHY_VALUES`).
    public static let truthyStrings: Set<String> = ["1", "true", "t", "yes", "y", "on"]

    /// The value of a key that is neither in the template nor in the defaults: `""`, `0`, `false`.
    public static let staticValue = RemoteConfigServerValue(string: "", source: .static)

    /// The value's text (`""` for a static value).
    public let stringValue: String
    /// Where the value came from: `.remote` (the template), `.default` (the defaults given to the
    /// template), `.static` (neither).
    public let source: RemoteConfigSource

    /// Creates a value; a `.static` value's text is always `""`.
    public init(string: String, source: RemoteConfigSource) {
        stringValue = source == .static ? "" : string
        self.source = source
    }

    /// The text as a number (Python's `float()`), `0` when it is not one.
    public var numberValue: Double {
        PythonText.float(stringValue) ?? 0
    }

    /// Whether the lowercased text is one of ``truthyStrings``.
    public var boolValue: Bool {
        Self.truthyStrings.contains(stringValue.lowercased())
    }

    /// The text and the source, for logs.
    public var description: String { "\(stringValue.debugDescription) (\(source.rawValue))" }
}
