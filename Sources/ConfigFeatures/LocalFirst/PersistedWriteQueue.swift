import Foundation

/// The writes of a ``LocalFirstRealtimeDatabase`` not yet acknowledged, in a `RecordLog`
/// (`writes.log`): one synced record per write issued, one per write settled.
///
/// Records are JSON objects: `{"add": id, "at": seconds, "path": p, "set": v}` (or `"update":
/// {…}`, or `"remove": true`), and `{"done": id}`. Issuing a write costs its record plus one
/// `fsync`; settling one costs a small record (not synced: if it is lost in a crash the write is
/// sent again, which is idempotent). The file is rewritten (compacted) when settled records pass
/// 64 and the pending ones, so it stays O(pending writes) and the rewrite is amortized O(1).
struct PersistedWriteQueue {
    /// A write read back from the file.
    struct Restored {
        let write: RealtimeDatabaseWrite
        /// When it was issued (what its server values resolve with).
        let issuedAt: Date
        /// Its record's offset, for errors.
        let offset: Int
    }

    let log: RecordLog
    /// The pending writes' records by id (ids grow in the order issued).
    private var records: [UInt64: [UInt8]] = [:]
    private var settledCount = 0

    init(log: RecordLog) {
        self.log = log
    }

    /// The pending writes of the file, in the order issued.
    static func restore(_ contents: RecordLog.Contents, path: String, limits: RealtimeDatabaseLimits) throws(RealtimeDatabasePersistenceError) -> [Restored] {
        var pending: [(id: UInt64, write: Restored)] = []
        for (offset, payload) in contents.records {
            func corrupt(_ reason: String) -> RealtimeDatabasePersistenceError { .corrupt(path: path, offset: offset, reason: reason) }
            guard case .object(let record)? = try? JSONValue(parsing: Data(payload)) else { throw corrupt("not a JSON object") }
            if let done = record["done"] {
                guard let id = done.numberValue.flatMap(UInt64.init(exactly:)) else { throw corrupt("a done record without a valid id") }
                pending.removeAll { $0.id == id }
                continue
            }
            guard let id = record["add"]?.numberValue.flatMap(UInt64.init(exactly:)), case .number(let seconds)? = record["at"],
                case .string(let path)? = record["path"], (try? RealtimeDatabasePath(path, limits: limits)) != nil
            else { throw corrupt("not a write record") }
            let write: RealtimeDatabaseWrite
            if let value = record["set"] {
                write = .setValue(value, at: path)
            } else if case .object(let values)? = record["update"] {
                write = .updateChildValues(values, at: path)
            } else if record["remove"] != nil {
                write = .removeValue(at: path)
            } else {
                throw corrupt("a write record without set, update or remove")
            }
            pending.append((id, Restored(write: write, issuedAt: Date(timeIntervalSince1970: seconds), offset: offset)))
        }
        return pending.map(\.write)
    }

    /// Rewrites the file with `writes`, numbered from 0 (the ids the database gives them again).
    mutating func start(with writes: [Restored]) throws(RealtimeDatabasePersistenceError) {
        records = [:]
        settledCount = 0
        for (index, restored) in writes.enumerated() {
            records[UInt64(index)] = Self.payload(id: UInt64(index), write: restored.write, issuedAt: restored.issuedAt)
        }
        try rewrite()
    }

    /// Records write `id` durably (appended and synced) before it is sent.
    mutating func add(id: UInt64, write: RealtimeDatabaseWrite, issuedAt: Date) throws(RealtimeDatabasePersistenceError) {
        let payload = Self.payload(id: id, write: write, issuedAt: issuedAt)
        try log.append([payload], sync: true)
        records[id] = payload
    }

    /// Records that write `id` was acknowledged or rejected, compacting the file when it is
    /// mostly settled records.
    mutating func settle(id: UInt64) throws(RealtimeDatabasePersistenceError) {
        guard records.removeValue(forKey: id) != nil else { return }
        settledCount += 1
        if settledCount > max(64, records.count) {
            try rewrite()
        } else {
            // Not synced: losing it in a crash only sends the write again, which is idempotent.
            try log.append([JSONWriter.write(.object(["done": .number(Double(id))]), prettyPrinted: false)], sync: false)
        }
    }

    /// Rewrites the file with the pending writes only, in the order issued.
    private mutating func rewrite() throws(RealtimeDatabasePersistenceError) {
        try log.rewrite(records.sorted { $0.key < $1.key }.map(\.value))
        settledCount = 0
    }

    private static func payload(id: UInt64, write: RealtimeDatabaseWrite, issuedAt: Date) -> [UInt8] {
        var record: [String: JSONValue] = [
            "add": .number(Double(id)), "at": .number(issuedAt.timeIntervalSince1970), "path": .string(write.path),
        ]
        switch write {
        case .setValue(let value, _): record["set"] = value
        case .updateChildValues(let values, _): record["update"] = .object(values)
        case .removeValue: record["remove"] = .bool(true)
        }
        return JSONWriter.write(.object(record), prettyPrinted: false)
    }
}
