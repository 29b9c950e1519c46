import ConfigFeatures
import Foundation

/// The Realtime Database side of the server state.
struct DatabaseState {
    /// The whole tree, normalized as `RealtimeDatabaseTree` keeps it.
    var root: JSONValue = .null
    /// The tokens accepted in `auth=` / `access_token=`; `nil`: no auth required.
    var validTokens: Set<String>?
    /// Tokens revoked with `revokeAuth(_:)`: refused even when no auth is required.
    var revokedTokens: Set<String> = []
    /// The interval of `keep-alive` events on idle streams; `nil`: none.
    var keepAliveInterval: TimeInterval?
    /// The Security Rules; `nil`: none loaded, everything allowed (as the emulator's default).
    var rules: DatabaseRules?
    /// What each open listen was opened as, to cancel it when new rules deny it.
    var rulesListens: [UInt64: RulesListen] = [:]
}

/// A validated write to the tree.
enum DatabaseChange {
    /// Replace the value at a location (`.null` deletes); the value is normalized, with the
    /// server values it holds (resolved by `resolved(in:now:)`).
    case set(RealtimeDatabasePath, JSONValue, [RealtimeDatabaseServerValue.Placeholder] = [])
    /// Set several locations below `base` at once (a multi-path update); the locations are
    /// absolute, don't overlap, and their values are normalized.
    case update(base: RealtimeDatabasePath, [(RealtimeDatabasePath, JSONValue, [RealtimeDatabaseServerValue.Placeholder])])

    /// A `set` of `value` at `path`.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidValue`.
    static func set(_ value: JSONValue, at path: RealtimeDatabasePath) throws -> DatabaseChange {
        var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
        let normalized = try RealtimeDatabaseTree.normalized(value, at: path, placeholders: &placeholders)
        return .set(path, normalized, placeholders)
    }

    /// The change with its server values resolved against `root` at `now`.
    func resolved(in root: JSONValue, now: Date) -> DatabaseChange {
        switch self {
        case .set(let location, var value, let placeholders):
            RealtimeDatabaseServerValue.resolve(placeholders, in: &value, writtenAt: location, root: root, now: now)
            return .set(location, value)
        case .update(let base, let writes):
            return .update(
                base: base,
                writes.map { location, value, placeholders in
                    var value = value
                    RealtimeDatabaseServerValue.resolve(placeholders, in: &value, writtenAt: location, root: root, now: now)
                    return (location, value, [])
                })
        }
    }

    /// A multi-path update of `values` (keys are relative paths, possibly with slashes) at `base`.
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath`, `.invalidValue`, or `.invalidUpdate` for an
    ///   empty or overlapping key.
    static func update(_ values: [String: JSONValue], at base: RealtimeDatabasePath) throws -> DatabaseChange {
        var writes: [(RealtimeDatabasePath, JSONValue, [RealtimeDatabaseServerValue.Placeholder])] = []
        for (key, value) in values {
            if key.isEmpty || key == "/" {
                throw RealtimeDatabaseError.invalidUpdate(path: base.description, reason: "empty key")
            }
            let location = try base.child(key)
            var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
            let normalized = try RealtimeDatabaseTree.normalized(value, at: location, placeholders: &placeholders)
            writes.append((location, normalized, placeholders))
        }
        writes.sort { RealtimeDatabaseTree.precedes($0.0, $1.0) }
        // Sorted this way, a location's descendants follow it directly.
        for (earlier, later) in zip(writes, writes.dropFirst()) where earlier.0.isAncestor(ofOrEqualTo: later.0) {
            throw RealtimeDatabaseError.invalidUpdate(path: base.description, reason: "\"\(earlier.0)\" overlaps \"\(later.0)\"")
        }
        return .update(base: base, writes)
    }

    /// The tree after the change.
    func applied(to root: JSONValue) -> JSONValue {
        switch self {
        case .set(let location, let value, _):
            return RealtimeDatabaseTree.setting(value, at: location.segments[...], in: root)
        case .update(_, let writes):
            var root = root
            for (location, value, _) in writes {
                root = RealtimeDatabaseTree.setting(value, at: location.segments[...], in: root)
            }
            return root
        }
    }

    /// The SSE event a stream of `location` receives for this change, `nil` when its value did
    /// not change. Paths in events are relative to `location`.
    ///
    /// - A write at or below the location: `put` (or `patch` for an update) at the write's
    ///   relative path, with the written data.
    /// - A write above the location (or an update with a key at or above it): `put` at `/`
    ///   with the location's new value.
    /// - An update whose base is above the location but some keys below it: `patch` at `/`
    ///   with those keys, made relative.
    func event(forStreamAt location: RealtimeDatabasePath, old: JSONValue, new: JSONValue) -> Data? {
        let newValue = RealtimeDatabaseTree.value(at: location.segments[...], in: new)
        guard RealtimeDatabaseTree.value(at: location.segments[...], in: old) != newValue else { return nil }
        switch self {
        case .set(let written, let value, _):
            if location.isAncestor(ofOrEqualTo: written) {
                return ServerSentEvents.change("put", path: Self.relative(written, to: location), data: value)
            }
            return ServerSentEvents.change("put", path: "/", data: newValue)
        case .update(let base, let writes):
            if writes.contains(where: { $0.0.isAncestor(ofOrEqualTo: location) }) {
                return ServerSentEvents.change("put", path: "/", data: newValue)
            }
            if location.isAncestor(ofOrEqualTo: base) {
                var members: [String: JSONValue] = [:]
                for (written, value, _) in writes { members[Self.relativeKey(written, to: base)] = value }
                return ServerSentEvents.change("patch", path: Self.relative(base, to: location), data: .object(members))
            }
            var members: [String: JSONValue] = [:]
            for (written, value, _) in writes where location.isAncestor(ofOrEqualTo: written) {
                members[Self.relativeKey(written, to: location)] = value
            }
            return ServerSentEvents.change("patch", path: "/", data: .object(members))
        }
    }

    /// `/`-prefixed path of `path` below `ancestor` (`/` for the same location).
    static func relative(_ path: RealtimeDatabasePath, to ancestor: RealtimeDatabasePath) -> String {
        "/" + relativeKey(path, to: ancestor)
    }

    /// The slash-joined keys of `path` below `ancestor`.
    static func relativeKey(_ path: RealtimeDatabasePath, to ancestor: RealtimeDatabasePath) -> String {
        path.segments.dropFirst(ancestor.segments.count).joined(separator: "/")
    }
}

extension ServerState {
    /// Applies `change` (its server values resolved at `now`, the instant the rules checked it
    /// at) and queues the resulting event on every affected database stream; returns the change
    /// as applied.
    @discardableResult
    mutating func apply(_ change: DatabaseChange, at now: Date, _ effects: inout Effects) -> DatabaseChange {
        let old = database.root
        let change = change.resolved(in: old, now: now)
        let new = change.applied(to: old)
        guard new != old else { return change }
        database.root = new
        for id in openStreamIDs(.database) {
            guard case .database(let location, _, let query)? = streams[id]?.kind else { continue }
            if let query {
                // A query's stream gets its whole new selection when that changed.
                let before = query.result(of: RealtimeDatabaseTree.value(at: location.segments[...], in: old))
                let after = query.result(of: RealtimeDatabaseTree.value(at: location.segments[...], in: new))
                if before != after { enqueue(ServerSentEvents.change("put", path: "/", data: after), onStream: id, &effects) }
                continue
            }
            guard let event = change.event(forStreamAt: location, old: old, new: new) else { continue }
            enqueue(event, onStream: id, &effects)
        }
        // Rules may read other data (`root`): a listen the new data no longer allows is cancelled.
        if database.rules != nil { cancelDeniedListens(now: now, &effects) }
        return change
    }

    /// The value at `location`.
    func databaseValue(at location: RealtimeDatabasePath) -> JSONValue {
        RealtimeDatabaseTree.value(at: location.segments[...], in: database.root)
    }
}
