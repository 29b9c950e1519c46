/// The pure operations on a Realtime Database JSON tree, shared by the backends.
///
/// The stored tree is always *normalized*, as Firebase's: no `null` members, no empty objects or
/// arrays (they are absent), no trailing `null` elements in arrays, only finite numbers and valid
/// keys. Arrays are stored as written; a path segment that is a canonical non-negative integer
/// (`"0"`, `"17"`, not `"01"` or `"-1"`) addresses an array element. See
/// <doc:RealtimeDatabaseGuide#Arrays> for how writes through an array behave.
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
    /// Iterative (an explicit stack, not recursion), so any depth of input costs the same call
    /// stack; the depth check stops at the first level past `limits.maximumDepth`.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidValue` for a non-finite number or an invalid
    ///   key, `.pathTooDeep` when an array or object (even empty) would hold members deeper than
    ///   `limits.maximumDepth` below the root, `.keyTooLong` for a key over
    ///   `limits.maximumKeyLength` bytes.
    /// `keysBelow` counts keys added below `path` later (a push ID) toward the depth.
    ///
    /// Server values (`{".sv": "timestamp"}`, `{".sv": {"increment": n}}`, see
    /// ``RealtimeDatabaseServerValue``) are kept as they are (to be sent to a server); any other
    /// `.sv` object is `.invalidValue`.
    package static func normalized(_ value: JSONValue, at path: RealtimeDatabasePath, keysBelow: Int = 0, limits: RealtimeDatabaseLimits = .firebase)
        throws(RealtimeDatabaseError) -> JSONValue
    {
        var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
        return try normalized(value, at: path, keysBelow: keysBelow, limits: limits, placeholders: &placeholders)
    }

    /// `normalized(_:at:keysBelow:limits:)`, listing the server values it kept in
    /// `placeholders` (their keys below `path`), for a backend to resolve them.
    package static func normalized(
        _ value: JSONValue, at path: RealtimeDatabasePath, keysBelow: Int = 0, limits: RealtimeDatabaseLimits = .firebase,
        placeholders: inout [RealtimeDatabaseServerValue.Placeholder]
    ) throws(RealtimeDatabaseError) -> JSONValue {
        /// An array or object being normalized: its members, the next one to visit, and the
        /// normalized members so far.
        enum Frame {
            case array([JSONValue], next: Int, result: [JSONValue])
            case object([String: JSONValue], next: Dictionary<String, JSONValue>.Index, key: String, result: [String: JSONValue])
        }
        var segments = path.segments
        var stack: [Frame] = []
        var pending = value

        /// Checks that a container at `segments` may hold members.
        func checkDepth() throws(RealtimeDatabaseError) {
            let depth = segments.count + keysBelow + 1
            if depth > limits.maximumDepth {
                throw .pathTooDeep(depth: depth, limit: limits.maximumDepth)
            }
        }
        func check(key: String) throws(RealtimeDatabaseError) {
            if let problem = RealtimeDatabasePath.problem(withKey: key) {
                throw .invalidValue(path: describe(segments), reason: "invalid key: \(problem)")
            }
            try RealtimeDatabasePath.checkLength(of: key, limits: limits)
        }

        descending: while true {
            var result: JSONValue
            switch pending {
            case .null, .bool, .string:
                result = pending
            case .number(let number):
                guard number.isFinite else {
                    throw .invalidValue(path: describe(segments), reason: "\(number) is not a finite number")
                }
                result = pending
            case .array(let elements):
                try checkDepth()
                if let first = elements.first {
                    var normalized: [JSONValue] = []
                    normalized.reserveCapacity(elements.count)
                    stack.append(.array(elements, next: 1, result: normalized))
                    segments.append("0")
                    pending = first
                    continue descending
                }
                result = .null
            case .object(let members) where members.count == 1 && members[".sv"] != nil:
                guard let kind = RealtimeDatabaseServerValue.Kind(members[".sv"] ?? .null) else {
                    throw .invalidValue(path: describe(segments), reason: "unsupported server value \(pending.serialized())")
                }
                placeholders.append(RealtimeDatabaseServerValue.Placeholder(keys: Array(segments.dropFirst(path.segments.count)), kind: kind))
                result = pending
            case .object(let members):
                try checkDepth()
                if let (key, member) = members.first.map({ ($0.key, $0.value) }) {
                    try check(key: key)
                    stack.append(.object(members, next: members.index(after: members.startIndex), key: key, result: [:]))
                    segments.append(key)
                    pending = member
                    continue descending
                }
                result = .null
            }
            // `result` is the normalized value at `segments`: hand it to its container.
            while let frame = stack.popLast() {
                segments.removeLast()
                // `consume`: binding `var` members from a live `frame` would share, then copy, them.
                switch consume frame {
                case .array(let elements, let next, var normalized):
                    normalized.append(result)
                    if next < elements.count {
                        stack.append(.array(elements, next: next + 1, result: normalized))
                        segments.append(String(next))
                        pending = elements[next]
                        continue descending
                    }
                    trim(&normalized)
                    result = normalized.isEmpty ? .null : .array(normalized)
                case .object(let members, let next, let key, var normalized):
                    if result != .null { normalized[key] = result }
                    if next != members.endIndex {
                        let (key, member) = members[next]
                        try check(key: key)
                        stack.append(.object(members, next: members.index(after: next), key: key, result: normalized))
                        segments.append(key)
                        pending = member
                        continue descending
                    }
                    result = normalized.isEmpty ? .null : .object(normalized)
                }
            }
            return result
        }
    }

    /// `node` with the normalized `value` stored at `segments` (`.null` deletes and prunes
    /// parents left empty). The result is normalized when `node` is. See `set(_:at:in:)`.
    package static func setting(_ value: JSONValue, at segments: ArraySlice<String>, in node: JSONValue) -> JSONValue {
        var result = node
        set(value, at: segments, in: &result)
        return result
    }

    /// Stores the normalized `value` at `segments` below `root`, in place (`.null` deletes and
    /// prunes parents left empty); `root` stays normalized when it is.
    ///
    /// Iterative, and in place: each container on the path is taken out of its parent while
    /// it changes, so a container not shared with another value (a snapshot still held
    /// elsewhere) is mutated without being copied.
    ///
    /// - Complexity: O(depth) dictionary and array operations (amortized O(1) each) when the
    ///   containers on the path are not shared; a shared one is copied once.
    package static func set(_ value: JSONValue, at segments: ArraySlice<String>, in root: inout JSONValue) {
        /// A container on the path, with the child on the path taken out.
        enum Parent {
            /// An object without `key`.
            case object([String: JSONValue], key: String)
            /// An array whose element `index` is the child (`.null` while out), or `index ==
            /// count` for an element to append.
            case array([JSONValue], index: Int)
            /// A node the write turns into an object (a leaf, or an array asked for a key it
            /// cannot hold): `members` with the child at `key`, unless the child is `.null`,
            /// which leaves `original`.
            case replacing(JSONValue, members: [String: JSONValue], key: String)
        }
        var parents: [Parent] = []
        parents.reserveCapacity(segments.count)
        var node = root
        root = .null  // `node` now holds the only reference the tree had
        for key in segments {
            // `take…()` leave `.null` behind, so the container taken out is uniquely referenced
            // (when nothing else shares it) and changes without a copy.
            if var members = node.takeObject() {
                let child = members.removeValue(forKey: key) ?? .null
                parents.append(.object(members, key: key))
                node = child
            } else if var elements = node.takeArray() {
                if let index = arrayIndex(key), index <= elements.count {
                    var child = JSONValue.null
                    if index < elements.count { swap(&child, &elements[index]) }
                    parents.append(.array(elements, index: index))
                    node = child
                } else {
                    // A key the array cannot hold (a gap or a non-index key): store it the way
                    // Firebase does, as an object keyed by the element indexes.
                    var members: [String: JSONValue] = [:]
                    for (index, element) in elements.enumerated() where element != .null {
                        members[String(index)] = element
                    }
                    parents.append(.replacing(.array(elements), members: members, key: key))
                }
            } else {
                // Nothing, or a leaf: a write below it replaces the leaf with an object.
                parents.append(.replacing(node, members: [:], key: key))
                node = .null
            }
        }
        node = value
        while let parent = parents.popLast() {
            // `consume`: binding `var` members from a live `parent` would share, then copy, them.
            switch consume parent {
            case .object(var members, let key):
                // (Not `members[key] = node == .null ? nil : node`: JSONValue is
                // ExpressibleByNilLiteral, so that `nil` would be stored as `.null`.)
                if node != .null { members[key] = node }
                node = members.isEmpty ? .null : .object(members)
            case .array(var elements, let index):
                if index < elements.count {
                    elements[index] = node
                    trim(&elements)
                } else if node != .null {
                    elements.append(node)
                }
                node = elements.isEmpty ? .null : .array(elements)
            case .replacing(let original, var members, let key):
                if node == .null {
                    node = original  // deleting something absent
                } else {
                    members[key] = node
                    node = .object(members)
                }
            }
        }
        root = node
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

    /// Removes trailing `null` elements.
    ///
    /// (In place: a by-value helper would share the buffer with its caller and copy it.)
    private static func trim(_ elements: inout [JSONValue]) {
        while elements.last == .null { elements.removeLast() }
    }

    private static func describe(_ segments: [String]) -> String {
        "/" + segments.joined(separator: "/")
    }
}

extension JSONValue {
    /// The members of an object, leaving `.null` in their place (`nil`, and no change, for
    /// anything else): the caller then holds the only reference to the storage.
    fileprivate mutating func takeObject() -> [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        self = .null
        return members
    }

    /// The elements of an array, leaving `.null` in their place (`nil`, and no change, for
    /// anything else).
    fileprivate mutating func takeArray() -> [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }
}
