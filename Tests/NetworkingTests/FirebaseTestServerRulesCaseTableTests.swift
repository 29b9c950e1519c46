import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The table of rules cases drawn from Firebase's documentation (`Scripts/rules-cases.json`, also
/// run by `Scripts/firebase_admin_check.py` through firebase-admin): each case in process and
/// against the server over REST on loopback, with the admin token and `auth_variable_override`
/// (what firebase-admin's `databaseAuthVariableOverride` sends) as its `auth`.
final class FirebaseTestServerRulesCaseTableTests: FirebaseTestServerTestCase {
    private let admin = ["Authorization": "Bearer owner"]

    func testTableIsDrawnFromTheDocumentationAndEveryRuleSetLoads() throws {
        let cases = try RulesTableCase.load()
        XCTAssertGreaterThanOrEqual(cases.count, 40)
        XCTAssertGreaterThanOrEqual(Set(cases.map(\.doc)).count, 5)
        XCTAssertTrue(cases.contains { $0.allowed } && cases.contains { !$0.allowed })
        for (name, text) in try RulesTableCase.rulesets() {
            XCTAssertNoThrow(try DatabaseRules(text), name)
        }
    }

    func testEveryCaseInProcess() throws {
        let now = (Date().timeIntervalSince1970 * 1_000).rounded()
        for testCase in try RulesTableCase.load() {
            let decision = testCase.decide(try DatabaseRules(testCase.rules), now: now)
            XCTAssertEqual(decision.allowed, testCase.allowed, "\(testCase.name) [\(testCase.doc)]: \(decision.explanation)")
        }
    }

    func testEveryCaseOverREST() throws {
        for testCase in try RulesTableCase.load() {
            // The admin token bypasses the rules: it seeds the data whatever they are.
            XCTAssertEqual(try client.send("PUT", server.databaseURL("/"), json: testCase.data, headers: admin).status, 200, testCase.name)
            try server.setDatabaseRules(testCase.rules)
            let result = try send(testCase)
            if testCase.allowed {
                XCTAssertEqual(result.status, 200, "\(testCase.name) [\(testCase.doc)]: \(result.text)")
            } else {
                XCTAssertEqual(result.status, 401, "\(testCase.name) [\(testCase.doc)]: \(result.text)")
                XCTAssertEqual(result.json, ["error": "Permission denied"], testCase.name)
            }
        }
    }

    /// A denied write changes nothing; an allowed one is stored.
    func testDeniedWritesLeaveTheDataAndAllowedOnesStoreIt() throws {
        for testCase in try RulesTableCase.load() {
            guard case .write(let path, let value) = testCase.operation else { continue }
            XCTAssertEqual(try client.send("PUT", server.databaseURL("/"), json: testCase.data, headers: admin).status, 200)
            try server.setDatabaseRules(testCase.rules)
            _ = try send(testCase)
            let stored = try server.databaseValue(at: String(path.drop { $0 == "/" }))
            let before = RulesTableCase.segments(path).reduce(testCase.data) { $0[$1] ?? .null }
            XCTAssertEqual(stored, testCase.allowed ? value : before, testCase.name)
        }
    }

    private func send(_ testCase: RulesTableCase) throws -> HTTPResult {
        var query = ["auth_variable_override": testCase.auth.serialized()]
        switch testCase.operation {
        case .read(let path, let parameters):
            for (name, value) in parameters { query[name] = value.serialized() }
            return try client.send("GET", server.databaseURL(path, query: query), headers: admin)
        case .write(let path, .null):
            return try client.send("DELETE", server.databaseURL(path, query: query), headers: admin)
        case .write(let path, let value):
            return try client.send("PUT", server.databaseURL(path, query: query), json: value, headers: admin)
        case .update(let path, let values):
            return try client.send("PATCH", server.databaseURL(path, query: query), json: .object(values), headers: admin)
        }
    }

    /// Firebase refuses two `$wildcard` siblings ("Cannot have multiple default rules"); so do
    /// we, over REST too, and the previous rules stay.
    func testTwoWildcardSiblingsAreRefusedAndThePreviousRulesStay() throws {
        let previous = #"{"rules": {".read": true}}"#
        try server.setDatabaseRules(previous)
        let result = try client.send(
            "PUT", server.databaseURL("/.settings/rules"), body: Data(#"{"rules": {"a": {"$x": {".read": true}, "$y": {".read": false}}}}"#.utf8),
            headers: admin)
        XCTAssertEqual(result.status, 400, result.text)
        XCTAssertTrue(result.text.contains("two wildcards at one level ($x and $y)"), result.text)
        XCTAssertTrue(result.text.contains("line 1, column 41"), result.text)
        XCTAssertEqual(server.databaseRules, previous)
    }
}
