import Foundation

/// An application version such as `"3.2.1"`, `"v3"`, `"1.2.3.4"` or `"3.2.1-beta.2+build.5"`,
/// ordered the way SemVer orders versions.
///
/// Accepted text (after trimming surrounding whitespace and newlines):
///
///     [v|V] N(.N)* [-pre.release.ids] [+build.metadata.ids]
///
/// - Any number of numeric components (at least one), made of ASCII digits only; leading zeros
///   are allowed and ignored (`"3.02"` is 3.2). Missing components compare as 0, so
///   `"3.2" == "3.2.0"` and `"3" == "3.0.0.0"`.
/// - A pre-release is a dot-separated list of non-empty identifiers of `[0-9A-Za-z-]`; a
///   numeric identifier may not have leading zeros (SemVer §9).
/// - Build metadata is a dot-separated list of non-empty identifiers of `[0-9A-Za-z-]`; it is
///   kept in `buildMetadata` and `description` but ignored by `==`, `<` and `hash(into:)`.
///
/// Ordering (SemVer §11): components numerically; then a release is greater than any of its
/// pre-releases; pre-releases compare identifier by identifier (numeric identifiers
/// numerically, alphanumeric ones in ASCII order, numeric lower than alphanumeric), and a
/// shorter list is lower when it is a prefix of the longer one:
///
///     1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < 1.0.0-beta.2
///                 < 1.0.0-beta.11 < 1.0.0-rc.1 < 1.0.0 < 1.0.1 < 1.1 < 2
///
/// Text that does not follow this (`""`, `"abc"`, `"1..2"`, `"-1"`, `"1.2.x"`, a number too
/// large for `Int`) gives `nil` from `init(_:)` and a typed ``AppVersionError`` from
/// `init(parsing:)`; parsing never traps. See
/// <doc:Features-GroupComments#AppVersion-(seed-002,-used-by-the-forced-update)> for the full rules.
public struct AppVersion: Comparable, Hashable, CustomStringConvertible, Sendable {
    /// One dot-separated identifier of a pre-release (`beta`, `2` in `-beta.2`).
    ///
    /// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
    public enum PreReleaseIdentifier: Comparable, Hashable, CustomStringConvertible, Sendable {
        /// An identifier made only of digits, compared numerically.
        case numeric(Int)
        /// An identifier with at least one non-digit, compared in ASCII order.
        case alphanumeric(String)

        /// The identifier as written.
        public var description: String {
            switch self {
            case .numeric(let number): return String(number)
            case .alphanumeric(let text): return text
            }
        }

        /// SemVer's identifier precedence: numeric < alphanumeric; numbers numerically,
        /// text by ASCII (byte) order.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case let (.numeric(l), .numeric(r)): return l < r
            case (.numeric, .alphanumeric): return true
            case (.alphanumeric, .numeric): return false
            case let (.alphanumeric(l), .alphanumeric(r)): return l.utf8.lexicographicallyPrecedes(r.utf8)
            }
        }
    }

    /// The numeric components as written (`[3, 2, 1]` for `"3.2.1"`, `[3]` for `"v3"`); never empty.
    public let components: [Int]
    /// The pre-release identifiers (`[.alphanumeric("beta"), .numeric(2)]` for `-beta.2`); empty for a release.
    public let preRelease: [PreReleaseIdentifier]
    /// The build metadata identifiers (`["build", "5"]` for `+build.5`); ignored for ordering and equality.
    public let buildMetadata: [String]

    /// Parses `string`, or returns `nil` when it is not a version (see the type's rules).
    public init?(_ string: String) {
        guard let version = try? AppVersion(parsing: string) else { return nil }
        self = version
    }

    /// Parses `string`.
    ///
    /// - Throws: ``AppVersionError`` saying which part is wrong.
    public init(parsing string: String) throws(AppVersionError) {
        var text = Substring(string.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.first == "v" || text.first == "V" { text = text.dropFirst() }
        guard !text.isEmpty else { throw .empty }

        var build: [String] = []
        if let plus = text.firstIndex(of: "+") {
            let metadata = text[text.index(after: plus)...]
            text = text[..<plus]
            guard !text.isEmpty else { throw .empty }
            for identifier in metadata.split(separator: ".", omittingEmptySubsequences: false) {
                guard !identifier.isEmpty, Self.isIdentifier(identifier) else {
                    throw .invalidBuildMetadata(String(metadata))
                }
                build.append(String(identifier))
            }
        }

        var pre: [PreReleaseIdentifier] = []
        if let dash = text.firstIndex(of: "-") {
            let preText = text[text.index(after: dash)...]
            text = text[..<dash]
            guard !text.isEmpty else { throw .empty }
            for identifier in preText.split(separator: ".", omittingEmptySubsequences: false) {
                guard !identifier.isEmpty, Self.isIdentifier(identifier) else {
                    throw .invalidPreRelease(String(preText))
                }
                if Self.isDigits(identifier) {
                    guard identifier == "0" || identifier.first != "0" else {
                        throw .invalidPreRelease(String(preText))
                    }
                    guard let number = Int(identifier) else { throw .numberTooLarge(String(identifier)) }
                    pre.append(.numeric(number))
                } else {
                    pre.append(.alphanumeric(String(identifier)))
                }
            }
        }

        guard !text.isEmpty else { throw .empty }
        var numbers: [Int] = []
        for component in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !component.isEmpty, Self.isDigits(component) else { throw .invalidComponent(String(component)) }
            guard let number = Int(component) else { throw .numberTooLarge(String(component)) }
            numbers.append(number)
        }
        components = numbers
        preRelease = pre
        buildMetadata = build
    }

    /// The first component.
    public var major: Int { component(0) }
    /// The second component (0 when absent).
    public var minor: Int { component(1) }
    /// The third component (0 when absent).
    public var patch: Int { component(2) }
    /// Whether the version has a pre-release part (`-beta.2`).
    public var isPreRelease: Bool { !preRelease.isEmpty }

    /// The component at `index`, 0 when the version has fewer components.
    public func component(_ index: Int) -> Int {
        components.indices.contains(index) ? components[index] : 0
    }

    /// The normalized text: components as numbers (no `v`, no leading zeros), then the
    /// pre-release and build metadata, e.g. `3.2.1-beta.2+build.5`.
    public var description: String {
        var text = components.map(String.init).joined(separator: ".")
        if !preRelease.isEmpty { text += "-" + preRelease.map(\.description).joined(separator: ".") }
        if !buildMetadata.isEmpty { text += "+" + buildMetadata.joined(separator: ".") }
        return text
    }

    /// Equal when the components (missing ones being 0) and the pre-release are equal; build
    /// metadata is ignored.
    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool {
        lhs.significantComponents == rhs.significantComponents && lhs.preRelease == rhs.preRelease
    }

    /// SemVer precedence (see the type's documentation).
    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let (l, r) = (lhs.component(index), rhs.component(index))
            if l != r { return l < r }
        }
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false  // a release is not lower than anything equal so far
        case (false, true): return true  // a pre-release is lower than its release
        case (false, false): return lhs.preRelease.lexicographicallyPrecedes(rhs.preRelease)
        }
    }

    /// Hashes what `==` compares (trailing zero components and build metadata excluded).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(significantComponents)
        hasher.combine(preRelease)
    }

    /// The components without trailing zeros (`[3, 2]` for `3.2.0`), so `3.2 == 3.2.0`.
    private var significantComponents: ArraySlice<Int> {
        var slice = components[...]
        while slice.last == 0 { slice = slice.dropLast() }
        return slice
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `[0-9A-Za-z-]+`.
    private static func isIdentifier(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
        }
    }
}

/// Why text is not an ``AppVersion`` (thrown by `AppVersion.init(parsing:)`).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum AppVersionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to parse: empty or blank text, a lone `v`, or no numbers before `-`/`+`.
    case empty
    /// A dot-separated component is empty or not made only of ASCII digits (`"1..2"`, `"1.2.x"`).
    case invalidComponent(String)
    /// A number does not fit in `Int`.
    case numberTooLarge(String)
    /// The pre-release part (after `-`) has an empty or invalid identifier, or a numeric
    /// identifier with a leading zero.
    case invalidPreRelease(String)
    /// The build metadata (after `+`) has an empty or invalid identifier.
    case invalidBuildMetadata(String)

    /// A readable description.
    public var description: String {
        switch self {
        case .empty: return "Invalid version: no version number"
        case .invalidComponent(let component): return "Invalid version component \"\(component)\": expected digits"
        case .numberTooLarge(let number): return "Invalid version: \(number) is too large"
        case .invalidPreRelease(let text): return "Invalid pre-release \"\(text)\""
        case .invalidBuildMetadata(let text): return "Invalid build metadata \"\(text)\""
        }
    }
}
