import ConfigFeatures
import ConfigFeaturesTestServer
import XCTest

/// The Security Rules language on its own: operators, snapshot methods, load errors with their
/// line and column, the cascade, and the evaluation limits. Firebase's documentation examples are
/// the table of `Scripts/rules-cases.json` (`FirebaseTestServerRulesCaseTableTests`).
final class FirebaseTestServerRulesLanguageTests: XCTestCase {
    private static func user(_ uid: String, claims: [String: JSONValue] = [:]) -> JSONValue {
        var token = claims
        token["sub"] = .string(uid)
        return .object(["uid": .string(uid), "provider": .string("password"), "token": .object(token)])
    }

    func testOperatorsAndPrecedence() throws {
        let expressions: [(String, Bool)] = [
            ("1 + 2 * 3 == 7", true), ("(1 + 2) * 3 == 9", true), ("-2 * -3 == 6", true), ("7 % 4 == 3", true), ("10 / 4 == 2.5", true),
            ("true || false && false", true), ("!(1 < 2) == false", true), ("1 < 2 ? 'a' == 'a' : false", true), ("false ? true : 1 >= 2", false),
            ("'ab' + 'c' === 'abc'", true), ("'a' < 'b' && 'B' < 'a'", true), ("1 != '1'", true), ("null == null", true), ("1 !== 1", false),
            ("'Hello'.toLowerCase() == 'hello' && 'x'.toUpperCase() == 'X'", true), ("'a.b.c'.replace('.', '/') == 'a/b/c'", true),
            ("'firebase'.beginsWith('fire') && 'firebase'.endsWith('base') && 'firebase'.contains('reb')", true), ("'héllo'.length == 5", true),
            ("'2024-01-01'.matches(/^\\d{4}-\\d{2}-\\d{2}$/)", true), ("'abc'.matches(/B/)", false), ("'abc'.matches(/B/i)", true),
        ]
        for (expression, expected) in expressions {
            let text = #"{"rules": {".read": ""# + expression.replacingOccurrences(of: "\\", with: "\\\\") + #""}}"#
            let rules = try DatabaseRules(text)
            let decision = rules.read([], auth: .null, root: .null, now: 0)
            XCTAssertEqual(decision.allowed, expected, "\(expression): \(decision.explanation)")
        }
    }

    func testSnapshotMethods() throws {
        let data: JSONValue = ["a": ["n": 1, "s": "x", "b": true, "o": ["k": 1]]]
        let expressions: [(String, Bool)] = [
            ("data.child('a/n').val() == 1", true), ("data.child('a').child('n').isNumber()", true), ("data.child('a/s').isString()", true),
            ("data.child('a/b').isBoolean()", true), ("data.child('a').hasChild('o/k')", true), ("data.child('a').hasChild('zz')", false),
            ("data.child('a').hasChildren()", true), ("data.child('a/n').hasChildren()", false), ("data.child('a').hasChildren(['n', 's'])", true),
            ("data.child('a').hasChildren(['n', 'zz'])", false), ("data.child('a/o/k').parent().parent().child('s').val() == 'x'", true),
            ("data.child('nothing').exists()", false), ("data.child('a').getPriority() == null", true), ("root.child('a').exists()", true),
        ]
        for (expression, expected) in expressions {
            let rules = try DatabaseRules(#"{"rules": {".read": ""# + expression + #""}}"#)
            XCTAssertEqual(rules.read([], auth: .null, root: data, now: 0).allowed, expected, expression)
        }
    }

    /// Each load error names the line and column of the problem and what was expected.
    func testLoadErrorsNameLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"rules\": {\n    \".read\": \"usr != null\"\n  }\n}", 3, 15, "unknown variable 'usr'"),
            (#"{"rules": {".read": "auth.uid == "}}"#, 1, 34, "expected a value"),
            (#"{"rules": {".read": "data.length > 0"}}"#, 1, 27, "a snapshot has no property 'length'"),
            (#"{"rules": {".read": "auth.uid.val() == 1"}}"#, 1, 31, "has no method 'val()'"),
            (#"{"rules": {".writ": true}}"#, 1, 12, "unknown rule \".writ\""),
            (#"{"rules": {"a": {"$x": {}, "$y": {}}}}"#, 1, 28, "two wildcards at one level"),
            (#"{"rules": {".read": 1}}"#, 1, 21, "expected true, false or an expression string"),
            (#"{"rules": {".read": "newData.exists()"}}"#, 1, 22, "newData is not available in .read rules"),
            (#"{"rules": {".write": "query.limitToFirst == 1"}}"#, 1, 23, "query is available only in .read rules"),
            (#"{"rules": {".read": "'a'.matches(/a/g)"}}"#, 1, 34, "unsupported regular-expression flag 'g'"),
            (#"{"rules": {".read": "1 + 2"}}"#, 1, 22, "must be a boolean expression"),
            (#"{"rules": {".read": "$room == 'a'"}}"#, 1, 22, "unknown variable '$room'"),
            (#"{"rules": {".read": true} /* unterminated"#, 1, 27, "unterminated /* comment"),
            ("{\"rules\": {\n  // a comment with \"quotes\"\n  /* and\n   a block */ \".read\": tru\n}}", 4, 24, "expected a JSON value, found 'tru'"),
            (#"{"rules": {}, "other": 1}"#, 1, 15, "unknown top-level key"),
            (#"{"rules": {"a": true}}"#, 1, 17, "expected an object of rules"),
            (#"{"rules": {".read": "data.val() == 'x' &&"}}"#, 1, 42, "expected a value"),
            (#"{"rules": {".read": "'a' + 1 == 'a1'"}}"#, 1, 26, "'+' needs two numbers or two strings"),
        ]
        for (text, line, column, message) in cases {
            XCTAssertThrowsError(try DatabaseRules(text), text) { error in
                guard let error = error as? FirebaseTestServerRulesError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.line, line, "\(text): \(error)")
                XCTAssertEqual(error.column, column, "\(text): \(error)")
                XCTAssertTrue(error.message.contains(message), "\(text): \(error)")
            }
        }
    }

    func testCommentsAndTrailingCommasAreAccepted() throws {
        let rules = try DatabaseRules(
            """
            // Only signed-in users.
            {
              "rules": {
                /* everyone */ ".read": "auth != null", // trailing comment
                ".indexOn": ["score", "name"],
              },
            }
            """)
        XCTAssertTrue(rules.read([], auth: Self.user("ann"), root: .null, now: 0).allowed)
        XCTAssertFalse(rules.read([], auth: .null, root: .null, now: 0).allowed)
    }

    /// A grant at a location cannot be revoked below it; a grant below does not open the parent.
    func testCascade() throws {
        let rules = try DatabaseRules(
            #"{"rules": {"a": {".read": true, ".write": true, "b": {".read": false, ".write": false}}, "c": {"d": {".read": true}}}}"#)
        XCTAssertTrue(rules.read(["a", "b"], auth: .null, root: .null, now: 0).allowed)
        XCTAssertTrue(rules.write(RulesWrite([(["a", "b"], 1)]), auth: .null, root: .null, now: 0).allowed)
        XCTAssertTrue(rules.read(["c", "d", "e"], auth: .null, root: .null, now: 0).allowed)
        let denied = rules.read(["c"], auth: .null, root: .null, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains("no .read rule granted /c"), denied.explanation)
        let granted = rules.read(["a", "b"], auth: .null, root: .null, now: 0)
        XCTAssertTrue(granted.explanation.contains(".read at /a granted"), granted.explanation)
    }

    func testValidateDoesNotRunForDeletionsAndDoesNotCascade() throws {
        let rules = try DatabaseRules(#"{"rules": {".write": true, "x": {".validate": false, "y": {".validate": "newData.isNumber()"}}}}"#)
        let data: JSONValue = ["x": ["y": 1]]
        XCTAssertTrue(rules.write(RulesWrite([(["x"], .null)]), auth: .null, root: data, now: 0).allowed)
        XCTAssertTrue(rules.write(RulesWrite([(["x", "y"], .null)]), auth: .null, root: data, now: 0).allowed)
        let denied = rules.write(RulesWrite([(["x", "y"], 2)]), auth: .null, root: data, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains(".validate at /x is false"), denied.explanation)
    }

    func testMultiLocationUpdateIsAllOrNothing() throws {
        let rules = try DatabaseRules(#"{"rules": {"open": {".write": true}, "closed": {".write": false}}}"#)
        XCTAssertTrue(rules.write(RulesWrite([(["open", "a"], 1), (["open", "b"], 2)]), auth: .null, root: .null, now: 0).allowed)
        let denied = rules.write(RulesWrite([(["open", "a"], 1), (["closed", "b"], 2)]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains("/closed/b"), denied.explanation)
    }

    func testLimits() throws {
        let deep = String(repeating: "(", count: RulesParser.maximumDepth + 1) + "true" + String(repeating: ")", count: RulesParser.maximumDepth + 1)
        XCTAssertThrowsError(try DatabaseRules(#"{"rules": {".read": ""# + deep + #""}}"#)) { error in
            XCTAssertTrue("\(error)".contains("nested deeper"), "\(error)")
        }
        let nested = String(repeating: #"{"a": "#, count: 70) + "{}" + String(repeating: "}", count: 70)
        XCTAssertThrowsError(try DatabaseRules(#"{"rules": "# + nested + "}"))

        // Steps: a .validate per written child, 3,000 children of ~40 nodes each.
        let long = Array(repeating: "newData.val() == 1", count: 20).joined(separator: " && ")
        let rules = try DatabaseRules(#"{"rules": {".write": true, "$k": {".validate": ""# + long + #""}}}"#)
        var many: [(path: [String], value: JSONValue)] = []
        for index in 0..<3_000 { many.append((["k\(index)"], 1)) }
        let denied = rules.write(RulesWrite(many), auth: .null, root: .null, now: 0)
        XCTAssertFalse(denied.allowed)
        XCTAssertTrue(denied.explanation.contains("evaluation limit"), denied.explanation)

        // Regular expressions: bounded input, and catastrophic backtracking stopped.
        let regex = try DatabaseRules(#"{"rules": {".write": true, "s": {".validate": "newData.val().matches(/^(a+)+$/)"}}}"#)
        let tooLong = regex.write(
            RulesWrite([(["s"], .string(String(repeating: "a", count: RulesEvaluator.maximumStringLength + 1)))]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(tooLong.allowed)
        XCTAssertTrue(tooLong.explanation.contains("longer than"), tooLong.explanation)
        let hostile = regex.write(RulesWrite([(["s"], .string(String(repeating: "a", count: 40) + "!"))]), auth: .null, root: .null, now: 0)
        XCTAssertFalse(hostile.allowed)
        XCTAssertTrue(hostile.explanation.contains("ran too long"), hostile.explanation)
        XCTAssertTrue(regex.write(RulesWrite([(["s"], "aaaa")]), auth: .null, root: .null, now: 0).allowed)
    }

    /// Random rules texts never crash the loader or the evaluator.
    func testRandomInputNeverCrashes() {
        let pieces = [
            "{", "}", "[", "]", "\"", ":", ",", "\".read\"", "\".write\"", "\".validate\"", "\"$x\"", "\"rules\"", "true", "null", "1", "/*", "*/", "//",
            "\n", " ", "auth", "data", "newData", ".", "val()", "child('a')", "(", ")", "&&", "||", "!", "-", "+", "?", "'s'", "/a/i", "matches(",
            "length", "$x", "==", "<", "\\", "\\u00", "é", "query", "now", "1e999",
        ]
        var generator = SystemRandomNumberGenerator()
        var loaded = 0
        for _ in 0..<3_000 {
            var text = #"{"rules": {".read": ""#
            if Bool.random(using: &generator) { text = "" }
            for _ in 0..<Int.random(in: 0..<30, using: &generator) { text += pieces.randomElement(using: &generator)! }
            if let rules = try? DatabaseRules(text) {
                loaded += 1
                _ = rules.read(["a", "b"], auth: Self.user("u"), root: ["a": ["b": 1]], now: 0)
                _ = rules.write(RulesWrite([(["a"], ["b": 2])]), auth: .null, root: .null, now: 0)
            }
        }
        // Also every prefix of a real rules text.
        let real = ((try? RulesTableCase.rulesets()) ?? [:]).values.sorted().joined()
        for end in stride(from: 0, to: real.count, by: 7) { _ = try? DatabaseRules(String(real.prefix(end))) }
        XCTAssertGreaterThanOrEqual(loaded, 0)
    }
}
