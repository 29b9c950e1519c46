/// Which comments of each group the chat-scale ``GroupCommentsListener`` mode follows: the last
/// `limit` in an order (Firebase's `queryOrdered(…).queryLimited(toLast:)`).
///
///     GroupCommentsWindow(last: 50)                            // by push key: creation order
///     GroupCommentsWindow(last: 50, orderedBy: .child("time")) // by a timestamp child
public struct GroupCommentsWindow: Sendable, Hashable {
    /// How a group's comments are ordered.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Order: Sendable, Hashable {
        /// By key (push IDs sort in creation order).
        case key
        /// By the value of a child of each comment, e.g. `"time"` (ties by key).
        case child(String)
    }

    /// How many of the latest comments each group shows.
    public let limit: Int
    /// The order that decides which comments are the latest.
    public let order: Order

    /// The last `limit` comments of each group in `order`.
    public init(last limit: Int, orderedBy order: Order = .key) {
        self.limit = limit
        self.order = order
    }

    /// The query this window reads at a group's path.
    func query(at path: String, in database: RealtimeDatabase) -> RealtimeDatabaseQuery {
        let base = database.query(at: path)
        switch order {
        case .key: return base.orderedByKey().limited(toLast: limit)
        case .child(let child): return base.ordered(byChild: child).limited(toLast: limit)
        }
    }
}

/// One comment of a group in the chat-scale mode: its key in the database and its text.
public struct GroupComment: Sendable, Hashable, CustomStringConvertible {
    /// The comment's key (a push ID, usually).
    public let key: String
    /// The comment's text: the stored string, or the `text` child of a stored object.
    public let text: String

    /// Creates a comment.
    public init(key: String, text: String) {
        self.key = key
        self.text = text
    }

    /// `key: text`.
    public var description: String { "\(key): \(text)" }
}

/// A change to the comments the chat-scale mode shows, for UIs that update rows instead of
/// redrawing (`GroupCommentsListener.listenChanges(_:window:)`).
///
/// Indices are positions in the group's list of comments (oldest first) at the moment the change
/// is applied: apply the changes in the order they come and the list is the window
/// `listen(_:window:)` shows (`apply(to:)` does exactly that).
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum GroupCommentsChange: Sendable, Hashable, CustomStringConvertible {
    /// A group joined the membership (or delivered its first window): its comments, oldest first.
    case joined(groupID: String, comments: [GroupComment])
    /// A group left the membership; its comments are gone.
    case left(groupID: String)
    /// A comment entered the window at `index` (a new comment, or an older one re-entering).
    case inserted(groupID: String, comment: GroupComment, index: Int)
    /// The comment at `index` left the window (deleted, or pushed out by a newer one).
    case removed(groupID: String, comment: GroupComment, index: Int)
    /// The comment at `index` has a new text.
    case updated(groupID: String, comment: GroupComment, index: Int)
    /// A comment moved from `from` to `to` (its order value changed).
    case moved(groupID: String, comment: GroupComment, from: Int, to: Int)

    /// The group the change belongs to.
    public var groupID: String {
        switch self {
        case .joined(let id, _), .left(let id), .inserted(let id, _, _), .removed(let id, _, _), .updated(let id, _, _), .moved(let id, _, _, _):
            return id
        }
    }

    /// Applies the change to `groups` (comments by group ID, oldest first).
    ///
    /// - Returns: `false` (and changes nothing) when the change does not fit `groups`: an unknown
    ///   group, an index out of range, or a comment that is not at the index it names.
    @discardableResult
    public func apply(to groups: inout [String: [GroupComment]]) -> Bool {
        switch self {
        case .joined(let id, let comments):
            groups[id] = comments
            return true
        case .left(let id):
            return groups.removeValue(forKey: id) != nil
        case .inserted(let id, let comment, let index):
            guard var comments = groups[id], (0...comments.count).contains(index) else { return false }
            comments.insert(comment, at: index)
            groups[id] = comments
        case .removed(let id, let comment, let index):
            guard var comments = groups[id], comments.indices.contains(index), comments[index].key == comment.key else { return false }
            comments.remove(at: index)
            groups[id] = comments
        case .updated(let id, let comment, let index):
            guard var comments = groups[id], comments.indices.contains(index), comments[index].key == comment.key else { return false }
            comments[index] = comment
            groups[id] = comments
        case .moved(let id, let comment, let from, let to):
            guard var comments = groups[id], comments.indices.contains(from), comments.indices.contains(to), comments[from].key == comment.key else {
                return false
            }
            comments.remove(at: from)
            comments.insert(comment, at: to)
            groups[id] = comments
        }
        return true
    }

    /// A one-line description, e.g. `inserted group0[49]: -Nx…: hello`.
    public var description: String {
        switch self {
        case .joined(let id, let comments): return "joined \(id): \(comments.count) comment\(comments.count == 1 ? "" : "s")"
        case .left(let id): return "left \(id)"
        case .inserted(let id, let comment, let index): return "inserted \(id)[\(index)]: \(comment)"
        case .removed(let id, let comment, let index): return "removed \(id)[\(index)]: \(comment)"
        case .updated(let id, let comment, let index): return "updated \(id)[\(index)]: \(comment)"
        case .moved(let id, let comment, let from, let to): return "moved \(id)[\(from) -> \(to)]: \(comment)"
        }
    }

    /// The changes that turn `old` into `new` (a group's window before and after one write),
    /// to apply in order: removals, then moves, then insertions, then updates.
    ///
    /// - Complexity: O(w) for the usual change of a chat window of w comments (one comment in,
    ///   one out); O(w²) at worst (many moves).
    public static func changes(in groupID: String, from old: [GroupComment], to new: [GroupComment]) -> [GroupCommentsChange] {
        changes(in: groupID, from: old, to: new, reordered: [])
    }

    /// `changes(in:from:to:)` knowing which comments' order values changed (`reordered`): those
    /// are the ones reported as moved, each put right after its new predecessor, as Firebase
    /// reports `childMoved` for the child whose order changed. Comments whose order value did
    /// not change keep their relative order, so nothing else moves; if `reordered` misses one,
    /// the remaining moves are found by position.
    static func changes(in groupID: String, from old: [GroupComment], to new: [GroupComment], reordered: Set<String>) -> [GroupCommentsChange] {
        if old == new { return [] }
        let newIndex = Dictionary(new.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let oldKeys = Set(old.map(\.key))
        var changes: [GroupCommentsChange] = []
        // 1. Removals, each at its index once the earlier ones are gone.
        var working: [GroupComment] = []
        working.reserveCapacity(max(old.count, new.count))
        for comment in old {
            if newIndex[comment.key] != nil {
                working.append(comment)
            } else {
                changes.append(.removed(groupID: groupID, comment: comment, index: working.count))
            }
        }
        // 2. Moves of the reordered comments, in their new order: each goes right after its
        //    nearest new predecessor among the comments already in place.
        var placed = Set(working.lazy.map(\.key).filter { !reordered.contains($0) })
        for comment in new where reordered.contains(comment.key) && oldKeys.contains(comment.key) {
            guard let from = working.firstIndex(where: { $0.key == comment.key }) else { continue }
            let moving = working.remove(at: from)
            let target = newIndex[comment.key] ?? 0
            let predecessor = new[..<target].last { placed.contains($0.key) }
            let to = predecessor.flatMap { key in working.firstIndex { $0.key == key.key } }.map { $0 + 1 } ?? 0
            working.insert(moving, at: to)
            placed.insert(comment.key)
            if from != to { changes.append(.moved(groupID: groupID, comment: moving, from: from, to: to)) }
        }
        // 3. Insertions in new order, then any move `reordered` did not announce, by position.
        for (index, comment) in new.enumerated() {
            if index < working.count, working[index].key == comment.key { continue }
            if oldKeys.contains(comment.key), let from = working[index...].firstIndex(where: { $0.key == comment.key }) {
                let moving = working.remove(at: from)
                working.insert(moving, at: index)
                changes.append(.moved(groupID: groupID, comment: moving, from: from, to: index))
            } else {
                working.insert(comment, at: index)
                changes.append(.inserted(groupID: groupID, comment: comment, index: index))
            }
        }
        // 4. Updates, at their final indices.
        for (index, comment) in new.enumerated() where working[index].text != comment.text {
            working[index] = comment
            changes.append(.updated(groupID: groupID, comment: comment, index: index))
        }
        return changes
    }
}
