/// How ``GroupCommentsListener`` reads comments and memberships out of database values.
enum GroupCommentsDecoding {
    /// The comments stored in a group's value, and the diagnostic to report, if any.
    ///
    /// - An array: its strings in order; `null` elements (holes left by a deleted element) are
    ///   skipped. Any other element makes the whole value malformed.
    /// - An object whose values are all strings (comments added with `push`, keyed by push ID):
    ///   the strings ordered by key, as Firebase's `orderByKey` (see `keyPrecedes`).
    /// - `null`: no comments, reported as `groupNotFound`.
    /// - Anything else: no comments, reported as `malformedComments`.
    static func comments(ofGroup groupID: String, in value: JSONValue) -> (comments: [String], diagnostic: GroupCommentsDiagnostic?) {
        switch value {
        case .null:
            return ([], .groupNotFound(groupID: groupID))
        case .array(let elements):
            if let strings = strings(inArray: elements) { return (strings, nil) }
        case .object(let members):
            if let strings = stringsOrderedByKey(members) { return (strings, nil) }
        default:
            break
        }
        return ([], .malformedComments(groupID: groupID, value: value))
    }

    /// The comments of a group's window (the children of its window query, in order), and the
    /// diagnostics to report: a child that is a string is a comment; so is an object with a
    /// string `text` child (`{"text": "hi", "time": 1700000000000}`). Any other child is left
    /// out and reported as `malformedComments` with its value.
    static func comments(ofGroup groupID: String, inWindow children: [RealtimeDatabaseChild]) -> (
        comments: [GroupComment], diagnostics: [GroupCommentsDiagnostic]
    ) {
        var comments: [GroupComment] = []
        comments.reserveCapacity(children.count)
        var diagnostics: [GroupCommentsDiagnostic] = []
        for child in children {
            switch child.value {
            case .string(let text):
                comments.append(GroupComment(key: child.key, text: text))
            case .object(let members):
                if case .string(let text)? = members["text"] {
                    comments.append(GroupComment(key: child.key, text: text))
                } else {
                    diagnostics.append(.malformedComments(groupID: groupID, value: child.value))
                }
            default:
                diagnostics.append(.malformedComments(groupID: groupID, value: child.value))
            }
        }
        return (comments, diagnostics)
    }

    /// The group IDs stored in a user's value, and the diagnostic to report, if any.
    ///
    /// Accepts an array of strings (`null` holes skipped), an object whose values are all strings
    /// (IDs added with `push`, ordered by key), or an object whose values are all `true`
    /// (Firebase's recommended `{"group0": true}` index; the keys, ordered). `null` is an empty
    /// membership reported as `userNotFound`; anything else an empty one reported as
    /// `malformedMembership`.
    static func groupIDs(ofUser userID: String, in value: JSONValue) -> (groupIDs: [String], diagnostic: GroupCommentsDiagnostic?) {
        switch value {
        case .null:
            return ([], .userNotFound(userID: userID))
        case .array(let elements):
            if let strings = strings(inArray: elements) { return (strings, nil) }
        case .object(let members):
            if let strings = stringsOrderedByKey(members) { return (strings, nil) }
            if !members.isEmpty, members.values.allSatisfy({ $0 == .bool(true) }) {
                return (members.keys.sorted(by: keyPrecedes), nil)
            }
        default:
            break
        }
        return ([], .malformedMembership(userID: userID, value: value))
    }

    /// Why `groupID` cannot be a group's key (one valid path segment), or `nil` when it can.
    static func problem(withGroupID groupID: String) -> String? {
        if groupID.isEmpty { return "empty" }
        do {
            let path = try RealtimeDatabasePath(groupID)
            return path.segments == [groupID] ? nil : "contains \"/\""
        } catch RealtimeDatabaseError.invalidPath(_, let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    /// The path of the group `groupID` below `groupsPath`.
    static func path(ofGroup groupID: String, below groupsPath: String) -> String {
        groupsPath.hasSuffix("/") ? groupsPath + groupID : groupsPath + "/" + groupID
    }

    /// Firebase's `orderByKey`: keys that are canonical 32-bit integers first, numerically, then
    /// the other keys in byte order. (Push IDs are in creation order under this order.)
    static func keyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        switch (integerKey(lhs), integerKey(rhs)) {
        case let (l?, r?): return l < r
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }
    }

    private static func integerKey(_ key: String) -> Int32? {
        guard let number = Int32(key), String(number) == key else { return nil }
        return number
    }

    private static func strings(inArray elements: [JSONValue]) -> [String]? {
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .string(let string): strings.append(string)
            case .null: continue
            default: return nil
            }
        }
        return strings
    }

    private static func stringsOrderedByKey(_ members: [String: JSONValue]) -> [String]? {
        var entries: [(key: String, value: String)] = []
        entries.reserveCapacity(members.count)
        for (key, member) in members {
            guard case .string(let string) = member else { return nil }
            entries.append((key, string))
        }
        return entries.sorted { keyPrecedes($0.key, $1.key) }.map(\.value)
    }
}
