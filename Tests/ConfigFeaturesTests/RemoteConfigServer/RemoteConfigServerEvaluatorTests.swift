import Foundation
import XCTest
import ConfigFeatures

/// The server-template evaluator, case by case, with outcomes taken from firebase-admin 7.7.0's
/// `_ConditionEvaluator` (Scripts/firebase_admin_server_template_check.py compares the two on
/// generated templates and contexts).
final class RemoteConfigServerEvaluatorTests: XCTestCase {
    // MARK: Helpers

    /// Whether `condition` (JSON) holds for the context: the value of a parameter that is
    /// `"yes"` under the condition and `"no"` otherwise.
    private func holds(_ condition: String, id: String? = "user-1", _ signals: [String: String] = [:]) throws -> Bool {
        let json = """
            {"conditions": [{"name": "c", "condition": \(condition)}],
             "parameters": {"p": {"defaultValue": {"value": "no"}, "conditionalValues": {"c": {"value": "yes"}}}}}
            """
        let value = try RemoteConfigServerTemplate(json: Data(json.utf8)).evaluate(randomizationID: id, customSignals: signals).value(forKey: "p")
        XCTAssertEqual(value.source, .remote)
        return value.stringValue == "yes"
    }

    private func signal(_ op: String, _ key: String, _ targets: [String]) -> String {
        let list = targets.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"customSignal": {"customSignalOperator": "\#(op)", "customSignalKey": "\#(key)", "targetCustomSignalValues": [\#(list)]}}"#
    }

    private func percent(_ op: String, seed: String? = "seed1", micro: Int? = nil, range: (Int, Int)? = nil) -> String {
        var fields = [#""percentOperator": "\#(op)""#]
        if let seed { fields.append(#""seed": "\#(seed)""#) }
        if let micro { fields.append(#""microPercent": \#(micro)"#) }
        if let range { fields.append(#""microPercentRange": {"microPercentLowerBound": \#(range.0), "microPercentUpperBound": \#(range.1)}"#) }
        return #"{"percent": {\#(fields.joined(separator: ", "))}}"#
    }

    /// SHA-256("seed1.user-1") mod 10^8, as Python computes it.
    private let seededPercentile = 41_953_865
    /// SHA-256("user-1") mod 10^8.
    private let unseededPercentile = 24_996_379

    // MARK: and / or / true / false / depth

    func testAndOr_emptyAndIsTrueEmptyOrIsFalse() throws {
        XCTAssertTrue(try holds(#"{"andCondition": {"conditions": []}}"#))
        XCTAssertFalse(try holds(#"{"orCondition": {"conditions": []}}"#))
        XCTAssertTrue(try holds(#"{"andCondition": {}}"#))
        XCTAssertFalse(try holds(#"{"orCondition": {"conditions": null}}"#))
    }

    func testAndOr_combineChildren() throws {
        XCTAssertTrue(try holds(#"{"orCondition": {"conditions": [{"false": {}}, {"true": {}}]}}"#))
        XCTAssertFalse(try holds(#"{"andCondition": {"conditions": [{"true": {}}, {"false": {}}]}}"#))
        XCTAssertTrue(try holds(#"{"andCondition": {"conditions": [{"true": {}}, {"orCondition": {"conditions": [{"false": {}}, {"true": {}}]}}]}}"#))
    }

    func testConditions_unknownAndEmptyNodesAreFalse() throws {
        XCTAssertFalse(try holds("{}"))
        XCTAssertFalse(try holds(#"{"sometimes": {}}"#))
        XCTAssertFalse(try holds(#"{"true": null}"#))
        // The first non-null key in firebase-admin's order decides: orCondition before true.
        XCTAssertFalse(try holds(#"{"true": {}, "orCondition": {"conditions": []}}"#))
    }

    func testNesting_fourAndLevelsAreEvaluatedFiveAreFalse() throws {
        func nested(_ levels: Int) -> String {
            (0..<levels).reduce(#"{"true": {}}"#) { inner, _ in #"{"andCondition": {"conditions": [\#(inner)]}}"# }
        }
        // Each and/or adds two levels; firebase-admin answers false at level 10.
        XCTAssertTrue(try holds(nested(4)))
        XCTAssertFalse(try holds(nested(5)))
        XCTAssertFalse(try holds(nested(40)))
    }

    // MARK: percent

    func testPercent_lessOrEqualIsInclusive() throws {
        XCTAssertTrue(try holds(percent("LESS_OR_EQUAL", micro: seededPercentile)))
        XCTAssertFalse(try holds(percent("LESS_OR_EQUAL", micro: seededPercentile - 1)))
        XCTAssertTrue(try holds(percent("LESS_OR_EQUAL", micro: 100_000_000)))
    }

    func testPercent_greaterThanIsExclusive() throws {
        XCTAssertFalse(try holds(percent("GREATER_THAN", micro: seededPercentile)))
        XCTAssertTrue(try holds(percent("GREATER_THAN", micro: seededPercentile - 1)))
        XCTAssertTrue(try holds(percent("GREATER_THAN")))  // microPercent absent: 0
    }

    func testPercent_betweenExcludesTheLowerBoundIncludesTheUpper() throws {
        XCTAssertTrue(try holds(percent("BETWEEN", range: (seededPercentile - 1, seededPercentile))))
        XCTAssertFalse(try holds(percent("BETWEEN", range: (seededPercentile, seededPercentile + 10))))
        XCTAssertFalse(try holds(percent("BETWEEN")))  // no range: (0, 0]
    }

    func testPercent_withoutSeedHashesTheIDAlone() throws {
        XCTAssertTrue(try holds(percent("LESS_OR_EQUAL", seed: nil, micro: unseededPercentile)))
        XCTAssertFalse(try holds(percent("LESS_OR_EQUAL", seed: "", micro: unseededPercentile - 1)))
    }

    func testPercent_needsARandomizationIDAndAKnownOperator() throws {
        XCTAssertFalse(try holds(percent("LESS_OR_EQUAL", micro: 100_000_000), id: nil))
        XCTAssertFalse(try holds(percent("LESS_OR_EQUAL", micro: 100_000_000), id: ""))
        XCTAssertFalse(try holds(percent("UNKNOWN", micro: 100_000_000)))
        XCTAssertFalse(try holds(percent("", micro: 100_000_000)))
        // The randomization ID and the signals share one context, as in firebase-admin.
        XCTAssertTrue(try holds(percent("LESS_OR_EQUAL", micro: seededPercentile), id: nil, ["randomization_id": "user-1"]))
    }

    // MARK: custom signals: strings

    func testStringContains_anyTarget() throws {
        XCTAssertTrue(try holds(signal("STRING_CONTAINS", "tier", ["plat", "old"]), ["tier": "golden"]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS", "tier", ["GOLD"]), ["tier": "golden"]))
        XCTAssertTrue(try holds(signal("STRING_CONTAINS", "tier", [""]), ["tier": "x"]))
        // Code points, not graphemes: "e" is in "e\u{301}".
        XCTAssertTrue(try holds(signal("STRING_CONTAINS", "tier", ["e"]), ["tier": "e\u{301}"]))
    }

    func testStringDoesNotContain_noTarget() throws {
        XCTAssertTrue(try holds(signal("STRING_DOES_NOT_CONTAIN", "tier", ["silver", "bronze"]), ["tier": "gold"]))
        XCTAssertFalse(try holds(signal("STRING_DOES_NOT_CONTAIN", "tier", ["silver", "ol"]), ["tier": "gold"]))
    }

    func testStringExactlyMatches_ignoresSurroundingWhitespaceOnBothSides() throws {
        XCTAssertTrue(try holds(signal("STRING_EXACTLY_MATCHES", "tier", [" gold "]), ["tier": "\u{A0}gold\u{3000}"]))
        XCTAssertTrue(try holds(signal("STRING_EXACTLY_MATCHES", "tier", ["gold"]), ["tier": "\u{1C}gold"]))
        XCTAssertFalse(try holds(signal("STRING_EXACTLY_MATCHES", "tier", ["gold"]), ["tier": "GOLD"]))
        XCTAssertFalse(try holds(signal("STRING_EXACTLY_MATCHES", "tier", ["é"]), ["tier": "e\u{301}"]))
    }

    func testStringContainsRegex_searchesAnywhere() throws {
        XCTAssertTrue(try holds(signal("STRING_CONTAINS_REGEX", "tier", ["ol"]), ["tier": "gold"]))
        XCTAssertTrue(try holds(signal("STRING_CONTAINS_REGEX", "tier", ["^g.l"]), ["tier": "gold"]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS_REGEX", "tier", ["^old"]), ["tier": "gold"]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS_REGEX", "tier", ["(unclosed"]), ["tier": "gold"]))
    }

    func testCustomSignal_missingEmptyOrIncompleteIsFalse() throws {
        XCTAssertFalse(try holds(signal("STRING_CONTAINS", "tier", [""]), [:]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS", "tier", [""]), ["tier": ""]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS", "tier", []), ["tier": "gold"]))
        XCTAssertFalse(try holds(signal("STRING_CONTAINS", "", ["g"]), ["": "gold"]))
        XCTAssertFalse(try holds(signal("STRING_SHOUTS", "tier", ["g"]), ["tier": "gold"]))
    }

    // MARK: custom signals: numbers

    func testNumeric_everyOperator() throws {
        let cases: [(String, String, Bool)] = [
            ("NUMERIC_LESS_THAN", "9.5", true), ("NUMERIC_LESS_THAN", "10", false),
            ("NUMERIC_LESS_EQUAL", "10.0", true), ("NUMERIC_LESS_EQUAL", "10.5", false),
            ("NUMERIC_EQUAL", "1e1", true), ("NUMERIC_EQUAL", "10.01", false),
            ("NUMERIC_NOT_EQUAL", "11", true), ("NUMERIC_NOT_EQUAL", "+10", false),
            ("NUMERIC_GREATER_THAN", "10.5", true), ("NUMERIC_GREATER_THAN", "10", false),
            ("NUMERIC_GREATER_EQUAL", "10", true), ("NUMERIC_GREATER_EQUAL", "-10", false),
        ]
        for (op, actual, expected) in cases {
            XCTAssertEqual(try holds(signal(op, "score", ["10"]), ["score": actual]), expected, "\(op) \(actual)")
        }
    }

    func testNumeric_readsNumbersAsPythonsFloat() throws {
        let equalToTen = ["10", " 10 ", "1_0", "10.", "1e1", "+10", "\u{A0}10\u{2003}", "١٠"]
        for actual in equalToTen {
            XCTAssertTrue(try holds(signal("NUMERIC_EQUAL", "score", ["10"]), ["score": actual]), actual)
        }
        let notNumbers = ["_10", "10_", "1__0", "0x10", "1,000", "e5", "1e", ".", "\u{1C}10", "ten"]
        for actual in notNumbers {
            XCTAssertFalse(try holds(signal("NUMERIC_NOT_EQUAL", "score", ["10"]), ["score": actual]), actual)
        }
        XCTAssertFalse(try holds(signal("NUMERIC_EQUAL", "score", ["abc"]), ["score": "10"]))
    }

    func testNumeric_nanIsEqualToEverythingInfinityIsOrdered() throws {
        // firebase-admin's `-1 if a < t else 1 if a > t else 0` makes NaN "equal".
        XCTAssertTrue(try holds(signal("NUMERIC_EQUAL", "score", ["10"]), ["score": "nan"]))
        XCTAssertFalse(try holds(signal("NUMERIC_LESS_THAN", "score", ["NaN"]), ["score": "1"]))
        XCTAssertTrue(try holds(signal("NUMERIC_GREATER_THAN", "score", ["1e308"]), ["score": "inf"]))
        XCTAssertTrue(try holds(signal("NUMERIC_EQUAL", "score", ["-Infinity"]), ["score": "-1e400"]))
    }

    // MARK: custom signals: semantic versions

    func testSemanticVersion_everyOperator() throws {
        let cases: [(String, String, Bool)] = [
            ("SEMANTIC_VERSION_LESS_THAN", "1.2.2", true), ("SEMANTIC_VERSION_LESS_THAN", "1.2.3", false),
            ("SEMANTIC_VERSION_LESS_EQUAL", "1.2.3", true), ("SEMANTIC_VERSION_LESS_EQUAL", "1.10", false),
            ("SEMANTIC_VERSION_EQUAL", "1.2.3.0.0", true), ("SEMANTIC_VERSION_EQUAL", "1.2", false),
            ("SEMANTIC_VERSION_NOT_EQUAL", "1.2.4", true), ("SEMANTIC_VERSION_NOT_EQUAL", "01.02.03", false),
            ("SEMANTIC_VERSION_GREATER_THAN", "1.3", true), ("SEMANTIC_VERSION_GREATER_THAN", "1.2.3", false),
            ("SEMANTIC_VERSION_GREATER_EQUAL", "2", true), ("SEMANTIC_VERSION_GREATER_EQUAL", "1.2.2.9", false),
        ]
        for (op, actual, expected) in cases {
            XCTAssertEqual(try holds(signal(op, "version", ["1.2.3"]), ["version": actual]), expected, "\(op) \(actual)")
        }
    }

    func testSemanticVersion_segmentsAreIntegersAsPythonReadsThem() throws {
        let equal = ["1.2.3", " 1.2.3", "1. 2.3", "+1.2.3", "1.0_2.3", "1.2.3.0.0.0.0", "١.٢.٣"]
        for actual in equal {
            XCTAssertTrue(try holds(signal("SEMANTIC_VERSION_EQUAL", "version", ["1.2.3"]), ["version": actual]), actual)
        }
        let invalid = ["1..2", "1.a", ".1", "1.", "1._2", "a"]
        for actual in invalid {
            XCTAssertFalse(try holds(signal("SEMANTIC_VERSION_NOT_EQUAL", "version", ["1.2.3"]), ["version": actual]), actual)
        }
        // Integers of any size.
        XCTAssertTrue(
            try holds(signal("SEMANTIC_VERSION_GREATER_THAN", "version", ["99999999999999999998.9"]), ["version": "99999999999999999999.1"]))
    }

    func testSemanticVersion_negativeSegmentsFailOnlyWhenReached() throws {
        // firebase-admin checks for negatives pair by pair and stops at the first difference.
        XCTAssertFalse(try holds(signal("SEMANTIC_VERSION_LESS_THAN", "version", ["1.2"]), ["version": "-1.0"]))
        XCTAssertTrue(try holds(signal("SEMANTIC_VERSION_GREATER_THAN", "version", ["1.0"]), ["version": "2.-1"]))
        XCTAssertFalse(try holds(signal("SEMANTIC_VERSION_GREATER_THAN", "version", ["1.0"]), ["version": "1.-1"]))
        XCTAssertTrue(try holds(signal("SEMANTIC_VERSION_EQUAL", "version", ["0"]), ["version": "-0"]))
    }
}
