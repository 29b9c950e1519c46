import XCTest
import ConfigFeatures

/// Queries evaluated on values: Firebase's ordering rules, ranges, limits and validation.
final class RealtimeDatabaseQueryTests: XCTestCase {
    private let base = RealtimeDatabaseQuery(path: "g")

    private func keys(_ query: RealtimeDatabaseQuery, _ value: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            return try query.children(of: value).map(\.key)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return []
        }
    }

    private func reason(_ query: RealtimeDatabaseQuery, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            try query.validate()
            XCTFail("\(query) was accepted", file: file, line: line)
            return nil
        } catch {
            guard case .invalidQuery(_, let reason) = error else {
                XCTFail("unexpected error \(error)", file: file, line: line)
                return nil
            }
            return reason
        }
    }

    // MARK: - Key order

    func testKeyOrder_int32KeysFirstNumericallyThenTheRestByUTF16() {
        let value: JSONValue = .object(
            Dictionary(
                uniqueKeysWithValues: [
                    "b", "a", "10", "9", "-3", "007", "2147483647", "2147483648", "-2147483648", "-2147483649",
                    "12345678901", "a1", "\u{FF5E}", "\u{1F600}", "A",
                ].map { ($0, JSONValue.bool(true)) }))
        XCTAssertEqual(
            keys(base.orderedByKey(), value),
            [
                "-2147483648", "-3", "007", "9", "10", "2147483647",
                // Not 32-bit integers: by UTF-16 code units (the emoji's surrogate D83D before FF5E).
                "-2147483649", "12345678901", "2147483648", "A", "a", "a1", "b", "\u{1F600}", "\u{FF5E}",
            ])
        // The default order is the key order.
        XCTAssertEqual(keys(base, value), keys(base.orderedByKey(), value))
    }

    func testKeyOrder_equalNumbersShorterKeyFirst() {
        XCTAssertLessThan(RealtimeDatabaseOrdering.compareKeys("7", "007"), 0)
        XCTAssertLessThan(RealtimeDatabaseOrdering.compareKeys("07", "007"), 0)
        XCTAssertGreaterThan(RealtimeDatabaseOrdering.compareKeys("007", "7"), 0)
        XCTAssertEqual(RealtimeDatabaseOrdering.compareKeys("x", "x"), 0)
        // Eleven zeros are still "0*\d{1,10}": an integer.
        XCTAssertLessThan(RealtimeDatabaseOrdering.compareKeys("00000000000", "a"), 0)
    }

    // MARK: - Value order

    func testValueOrder_nullFalseTrueNumbersStringsObjects_tiesByKey() {
        let value: JSONValue = [
            "obj2": ["x": 1], "obj1": [1, 2], "s2": "b", "s1": "a", "s0": "a",
            "n3": 10, "n2": -1.5, "n1": 2, "t": true, "f": false, "n0": 2,
        ]
        XCTAssertEqual(keys(base.orderedByValue(), value), ["f", "t", "n2", "n0", "n1", "n3", "s0", "s1", "s2", "obj1", "obj2"])
    }

    func testChildOrder_missingChildSortsAsNull_nestedPathsWork() {
        let value: JSONValue = [
            "c1": ["meta": ["time": 30]],
            "c2": ["meta": ["time": 10]],
            "c3": ["text": "no time"],
            "c4": "a leaf",
            "c5": ["meta": ["time": "late"]],
        ]
        XCTAssertEqual(keys(base.ordered(byChild: "meta/time"), value), ["c3", "c4", "c2", "c1", "c5"])
    }

    func testArrayChildrenAreKeyedByIndex() {
        let value: JSONValue = ["zero", .null, "two", "ten"]
        XCTAssertEqual(keys(base.orderedByValue(), value), ["3", "2", "0"])
        XCTAssertEqual(keys(base.orderedByKey().limited(toFirst: 2), value), ["0", "2"])
    }

    // MARK: - Ranges

    private let scores: JSONValue = [
        "ann": ["score": 10], "bob": ["score": 20], "cat": ["score": 20], "dan": ["score": 30], "eve": ["text": "none"],
    ]

    func testStartingAt_inclusiveAndWithChildKey() {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(keys(byScore.starting(at: 20), scores), ["bob", "cat", "dan"])
        XCTAssertEqual(keys(byScore.starting(at: 20, childKey: "cat"), scores), ["cat", "dan"])
        XCTAssertEqual(keys(byScore.starting(at: .null), scores), ["eve", "ann", "bob", "cat", "dan"])
    }

    func testStartingAfter_exclusiveAndWithChildKey() {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(keys(byScore.starting(after: 20), scores), ["dan"])
        XCTAssertEqual(keys(byScore.starting(after: 20, childKey: "bob"), scores), ["cat", "dan"])
        XCTAssertEqual(keys(byScore.starting(after: .null), scores), ["ann", "bob", "cat", "dan"])
    }

    func testEndingAtAndBefore() {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(keys(byScore.ending(at: 20), scores), ["eve", "ann", "bob", "cat"])
        XCTAssertEqual(keys(byScore.ending(at: 20, childKey: "bob"), scores), ["eve", "ann", "bob"])
        XCTAssertEqual(keys(byScore.ending(before: 20), scores), ["eve", "ann"])
        XCTAssertEqual(keys(byScore.ending(before: 20, childKey: "cat"), scores), ["eve", "ann", "bob"])
        XCTAssertEqual(keys(byScore.starting(at: 15).ending(at: 25), scores), ["bob", "cat"])
    }

    func testEqualTo_valueAndChildKey() {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(keys(byScore.equal(to: 20), scores), ["bob", "cat"])
        XCTAssertEqual(keys(byScore.equal(to: 20, childKey: "cat"), scores), ["cat"])
        XCTAssertEqual(keys(byScore.equal(to: .null), scores), ["eve"])
        XCTAssertEqual(keys(byScore.equal(to: 99), scores), [])
    }

    func testKeyRanges() {
        let byKey = base.orderedByKey()
        XCTAssertEqual(keys(byKey.starting(at: "bob").ending(at: "dan"), scores), ["bob", "cat", "dan"])
        XCTAssertEqual(keys(byKey.starting(after: "bob").ending(before: "dan"), scores), ["cat"])
        XCTAssertEqual(keys(byKey.equal(to: "eve"), scores), ["eve"])
    }

    func testValueRangesAcrossTypes() {
        let mixed: JSONValue = ["a": false, "b": 3, "c": "x", "d": true, "e": ["o": 1]]
        XCTAssertEqual(keys(base.orderedByValue().starting(at: true).ending(at: 3), mixed), ["d", "b"])
        XCTAssertEqual(keys(base.orderedByValue().starting(at: "a"), mixed), ["c", "e"])
    }

    // MARK: - Limits

    func testLimits_firstAndLastAfterTheRange() {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(keys(byScore.limited(toFirst: 2), scores), ["eve", "ann"])
        XCTAssertEqual(keys(byScore.limited(toLast: 2), scores), ["cat", "dan"])
        XCTAssertEqual(keys(byScore.starting(at: 10).limited(toFirst: 2), scores), ["ann", "bob"])
        XCTAssertEqual(keys(byScore.ending(before: 30).limited(toLast: 2), scores), ["bob", "cat"])
        XCTAssertEqual(keys(byScore.limited(toLast: 99), scores).count, 5)
    }

    // MARK: - Results

    func testResult_anObjectOfTheSelectionOrNull_orTheWholeValueWithoutFilters() throws {
        let byScore = base.ordered(byChild: "score")
        XCTAssertEqual(try byScore.limited(toLast: 1).result(of: scores), ["dan": ["score": 30]])
        XCTAssertEqual(try byScore.equal(to: 99).result(of: scores), .null)
        XCTAssertEqual(try byScore.result(of: scores), scores)
        XCTAssertEqual(try byScore.result(of: "leaf"), "leaf")
        XCTAssertEqual(try byScore.limited(toFirst: 1).result(of: "leaf"), .null)
        XCTAssertEqual(try byScore.limited(toFirst: 1).result(of: .null), .null)
        XCTAssertEqual(try base.orderedByKey().limited(toFirst: 1).result(of: ["x", "y"]), ["0": "x"])
    }

    // MARK: - Validation

    func testValidation_combinationsFirebaseRejects() {
        XCTAssertNotNil(reason(base.orderedByKey().orderedByValue()))
        XCTAssertNotNil(reason(base.ordered(byChild: "a").ordered(byChild: "b")))
        XCTAssertNotNil(reason(base.limited(toFirst: 1).limited(toLast: 1)))
        XCTAssertNotNil(reason(base.limited(toFirst: 0)))
        XCTAssertNotNil(reason(base.limited(toLast: -5)))
        XCTAssertNotNil(reason(base.orderedByValue().starting(at: 1).starting(after: 2)))
        XCTAssertNotNil(reason(base.orderedByValue().ending(at: 1).equal(to: 2)))
        XCTAssertNotNil(reason(base.orderedByValue().starting(at: 1).equal(to: 2)))
        XCTAssertNotNil(reason(base.starting(at: 1)), "a range without an order")
        XCTAssertNotNil(reason(base.orderedByKey().starting(at: 1)), "ordering by key takes string bounds")
        XCTAssertNotNil(reason(base.orderedByKey().equal(to: "a", childKey: "a")), "ordering by key takes no child key")
        XCTAssertNotNil(reason(base.orderedByValue().starting(at: ["o": 1])), "object bound")
        XCTAssertNotNil(reason(base.orderedByValue().ending(at: [1])), "array bound")
        XCTAssertNotNil(reason(base.orderedByValue().starting(at: 1, childKey: "a.b")), "invalid child key")
        XCTAssertNotNil(reason(base.ordered(byChild: "$key")))
        XCTAssertNotNil(reason(base.ordered(byChild: "$value")))
        XCTAssertNotNil(reason(base.ordered(byChild: "$priority")))
        XCTAssertNotNil(reason(base.ordered(byChild: "")))
        XCTAssertNotNil(reason(base.ordered(byChild: "a#b")))
    }

    func testValidation_theFirstProblemIsKept_andTheQueryIsDescribed() {
        let query = base.limited(toFirst: 0).orderedByKey().orderedByValue()
        XCTAssertEqual(query.problem, "limited(toFirst:): the limit must be a positive integer, not 0")
        XCTAssertThrowsError(try query.children(of: scores)) { error in
            XCTAssertEqual(
                error as? RealtimeDatabaseError, .invalidQuery("g orderedByKey()", reason: "limited(toFirst:): the limit must be a positive integer, not 0"))
        }
        XCTAssertEqual(
            base.ordered(byChild: "time").starting(after: 3, childKey: "k").limited(toLast: 50).description,
            "g ordered(byChild: time) starting(after: 3, childKey: k) limited(toLast: 50)")
        XCTAssertEqual(base.orderedByValue().equal(to: "x").description, "g orderedByValue() equal(to: \"x\")")
    }

    func testValidation_anInvalidPathIsAPathError() {
        XCTAssertThrowsError(try RealtimeDatabaseQuery(path: "a//b").validate()) { error in
            guard case .invalidPath? = error as? RealtimeDatabaseError else { return XCTFail("\(error)") }
        }
    }

    func testValidation_orderMayComeAfterTheFilters() throws {
        try base.limited(toLast: 2).starting(at: 1).orderedByValue().validate()
        XCTAssertEqual(keys(base.limited(toLast: 1).starting(at: 1).orderedByValue(), ["a": 1, "b": 2]), ["b"])
    }
}
