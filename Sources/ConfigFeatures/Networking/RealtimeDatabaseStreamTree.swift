/// The local copy of a streamed Realtime Database location, kept up to date by applying the
/// stream's `put` and `patch` events.
///
/// The value is normalized as `RealtimeDatabaseTree` stores values (no nulls, no empty
/// containers, arrays as written, writes through arrays as ``InMemoryRealtimeDatabase`` does):
/// a `put` replaces the node at its path (`null` deletes it and prunes parents left empty), a
/// `patch` replaces each listed child at once. `apply` reports whether observers should be told,
/// so a value is delivered once when the first snapshot arrives and then only when it changes
/// (a reconnection's fresh snapshot equal to the current value emits nothing).
package struct RealtimeDatabaseStreamTree: Sendable, Hashable {
    /// The value of the streamed location (`.null` when absent or before the first snapshot).
    package private(set) var value: JSONValue = .null
    /// Whether the first full snapshot (a `put` at `/`) has arrived.
    package private(set) var hasSnapshot = false
    /// The streamed location (event paths are relative to it): counts toward the depth limit.
    package let location: RealtimeDatabasePath
    /// The limits the received data is checked against.
    package let limits: RealtimeDatabaseLimits

    /// Creates an empty tree of `location` waiting for its first snapshot.
    package init(location: RealtimeDatabasePath = .root, limits: RealtimeDatabaseLimits = .firebase) {
        self.location = location
        self.limits = limits
    }

    /// The value at `path` below the streamed location (`.null` when absent).
    package func value(at path: RealtimeDatabasePath) -> JSONValue {
        RealtimeDatabaseTree.value(at: path.segments[...], in: value)
    }

    /// Applies `event` and returns whether observers should receive the new `value`: `true` for
    /// the first snapshot (even `null`) and, after it, for every change. Events before the first
    /// snapshot are merged but report `false`; `keepAlive`, `cancel` and `authRevoked` change
    /// nothing.
    ///
    /// - Throws: `FirebaseRESTDatabaseError.invalidResponse` when the data cannot be stored (an
    ///   invalid key or path), `RealtimeDatabaseError.pathTooDeep` or `.keyTooLong` when it
    ///   breaks `limits` (counting the depth of `location`); the tree is unchanged then.
    @discardableResult
    package mutating func apply(_ event: RealtimeDatabaseStreamEvent) throws -> Bool {
        switch event {
        case .put(let path, let data):
            let isSnapshot = path.isRoot
            let changed = write([(path, try normalized(data, at: path))])
            if isSnapshot && !hasSnapshot {
                hasSnapshot = true
                return true
            }
            return hasSnapshot && changed
        case .patch(let path, let children):
            var writes: [(RealtimeDatabasePath, JSONValue)] = []
            for (key, child) in children {
                let location: RealtimeDatabasePath
                do {
                    guard !key.isEmpty, key != "/" else { throw RealtimeDatabaseError.invalidPath(key, reason: "empty key") }
                    location = try path.child(key, limits: limits)
                } catch let error as RealtimeDatabaseError {
                    if case .invalidPath = error {
                        throw FirebaseRESTDatabaseError.invalidResponse(message: "patch key \"\(key)\" is not a valid path")
                    }
                    throw error
                }
                writes.append((location, try normalized(child, at: location)))
            }
            // Array indexes in numeric order, so that appending "2" comes before "10".
            writes.sort { RealtimeDatabaseTree.precedes($0.0, $1.0) }
            return write(writes) && hasSnapshot
        case .keepAlive, .cancel, .authRevoked:
            return false
        }
    }

    /// Stores normalized `writes` in order; whether the value changed.
    private mutating func write(_ writes: [(RealtimeDatabasePath, JSONValue)]) -> Bool {
        var changed = false
        for (location, data) in writes {
            if RealtimeDatabaseTree.value(at: location.segments[...], in: value) == data { continue }
            RealtimeDatabaseTree.set(data, at: location.segments[...], in: &value)
            changed = true
        }
        return changed
    }

    /// `data` normalized for `path` (relative to `location`), checked against `limits`.
    private func normalized(_ data: JSONValue, at path: RealtimeDatabasePath) throws -> JSONValue {
        let absolute = RealtimeDatabasePath(validSegments: location.segments + path.segments)
        if absolute.depth > limits.maximumDepth {
            throw RealtimeDatabaseError.pathTooDeep(depth: absolute.depth, limit: limits.maximumDepth)
        }
        do {
            return try RealtimeDatabaseTree.normalized(data, at: absolute, limits: limits)
        } catch .invalidValue(let path, let reason) {
            throw FirebaseRESTDatabaseError.invalidResponse(message: "\(RealtimeDatabaseError.invalidValue(path: path, reason: reason))")
        }
    }
}
