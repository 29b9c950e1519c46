// TEMPORARY STAND-IN -- the integrator deletes this file when merging the real AppVersion.swift
// (written by another helper). It only has the public shape ForceUpdateViewModel needs:
// numeric components, any count, optional leading "v", surrounding whitespace; no pre-releases.

import Foundation

/// TEMPORARY stand-in for the real `AppVersion` (numeric components only).
public struct AppVersion: Comparable, Hashable, CustomStringConvertible, Sendable {
    private let components: [Int]

    /// Parses `"3.2.1"`, `"v3"`, `" 3.2 "`; `nil` for anything else.
    public init?(_ string: String) {
        var text = Substring(string.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.first == "v" || text.first == "V" { text = text.dropFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty else { return nil }
        var components: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return nil }
            components.append(value)
        }
        self.components = components
    }

    /// The components without trailing zeros (`3.2.0` equals `3.2`).
    private var normalized: ArraySlice<Int> {
        var slice = components[...]
        while slice.count > 1, slice.last == 0 { slice = slice.dropLast() }
        return slice
    }

    /// Component by component, missing components counting as 0.
    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// Equal when equal after padding with zeros.
    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.normalized == rhs.normalized }

    /// Hashes the components without trailing zeros.
    public func hash(into hasher: inout Hasher) { hasher.combine(Array(normalized)) }

    /// The components joined by dots.
    public var description: String { components.map(String.init).joined(separator: ".") }
}
