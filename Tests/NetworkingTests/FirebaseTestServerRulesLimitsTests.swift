import ConfigFeatures
import ConfigFeaturesTestServer
import XCTest

/// Hostile rules and data stay bounded: deep data under deep wildcard rules, long regular
/// expressions, and many wildcard branches end within the evaluation limits, with the reason in
/// the decision (an evaluation error counts as `false`, as in Firebase).
final class FirebaseTestServerRulesLimitsTests: XCTestCase {
    /// Rules `$w0 → $w1 → … → $w(levels-1)`, each with `validate` (the deepest with `deepest`).
    private static func nestedWildcards(levels: Int, validate: String, deepest: String) -> String {
        var node = #"{".validate": "\#(deepest)"}"#
        for level in stride(from: levels - 2, through: 0, by: -1) {
            node = #"{".validate": "\#(validate)", "$w\#(level + 1)": \#(node)}"#
        }
        return #"{"rules": {".write": true, "$w0": "# + node + "}}"
    }

    private static func deepData(_ depth: Int) -> JSONValue {
        var value: JSONValue = "leaf"
        for _ in 0..<depth { value = .object(["a": value]) }
        return value
    }

    /// Data 400 levels deep under 60 levels of wildcard rules: every rule on the way runs, the
    /// levels below the rules cost nothing, and a false rule at the deepest level is named.
    func testDeepDataUnderDeepWildcardRules() throws {
        let data = Self.deepData(400)
        let open = try DatabaseRules(Self.nestedWildcards(levels: 60, validate: "newData.exists()", deepest: "newData.hasChildren()"))
        let allowed = open.write(RulesWrite([([], data)]), auth: .null, root: .null, now: 0)
        XCTAssertTrue(allowed.allowed, allowed.explanation)

        let closed = try DatabaseRules(Self.nestedWildcards(levels: 60, validate: "newData.exists()", deepest: "newData.isString()"))
        let denied = closed.write(RulesWrite([([], data)]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains(".validate at /" + Array(repeating: "a", count: 60).joined(separator: "/") + " is false"), denied.explanation)

        // A rule may look far down the data: child() with thousands of segments.
        let path = Array(repeating: "a", count: 400).joined(separator: "/")
        let far = try DatabaseRules(#"{"rules": {".read": "data.child('\#(path)').val() == 'leaf'"}}"#)
        XCTAssertTrue(far.read([], auth: .null, root: data, now: 0).allowed)
    }

    /// A regular expression as long as one may be (1,024 characters) is evaluated on a string
    /// as long; a longer one is refused when loaded, with its position.
    func testLongRegularExpressions() throws {
        let letters = 204
        let pattern = "^" + String(repeating: "[a-z]", count: letters) + "$"
        let rules = try DatabaseRules(#"{"rules": {".write": true, "s": {".validate": "newData.val().matches(/\#(pattern)/)"}}}"#)
        let exact = rules.write(RulesWrite([(["s"], .string(String(repeating: "q", count: letters)))]), auth: .null, root: .null, now: 0)
        XCTAssertTrue(exact.allowed, exact.explanation)
        let longer = rules.write(RulesWrite([(["s"], .string(String(repeating: "q", count: letters + 1)))]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(longer.allowed, longer.explanation)

        let tooLong = "^" + String(repeating: "[a-z]", count: 205) + "$"
        XCTAssertThrowsError(try DatabaseRules(#"{"rules": {".read": "'a'.matches(/\#(tooLong)/)"}}"#)) { error in
            guard let error = error as? FirebaseTestServerRulesError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.line, 1)
            XCTAssertEqual(error.column, 34)
            XCTAssertTrue(error.message.contains("regular expression longer than 1024 characters"), "\(error)")
        }
    }

    /// One write of 250 × 250 children under `$a/$b` rules: 62,500 `.validate` evaluations run
    /// into the step limit and the write is denied with that reason, not evaluated for ever.
    func testManyWildcardBranchesHitTheStepLimit() throws {
        let rules = try DatabaseRules(#"{"rules": {".write": true, "$a": {"$b": {".validate": "newData.isNumber() && newData.val() >= 0"}}}}"#)
        var outer: [String: JSONValue] = [:]
        for a in 0..<250 {
            var inner: [String: JSONValue] = [:]
            for b in 0..<250 { inner["b\(b)"] = .number(Double(b)) }
            outer["a\(a)"] = .object(inner)
        }
        let denied = rules.write(RulesWrite([([], .object(outer))]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains("evaluation limit reached"), denied.explanation)

        // The same rules on a reasonable write are fine.
        let small = rules.write(RulesWrite([(["a0"], ["b0": 1, "b1": 2])]), auth: .null, root: .null, now: 0)
        XCTAssertTrue(small.allowed, small.explanation)
    }
}
