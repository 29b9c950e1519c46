/// How ``GroupCommentsListener`` reads comments and memberships out of database values.
enum GroupCommentsDecoding {
    /// The comments stored in a group's value, and the diagnostic to report, if any.
    ///
    /// A comment is a string, or an object with a string `text` (`post(_:to:as:)`'s
    /// `{"author", "text", "timestamp"}`).
    ///
    /// - An array: its comments in order; `null` elements (holes left by a deleted element) are
    ///   skipped. Any other element makes the whole value malformed.
    /// - An object whose values are all comments (added with `push`, keyed by push ID): the
    ///   comments ordered by key, as Firebase's `orderByKey` (see `keyPrecedes`).
    /// - `null`: no comments, reported as `groupNotFound`.
    /// - Anything else: no comments, reported as `malformedComments`.
    static func comments(ofGroup groupID: String, in value: JSONValue) -> (comments: [String], diagnostic: GroupCommentsDiagnostic?) {
        switch value {
        case .null:
            return ([], .groupNotFound(groupID: groupID))
        case .array(let elements):
            if let comments = strings(inArray: elements, reading: commentText) { return (comments, nil) }
        case .object(let members):
            if let comments = stringsOrderedByKey(members, reading: commentText) { return (comments, nil) }
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
            if let text = commentText(child.value) {
                comments.append(GroupComment(key: child.key, text: text))
            } else {
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

    /// The text of one comment: a string, or an object with a string `text` child.
    static func commentText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .object(let members):
            if case .string(let text)? = members["text"] { return text }
            return nil
        default: return nil
        }
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// What `reading` finds in each element, `null` holes skipped; `nil` when it finds nothing
    /// in one.
    private static func strings(inArray elements: [JSONValue], reading: (JSONValue) -> String? = string) -> [String]? {
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements where element != .null {
            guard let string = reading(element) else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// What `reading` finds in each member, ordered by key; `nil` when it finds nothing in one.
    private static func stringsOrderedByKey(_ members: [String: JSONValue], reading: (JSONValue) -> String? = string) -> [String]? {
        var entries: [(key: String, value: String)] = []
        entries.reserveCapacity(members.count)
        for (key, member) in members {
            guard let string = reading(member) else { return nil }
            entries.append((key, string))
        }
        return entries.sorted { keyPrecedes($0.key, $1.key) }.map(\.value)
    }
}
