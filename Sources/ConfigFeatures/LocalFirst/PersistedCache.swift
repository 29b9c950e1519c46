import Foundation

/// The server data a ``LocalFirstRealtimeDatabase`` cached for its synced locations, in a
/// `RecordLog` (`cache.log`), bounded in bytes with least-recently-used eviction.
///
/// Each synced location is an entry holding the server's whole value there, so the entry is
/// complete: an observer of it, or of a location under it, can be answered from the cache. Records
/// are JSON objects: `{"put": path, "value": v, "used": n}` (the server's value, appended, not
/// synced, on every server change), `{"touch": path, "used": n}` (a location stopped being
/// used) and `{"evict": path}`. An entry's size is its `put` record's size; when the entries
/// pass `maximumSize` bytes, those no one uses (observes or keeps synced) are evicted, least
/// recently used first. The file is rewritten when its dead records pass its live ones (plus 4 KB),
/// so it stays under twice the live bytes and appends are amortized O(record).
struct PersistedCache {
    /// One cached location.
    struct Entry {
        var value: JSONValue
        var size: Int
        /// When it was last used (a clock tick): eviction order.
        var used: UInt64
        /// When its value was written: the order in which entries are applied (a later entry
        /// under an earlier one is newer data).
        var written: UInt64
    }

    let log: RecordLog
    let maximumSize: Int
    private(set) var entries: [RealtimeDatabasePath: Entry] = [:]
    private var users: [RealtimeDatabasePath: Int] = [:]
    private var clock: UInt64 = 0
    private var liveBytes = 0
    private var deadBytes = 0

    init(log: RecordLog, maximumSize: Int) {
        self.log = log
        self.maximumSize = maximumSize
    }

    /// Replays the file's records.
    mutating func restore(_ contents: RecordLog.Contents, limits: RealtimeDatabaseLimits) throws(RealtimeDatabasePersistenceError) {
        var sequence: UInt64 = 0
        defer { clock = max(clock, sequence) }
        for (offset, payload) in contents.records {
            func corrupt(_ reason: String) -> RealtimeDatabasePersistenceError { .corrupt(path: log.url.path, offset: offset, reason: reason) }
            guard case .object(let record)? = try? JSONValue(parsing: Data(payload)) else { throw corrupt("not a JSON object") }
            let (key, text) = record["put"].map { ("put", $0) } ?? record["touch"].map { ("touch", $0) } ?? record["evict"].map { ("evict", $0) } ?? ("", .null)
            guard case .string(let path) = text, let location = try? RealtimeDatabasePath(path, limits: limits) else {
                throw corrupt("not a cache record")
            }
            let used = record["used"]?.numberValue.flatMap(UInt64.init(exactly:)) ?? 0
            clock = max(clock, used)
            switch key {
            case "put":
                guard let value = record["value"] else { throw corrupt("a put record without a value") }
                remove(location)
                sequence += 1
                entries[location] = Entry(value: value, size: payload.count, used: used, written: sequence)
                liveBytes += payload.count
            case "touch":
                entries[location]?.used = used
            default:
                remove(location)
            }
        }
    }

    /// Evicts down to the size limit and rewrites the file with the live entries only.
    mutating func start() throws(RealtimeDatabasePersistenceError) {
        var evicted: [[UInt8]] = []
        evictIfNeeded(into: &evicted)
        try compact()
    }

    /// The entries in the order to apply them (the order their values were written).
    var ordered: [(location: RealtimeDatabasePath, value: JSONValue)] {
        entries.sorted { $0.value.written < $1.value.written }.map { ($0.key, $0.value.value) }
    }

    /// Whether the cache holds the complete data of `location` (an entry at it or above it).
    func isComplete(_ location: RealtimeDatabasePath) -> Bool {
        var path: RealtimeDatabasePath? = location
        while let current = path {
            if entries[current] != nil { return true }
            path = current.parent
        }
        return false
    }

    /// Stores the server's `value` at `location`, a synced location.
    mutating func put(_ value: JSONValue, at location: RealtimeDatabasePath) throws(RealtimeDatabasePersistenceError) {
        clock += 1
        if entries[location]?.value == value {
            // The server sent what is cached (a resubscription): only the use changes.
            entries[location]?.used = clock
            return
        }
        let payload = JSONWriter.write(.object(["put": .string(location.description), "value": value, "used": .number(Double(clock))]), prettyPrinted: false)
        var records = [payload]
        // Entries under it that no one uses hold older copies of part of it.
        for (other, _) in entries where other != location && location.isAncestor(ofOrEqualTo: other) && users[other] == nil {
            records.append(Self.evictRecord(other))
            deadBytes += records[records.count - 1].count
            remove(other)
        }
        remove(location)
        entries[location] = Entry(value: value, size: payload.count, used: clock, written: clock)
        liveBytes += payload.count
        evictIfNeeded(into: &records)
        try log.append(records, sync: false)
        try compactIfNeeded()
    }

    /// Counts a user (an observer or `keepSynced`) of `location` in or out; a location stops
    /// being used, and may be evicted, when its last user goes.
    mutating func use(_ location: RealtimeDatabasePath, _ inUse: Bool) throws(RealtimeDatabasePersistenceError) {
        if inUse {
            users[location, default: 0] += 1
            return
        }
        guard let count = users[location] else { return }
        users[location] = count > 1 ? count - 1 : nil
        guard count == 1, entries[location] != nil else { return }
        clock += 1
        entries[location]?.used = clock
        var records = [JSONWriter.write(.object(["touch": .string(location.description), "used": .number(Double(clock))]), prettyPrinted: false)]
        deadBytes += records[0].count
        evictIfNeeded(into: &records)
        try log.append(records, sync: false)
        try compactIfNeeded()
    }

    private mutating func evictIfNeeded(into records: inout [[UInt8]]) {
        guard liveBytes > maximumSize else { return }
        let candidates = entries.filter { users[$0.key] == nil }.sorted { $0.value.used < $1.value.used }
        for (location, _) in candidates {
            guard liveBytes > maximumSize else { break }
            records.append(Self.evictRecord(location))
            deadBytes += records[records.count - 1].count
            remove(location)
        }
    }

    private mutating func remove(_ location: RealtimeDatabasePath) {
        guard let entry = entries.removeValue(forKey: location) else { return }
        liveBytes -= entry.size
        deadBytes += entry.size
    }

    private static func evictRecord(_ location: RealtimeDatabasePath) -> [UInt8] {
        JSONWriter.write(.object(["evict": .string(location.description)]), prettyPrinted: false)
    }

    private mutating func compactIfNeeded() throws(RealtimeDatabasePersistenceError) {
        if deadBytes > liveBytes + 4096 { try compact() }
    }

    private mutating func compact() throws(RealtimeDatabasePersistenceError) {
        var payloads: [[UInt8]] = []
        liveBytes = 0
        for (location, entry) in entries.sorted(by: { $0.value.written < $1.value.written }) {
            let payload = JSONWriter.write(
                .object(["put": .string(location.description), "value": entry.value, "used": .number(Double(entry.used))]), prettyPrinted: false)
            entries[location]?.size = payload.count
            liveBytes += payload.count
            payloads.append(payload)
        }
        try log.rewrite(payloads)
        deadBytes = 0
    }
}
