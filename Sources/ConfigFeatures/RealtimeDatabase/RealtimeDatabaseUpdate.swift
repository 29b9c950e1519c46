/// The validation of a multi-path update (`updateChildValues`, REST `PATCH`), shared by every
/// backend so they accept and reject exactly the same updates.
enum RealtimeDatabaseUpdate {
    /// One write of an update: where it goes, its key relative to the updated path in canonical
    /// form (`"/a/b/"` → `"a/b"`), and its normalized value (`.null` deletes).
    struct Write {
        let location: RealtimeDatabasePath
        let relativeKey: String
        let value: JSONValue
        /// The server values kept in `value` (see ``RealtimeDatabaseServerValue``).
        let placeholders: [RealtimeDatabaseServerValue.Placeholder]
    }

    /// The writes of `values` at `pathText`, in `RealtimeDatabaseTree.precedes` order (array
    /// indexes numerically, so appending `"2"` comes before `"10"`).
    ///
    /// - Throws: `RealtimeDatabaseError.invalidPath` (a bad path or key), `.invalidValue`,
    ///   `.invalidUpdate` (an empty key, or a key that is an ancestor of, or equal to, another,
    ///   as Firebase rejects them), `.pathTooDeep` or `.keyTooLong` (past `limits`).
    static func writes(_ values: [String: JSONValue], at pathText: String, limits: RealtimeDatabaseLimits = .firebase) throws -> [Write] {
        let base = try RealtimeDatabasePath(pathText, limits: limits)
        var writes: [Write] = []
        writes.reserveCapacity(values.count)
        for (key, value) in values {
            if key.isEmpty || key == "/" {
                throw RealtimeDatabaseError.invalidUpdate(path: pathText, reason: "empty key")
            }
            let location = try base.child(key, limits: limits)
            var placeholders: [RealtimeDatabaseServerValue.Placeholder] = []
            let normalized = try RealtimeDatabaseTree.normalized(value, at: location, limits: limits, placeholders: &placeholders)
            writes.append(
                Write(
                    location: location,
                    relativeKey: location.segments[base.segments.count...].joined(separator: "/"),
                    value: normalized,
                    placeholders: placeholders
                ))
        }
        writes.sort { RealtimeDatabaseTree.precedes($0.location, $1.location) }
        // In this order a path's descendants directly follow it, so comparing neighbours finds
        // every overlap.
        for (earlier, later) in zip(writes, writes.dropFirst()) where earlier.location.isAncestor(ofOrEqualTo: later.location) {
            throw RealtimeDatabaseError.invalidUpdate(path: pathText, reason: "\"\(earlier.location)\" overlaps \"\(later.location)\"")
        }
        return writes
    }
}
