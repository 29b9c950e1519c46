/// Something unexpected that ``GroupCommentsListener`` met and worked around instead of failing.
///
/// Each case says what the listener did instead: a group with a problem is shown with no
/// comments (`[]`), a group the security rules refuse is left out, a user with a problem has no
/// groups. Diagnostics are reported on
/// `GroupCommentsListener.diagnostics`. See <doc:Features-GroupComments>.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum GroupCommentsDiagnostic: Equatable, Sendable, CustomStringConvertible {
    /// The membership list names a group ID that is not a single valid database key (empty, or
    /// containing `/`, `.`, `#`, `$`, `[`, `]` or a control character). The group is shown as
    /// `[]` and is not observed.
    case invalidGroupID(String, reason: String)
    /// The group has no value (`null`). It is shown as `[]`. Firebase stores no empty lists,
    /// so this is also reported when a group's last comment is deleted.
    case groupNotFound(groupID: String)
    /// The group's value is not a list of comments (neither an array of strings nor an object
    /// whose values are all strings). It is shown as `[]` until a valid value arrives.
    case malformedComments(groupID: String, value: JSONValue)
    /// Observing the group failed with an error (for example a `groupsPath` that is not a valid
    /// path). The group is shown as `[]` and not observed again until it leaves the membership
    /// and joins again.
    case groupObservationFailed(groupID: String, reason: String)
    /// The database refused reading the group (`permissionDenied`): the security rules do not
    /// let the user read it, or stopped letting them (the server cancelled the group's listen,
    /// as when an admin removes the user from the group). The group leaves the snapshots (it is
    /// not shown, not even as `[]`; with `listenChanges`, `left` is emitted) and the other groups
    /// keep flowing. It is observed again when a later membership list still names it.
    case groupAccessDenied(groupID: String)
    /// The user (`membership(ofUser:)`) has no value: the membership is empty. Firebase stores no
    /// empty lists, so this is also reported when a user leaves their last group.
    case userNotFound(userID: String)
    /// The user's value is not a list of group IDs (an array of strings, an object whose values
    /// are all strings, or an object whose values are all `true`): the membership is empty
    /// until a valid value arrives.
    case malformedMembership(userID: String, value: JSONValue)
    /// Observing the user failed with an error (for example a user ID or `usersPath` that is not
    /// a valid path): the membership is empty and the membership stream completes.
    case membershipObservationFailed(userID: String, reason: String)

    /// The group concerned, if any.
    public var groupID: String? {
        switch self {
        case .invalidGroupID(let id, _), .groupNotFound(let id), .malformedComments(let id, _), .groupObservationFailed(let id, _),
            .groupAccessDenied(let id):
            return id
        case .userNotFound, .malformedMembership, .membershipObservationFailed:
            return nil
        }
    }

    /// The user concerned, if any.
    public var userID: String? {
        switch self {
        case .userNotFound(let id), .malformedMembership(let id, _), .membershipObservationFailed(let id, _):
            return id
        case .invalidGroupID, .groupNotFound, .malformedComments, .groupObservationFailed, .groupAccessDenied:
            return nil
        }
    }

    /// A readable description.
    public var description: String {
        switch self {
        case .invalidGroupID(let id, let reason):
            return "Invalid group ID \"\(id)\" (\(reason)); shown without comments"
        case .groupNotFound(let id):
            return "Group \"\(id)\" has no value; shown without comments"
        case .malformedComments(let id, let value):
            return "Group \"\(id)\" is not a list of comments (\(value.serialized())); shown without comments"
        case .groupObservationFailed(let id, let reason):
            return "Observing group \"\(id)\" failed: \(reason); shown without comments"
        case .groupAccessDenied(let id):
            return "Reading group \"\(id)\" is not allowed (permission denied); left out"
        case .userNotFound(let id):
            return "User \"\(id)\" has no value; no groups"
        case .malformedMembership(let id, let value):
            return "User \"\(id)\" is not a list of group IDs (\(value.serialized())); no groups"
        case .membershipObservationFailed(let id, let reason):
            return "Observing user \"\(id)\" failed: \(reason); no groups"
        }
    }
}
