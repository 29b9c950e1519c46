/// The pure operations on a Realtime Database JSON tree, shared by the backends.
///
/// The stored tree is always *normalized*, as Firebase's: no `null` members, no empty objects or
/// arrays (they are absent), no trailing `null` elements in arrays, only finite numbers and valid
/// keys. Arrays are stored as written; a path segment that is a canonical non-negative integer
/// (`"0"`, `"17"`, not `"01"` or `"-1"`) addresses an array element. See the "Arrays" section
/// of `Guides/RealtimeDatabase.md` for how writes through an array behave.
package enum RealtimeDatabaseTree {
    /// The array index `key` denotes, if it is a canonical non-negative integer.
    package static func arrayIndex(_ key: String) -> Int? {
        guard let first = key.utf8.first, key.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if first == 0x30 && key.utf8.count > 1 { return nil }
        return Int(key)
    }

    /// The value at `segments` below `node` (`.null` when absent).
    package static func value(at segments: ArraySlice<String>, in node: JSONValue) -> JSONValue {
        var node = node
        for key in segments {
            switch node {
            case .object(let members):
                node = members[key] ?? .null
            case .array(let elements):
                guard let index = arrayIndex(key), index < elements.count else { return .null }
                node = elements[index]
            default:
                return .null
            }
        }
        return node
    }

    /// Validates `value` and returns its normalized form (nulls and empty containers removed).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidValue` for a non-finite number or an invalid key.
    package static func normalized(_ value: JSONValue, at path: RealtimeDatabasePath) throws -> JSONValue {
        var segments = path.segments
        return try normalized(value, segments: &segments)
    }

    private static func normalized(_ value: JSONValue, segments: inout [String]) throws -> JSONValue {
        switch value {
        case .null, .bool, .string:
            return value
        case .number(let number):
            guard number.isFinite else {
                throw RealtimeDatabaseError.invalidValue(path: describe(segments), reason: "\(number) is not a finite number")
            }
            return value
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                segments.append(String(index))
                defer { segments.removeLast() }
                result.append(try normalized(element, segments: &segments))
            }
            return trimmed(result)
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                if let problem = RealtimeDatabasePath.problem(withKey: key) {
                    throw RealtimeDatabaseError.invalidValue(path: describe(segments), reason: "invalid key: \(problem)")
                }
                segments.append(key)
                defer { segments.removeLast() }
                let child = try normalized(member, segments: &segments)
                if child != .null { result[key] = child }
            }
            return result.isEmpty ? .null : .object(result)
        }
    }

    /// `node` with the normalized `value` stored at `segments` (`.null` deletes and prunes
    /// parents left empty). The result is normalized when `node` is.
    package static func setting(_ value: JSONValue, at segments: ArraySlice<String>, in node: JSONValue) -> JSONValue {
        guard let key = segments.first else { return value }
        let rest = segments.dropFirst()
        switch node {
        case .object(var members):
            let child = setting(value, at: rest, in: members[key] ?? .null)
            // (Not `members[key] = child == .null ? nil : child`: JSONValue is
            // ExpressibleByNilLiteral, so that `nil` would be stored as `.null`.)
            if child == .null {
                members.removeValue(forKey: key)
            } else {
                members[key] = child
            }
            return members.isEmpty ? .null : .object(members)
        case .array(var elements):
            let index = arrayIndex(key)
            if let index, index < elements.count {
                elements[index] = setting(value, at: rest, in: elements[index])
                return trimmed(elements)
            }
            let child = setting(value, at: rest, in: .null)
            if child == .null { return node }  // deleting something absent
            if let index, index == elements.count {
                elements.append(child)
                return .array(elements)
            }
            // A key the array cannot hold (a gap or a non-index key): store it the way
            // Firebase does, as an object keyed by the element indexes.
            var members: [String: JSONValue] = [:]
            for (index, element) in elements.enumerated() where element != .null {
                members[String(index)] = element
            }
            members[key] = child
            return .object(members)
        default:
            // Nothing, or a leaf: a write below it replaces the leaf with an object.
            let child = setting(value, at: rest, in: .null)
            if child == .null { return node }
            return .object([key: child])
        }
    }

    /// Orders paths so that array indexes come before other keys and compare numerically
    /// (so a multi-path update appends `"2"` before `"10"`).
    package static func precedes(_ lhs: RealtimeDatabasePath, _ rhs: RealtimeDatabasePath) -> Bool {
        for (left, right) in zip(lhs.segments, rhs.segments) where left != right {
            switch (arrayIndex(left), arrayIndex(right)) {
            case let (l?, r?): return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left < right
            }
        }
        return lhs.segments.count < rhs.segments.count
    }

    private static func trimmed(_ elements: [JSONValue]) -> JSONValue {
        var elements = elements
        while elements.last == .null { elements.removeLast() }
        return elements.isEmpty ? .null : .array(elements)
    }

    private static func describe(_ segments: [String]) -> String {
        "/" + segments.joined(separator: "/")
    }
}
