// Fuzzes Realtime Database paths: `RealtimeDatabasePath.init(_:)` and `child(_:)` (public),
// and a write and read at the path in a fresh `InMemoryRealtimeDatabase` (public), which
// walks the tree segment by segment.
//
// Input: the path text, optionally followed by a zero byte and a relative child path.
// Checks: a parsed path reads back from its `description`; a child is below its parent; a
// value written at a valid path reads back, and is gone after `removeValue`.
import ConfigFeatures
import FuzzSupport
import StreamsTest

let scheduler = TestScheduler(initialClock: 0)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let parts = input.parts(2)
    let text = String(decoding: parts[0], as: UTF8.self)
    let childText = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil

    let path: RealtimeDatabasePath
    do {
        path = try RealtimeDatabasePath(text)
    } catch {
        require(error is RealtimeDatabaseError, "foreign error \(error)")
        _ = "\(error)"
        return 0
    }
    require((try? RealtimeDatabasePath(path.description)) == path, "\(path) does not read back from its description")
    require(path.isRoot == path.segments.isEmpty, "isRoot")
    require(path.key == path.segments.last, "key")
    if let parent = path.parent {
        require(parent.isAncestor(ofOrEqualTo: path), "parent is not an ancestor")
        require(parent.segments.count + 1 == path.segments.count, "parent depth")
    }
    if let childText, let child = try? path.child(childText) {
        require(path.isAncestor(ofOrEqualTo: child), "child \(child) is not below \(path)")
    }

    let database = InMemoryRealtimeDatabase(scheduler: scheduler)
    do {
        try database.setValue(["value": "fuzz"], at: text)
        let written = try database.value(at: text)
        require(written == ["value": "fuzz"], "value at \(path) does not read back: \(written)")
        let root = try database.value(at: "/")
        require(root != .null, "root empty after a write at \(path)")
        try database.removeValue(at: text)
        let removed = try database.value(at: "/")
        require(removed == .null, "tree not empty after removing \(path): \(removed)")
    } catch RealtimeDatabaseError.pathTooDeep, RealtimeDatabaseError.keyTooLong {
        // The database enforces Firebase's limits (32 levels, 768-byte keys) on the path plus
        // the written value's own key, which a path's syntax alone does not.
        return 0
    } catch {
        require(false, "valid path \(path) rejected by the database: \(error)")
    }
    return 0
}
