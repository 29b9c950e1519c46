import XCTest
import ConfigFeatures
import StreamsTest

final class RealtimeDatabaseStreamTreeTests: XCTestCase {
    private func path(_ text: String) throws -> RealtimeDatabasePath { try RealtimeDatabasePath(text) }

    /// A tree that received `snapshot` as its first event.
    private func tree(_ snapshot: JSONValue) throws -> RealtimeDatabaseStreamTree {
        var tree = RealtimeDatabaseStreamTree()
        XCTAssertTrue(try tree.apply(.put(path: .root, data: snapshot)))
        return tree
    }

    private func put(_ tree: inout RealtimeDatabaseStreamTree, _ pathText: String, _ data: JSONValue) throws -> Bool {
        try tree.apply(.put(path: try path(pathText), data: data))
    }

    func testRealtimeDatabaseStreamTree_firstRootPutIsTheSnapshotEvenWhenNull() throws {
        var tree = RealtimeDatabaseStreamTree()
        XCTAssertFalse(tree.hasSnapshot)
        XCTAssertEqual(tree.value, nil)
        XCTAssertTrue(try tree.apply(.put(path: .root, data: nil)), "the first snapshot is delivered even when null")
        XCTAssertTrue(tree.hasSnapshot)
        XCTAssertEqual(tree.value, nil)
        XCTAssertFalse(try tree.apply(.put(path: .root, data: nil)), "the same again: no change")
        XCTAssertTrue(try tree.apply(.put(path: .root, data: ["a": 1])))
        XCTAssertEqual(tree.value, ["a": 1])
    }

    func testRealtimeDatabaseStreamTree_aReconnectionsEqualSnapshotReportsNoChange() throws {
        var tree = try tree(["a": ["b": 1], "c": "x"])
        XCTAssertFalse(try tree.apply(.put(path: .root, data: ["c": "x", "a": ["b": 1]])))
        XCTAssertTrue(try tree.apply(.put(path: .root, data: ["c": "y"])))
        XCTAssertEqual(tree.value, ["c": "y"])
    }

    func testRealtimeDatabaseStreamTree_snapshotIsNormalized() throws {
        let tree = try tree(["a": nil, "b": [:], "c": [], "d": ["e": nil], "f": [1, nil, 2, nil, nil], "g": 1])
        XCTAssertEqual(tree.value, ["f": [1, nil, 2], "g": 1])
    }

    func testRealtimeDatabaseStreamTree_nestedPutReplacesTheNode() throws {
        var tree = try tree(["a": ["b": 1, "c": 2], "d": true])
        XCTAssertTrue(try put(&tree, "/a/b", ["x": "y"]))
        XCTAssertEqual(tree.value, ["a": ["b": ["x": "y"], "c": 2], "d": true])
        XCTAssertTrue(try put(&tree, "/a", "leaf"))
        XCTAssertEqual(tree.value, ["a": "leaf", "d": true])
        XCTAssertTrue(try put(&tree, "/a/deep/er", 5), "a write below a leaf replaces it")
        XCTAssertEqual(tree.value, ["a": ["deep": ["er": 5]], "d": true])
        XCTAssertEqual(tree.value(at: try path("a/deep")), ["er": 5])
        XCTAssertEqual(tree.value(at: try path("nope/x")), nil)
    }

    func testRealtimeDatabaseStreamTree_samePutReportsNoChange() throws {
        var tree = try tree(["a": ["b": 1]])
        XCTAssertFalse(try put(&tree, "/a/b", 1))
        XCTAssertFalse(try put(&tree, "/a", ["b": 1]))
        XCTAssertFalse(try put(&tree, "/x", nil), "deleting something absent")
        XCTAssertFalse(try put(&tree, "/x", ["y": nil]), "normalizes to null")
        XCTAssertEqual(tree.value, ["a": ["b": 1]])
    }

    func testRealtimeDatabaseStreamTree_nullDeletesAndPrunesEmptyParents() throws {
        var tree = try tree(["a": ["b": ["c": 1]], "d": 2])
        XCTAssertTrue(try put(&tree, "/a/b/c", nil))
        XCTAssertEqual(tree.value, ["d": 2])
        XCTAssertTrue(try put(&tree, "/d", nil))
        XCTAssertEqual(tree.value, nil)
        XCTAssertTrue(tree.hasSnapshot)
    }

    func testRealtimeDatabaseStreamTree_patchReplacesEachChildAtOnce() throws {
        var tree = try tree(["g": ["a": 1, "b": ["c": 2, "d": 3], "e": 4]])
        XCTAssertTrue(try tree.apply(.patch(path: try path("g"), data: ["a": 10, "b/c": nil, "/f/h/": "new", "e": ["x": nil]])))
        XCTAssertEqual(tree.value, ["g": ["a": 10, "b": ["d": 3], "f": ["h": "new"]]])
        XCTAssertFalse(try tree.apply(.patch(path: try path("g"), data: ["a": 10, "zz": nil])), "nothing differs")
        XCTAssertFalse(try tree.apply(.patch(path: .root, data: [:])))
        XCTAssertTrue(try tree.apply(.patch(path: .root, data: ["g": nil, "k": 1])))
        XCTAssertEqual(tree.value, ["k": 1])
    }

    func testRealtimeDatabaseStreamTree_patchKeysThatAreNotPathsThrowWithoutChangingTheTree() throws {
        var tree = try tree(["a": 1])
        for key in ["", "/", "a//b", "a.b"] {
            XCTAssertThrowsError(try tree.apply(.patch(path: .root, data: ["ok": 2, key: 3])), key) { error in
                guard case .invalidResponse? = error as? FirebaseRESTDatabaseError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(tree.value, ["a": 1])
    }

    func testRealtimeDatabaseStreamTree_invalidKeysInDataThrowWithoutChangingTheTree() throws {
        var tree = try tree(["a": 1])
        XCTAssertThrowsError(try put(&tree, "/b", ["bad.key": 1]))
        XCTAssertThrowsError(try tree.apply(.patch(path: .root, data: ["b": ["x/y": 1]])))
        XCTAssertThrowsError(try tree.apply(.put(path: .root, data: ["$a": 1])))
        XCTAssertEqual(tree.value, ["a": 1])
    }

    func testRealtimeDatabaseStreamTree_eventsBeforeTheSnapshotAreMergedButNotReported() throws {
        var tree = RealtimeDatabaseStreamTree()
        XCTAssertFalse(try put(&tree, "/a", 1))
        XCTAssertFalse(try tree.apply(.patch(path: .root, data: ["b": 2])))
        XCTAssertEqual(tree.value, ["a": 1, "b": 2])
        XCTAssertFalse(tree.hasSnapshot)
        XCTAssertTrue(try tree.apply(.put(path: .root, data: ["a": 1, "b": 2])), "the snapshot is delivered even if equal")
    }

    func testRealtimeDatabaseStreamTree_controlEventsChangeNothing() throws {
        var tree = try tree(["a": 1])
        XCTAssertFalse(try tree.apply(.keepAlive))
        XCTAssertFalse(try tree.apply(.cancel(reason: "denied")))
        XCTAssertFalse(try tree.apply(.authRevoked(reason: nil)))
        XCTAssertEqual(tree.value, ["a": 1])
    }

    // MARK: - Arrays (as RealtimeDatabaseTree stores them)

    func testRealtimeDatabaseStreamTree_arraysAppendReplaceAndTrim() throws {
        var tree = try tree(["list": ["a", "b"]])
        XCTAssertTrue(try put(&tree, "/list/2", "c"))
        XCTAssertEqual(tree.value, ["list": ["a", "b", "c"]])
        XCTAssertTrue(try put(&tree, "/list/1", "B"))
        XCTAssertEqual(tree.value, ["list": ["a", "B", "c"]])
        XCTAssertTrue(try put(&tree, "/list/2", nil))
        XCTAssertEqual(tree.value, ["list": ["a", "B"]], "a trailing delete trims the array")
        XCTAssertTrue(try put(&tree, "/list/0", nil))
        XCTAssertEqual(tree.value, ["list": [nil, "B"]], "an inner delete leaves a hole")
        XCTAssertEqual(tree.value(at: try path("list/1")), "B")
        XCTAssertTrue(try put(&tree, "/list/1", nil))
        XCTAssertEqual(tree.value, nil, "an array of holes is empty and pruned")
    }

    func testRealtimeDatabaseStreamTree_aGapOrANonIndexKeyTurnsTheArrayIntoAnObject() throws {
        var tree = try tree(["list": ["a", "b"]])
        XCTAssertTrue(try put(&tree, "/list/5", "f"))
        XCTAssertEqual(tree.value, ["list": ["0": "a", "1": "b", "5": "f"]])
        var other = try self.tree(["list": ["a"]])
        XCTAssertTrue(try put(&other, "/list/name", "x"))
        XCTAssertEqual(other.value, ["list": ["0": "a", "name": "x"]])
        var leading = try self.tree(["list": ["a"]])
        XCTAssertFalse(try put(&leading, "/list/01", nil), "\"01\" is not an index: deleting it changes nothing")
    }

    func testRealtimeDatabaseStreamTree_patchAppendsIndexesInNumericOrder() throws {
        var tree = try tree(["list": ["a", "b"]])
        XCTAssertTrue(try tree.apply(.patch(path: try path("list"), data: ["3": "d", "2": "c"])))
        XCTAssertEqual(tree.value, ["list": ["a", "b", "c", "d"]])
    }

    func testRealtimeDatabaseStreamTree_matchesTheInMemoryDatabase() throws {
        // The same writes through InMemoryRealtimeDatabase and through stream events give the
        // same tree.
        let database = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))
        var tree = try tree(nil)
        let writes: [(String, JSONValue)] = [
            ("/", ["list": ["a", "b"], "m": ["x": 1]]),
            ("/list/2", "c"),
            ("/list/0", nil),
            ("/m/y/z", true),
            ("/list/7", "h"),
            ("/m/x", nil),
        ]
        for (pathText, value) in writes {
            try database.setValue(value, at: pathText)
            try tree.apply(.put(path: try path(pathText), data: value))
            XCTAssertEqual(tree.value, try database.value(at: "/"), pathText)
        }
        try database.updateChildValues(["list/8": "i", "m/y": nil, "n": [1]], at: "/")
        try tree.apply(.patch(path: .root, data: ["list/8": "i", "m/y": nil, "n": [1]]))
        XCTAssertEqual(tree.value, try database.value(at: "/"))
    }
}
