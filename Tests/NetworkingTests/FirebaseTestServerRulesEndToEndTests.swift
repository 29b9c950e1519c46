import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Security Rules evaluated by the server over HTTP: REST reads, writes and listens, with ID
/// tokens of its Auth emulator, the admin token, `auth_variable_override` and
/// `/.settings/rules.json`.
final class FirebaseTestServerRulesEndToEndTests: FirebaseTestServerAuthTestCase {
    private static let ownData = """
        {
          // Each user reads and writes only their own node.
          "rules": {
            "users": {
              "$uid": {".read": "auth != null && auth.uid === $uid", ".write": "auth != null && auth.uid === $uid"}
            },
            "open": {".write": true},
            "closed": {".write": false}
          }
        }
        """

    private func token(_ email: String) throws -> String {
        if server.authUsers.first(where: { $0.email == email }) == nil { try server.createUser(email: email, password: "secret1") }
        return try XCTUnwrap(signIn(email, "secret1")["idToken"]?.stringValue)
    }

    private func assertDenied(_ result: HTTPResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 401, result.text, file: file, line: line)
        XCTAssertEqual(result.json, ["error": "Permission denied"], file: file, line: line)
    }

    func testDefaultRulesAreOpenAndDocumentedText() throws {
        XCTAssertEqual(server.databaseRules, #"{"rules": {".read": true, ".write": true}}"#)
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/a"), json: 1).status, 200)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).text, "1")
    }

    func testRESTReadsAndWritesFollowTheRules() throws {
        try server.setDatabaseValue(["ann": ["name": "Ann"], "bob": ["name": "Bob"]], at: "users")
        try server.setDatabaseRules(Self.ownData)
        let ann = try token("ann@example.com")
        let annUID = try XCTUnwrap(server.authUsers.first { $0.email == "ann@example.com" }?.uid)
        try server.setDatabaseValue(["name": "Ann"], at: "users/\(annUID)")

        XCTAssertEqual(try client.send("GET", server.databaseURL("/users/\(annUID)", query: ["auth": ann])).json, ["name": "Ann"])
        assertDenied(try client.send("GET", server.databaseURL("/users/bob", query: ["auth": ann])))
        assertDenied(try client.send("GET", server.databaseURL("/users/\(annUID)")))
        // Rules are not filters: no rule grants /users itself.
        assertDenied(try client.send("GET", server.databaseURL("/users", query: ["auth": ann])))

        XCTAssertEqual(try client.send("PUT", server.databaseURL("/users/\(annUID)/name", query: ["auth": ann]), json: "Anne").status, 200)
        assertDenied(try client.send("PUT", server.databaseURL("/users/bob/name", query: ["auth": ann]), json: "Mallory"))
        assertDenied(try client.send("DELETE", server.databaseURL("/users/bob", query: ["auth": ann])))
        assertDenied(try client.send("POST", server.databaseURL("/closed"), json: 1))
        XCTAssertEqual(try client.send("POST", server.databaseURL("/open"), json: 1).status, 200)
        XCTAssertEqual(try server.databaseValue(at: "users/bob"), ["name": "Bob"])
        XCTAssertEqual(try server.databaseValue(at: "users/\(annUID)/name"), "Anne")

        // The admin token bypasses the rules.
        let admin = ["Authorization": "Bearer owner"]
        XCTAssertEqual(try client.send("GET", server.databaseURL("/users/bob"), headers: admin).json, ["name": "Bob"])
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/closed/x"), json: 2, headers: admin).status, 200)
    }

    func testMultiLocationUpdateIsAllowedOrDeniedAsAWhole() throws {
        try server.setDatabaseRules(Self.ownData)
        assertDenied(try client.send("PATCH", server.databaseURL("/"), json: ["open/a": 1, "closed/b": 2]))
        XCTAssertEqual(try server.databaseValue(at: "open"), .null)
        XCTAssertEqual(try client.send("PATCH", server.databaseURL("/"), json: ["open/a": 1, "open/b": 2]).status, 200)
        XCTAssertEqual(try server.databaseValue(at: "open"), ["a": 1, "b": 2])
    }

    func testBadRulesAreRefusedWithLineAndColumnAndKeepThePreviousRules() throws {
        try server.setDatabaseRules(Self.ownData)
        XCTAssertThrowsError(try server.setDatabaseRules("{\"rules\": {\n  \".read\": \"auth.uid ==\"\n}}")) { error in
            let error = error as? FirebaseTestServerRulesError
            XCTAssertEqual(error?.line, 2)
            XCTAssertEqual(error?.column, 24)
        }
        XCTAssertEqual(server.databaseRules, Self.ownData)
    }

    func testDeniedListenIsRefusedBeforeTheStreamAndAllowedOneIsCancelledWhenRulesChange() throws {
        try server.setDatabaseRules(#"{"rules": {"public": {".read": true}}}"#)
        var request = URLRequest(url: server.databaseURL("/private"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        assertDenied(try client.send(request))

        let recorder = openSSE("/public")
        XCTAssertEqual(recorder.events.first?.event, "put")
        let finished = recorder.expectFinished()
        try server.setDatabaseRules(#"{"rules": {"public": {".read": false}}}"#)
        wait(for: [finished], timeout: networkTimeout)
        XCTAssertEqual(recorder.events.last, SSEEvent(event: "cancel", data: "null"))
    }

    /// A listen whose permission comes from data (group membership) is cancelled when a write
    /// takes the permission away; the other listens keep flowing.
    func testListenIsCancelledWhenAWriteRemovesThePermission() throws {
        try server.setDatabaseValue(["g1": ["anon": true], "g2": ["anon": true]], at: "members")
        try server.setDatabaseRules(#"{"rules": {"comments": {"$group": {".read": "root.child('members').child($group).child('anon').val() === true"}}}}"#)
        let first = openSSE("/comments/g1")
        let second = openSSE("/comments/g2")
        let finished = first.expectFinished()
        try server.removeDatabaseValue(at: "members/g1/anon")
        wait(for: [finished], timeout: networkTimeout)
        XCTAssertEqual(first.events.last, SSEEvent(event: "cancel", data: "null"))
        let more = second.expectEvents(2)
        try server.setDatabaseValue("hello", at: "comments/g2/c1")
        wait(for: [more], timeout: networkTimeout)
        XCTAssertEqual(second.events.last?.event, "put")
        XCTAssertFalse(second.events.contains { $0.event == "cancel" })
    }

    func testSettingsRulesEndpointNeedsTheAdminToken() throws {
        let admin = ["Authorization": "Bearer owner"]
        let url = server.databaseURL("/.settings/rules")
        XCTAssertEqual(try client.send("GET", url, headers: admin).text, #"{"rules": {".read": true, ".write": true}}"#)
        assertDenied(try client.send("PUT", url, body: Data(Self.ownData.utf8)))
        XCTAssertEqual(try client.send("PUT", url, body: Data(Self.ownData.utf8), headers: admin).status, 200)
        XCTAssertEqual(server.databaseRules, Self.ownData)
        XCTAssertEqual(try client.send("GET", url, headers: admin).text, Self.ownData)
        let bad = try client.send("PUT", url, body: Data(#"{"rules": {".reed": true}}"#.utf8), headers: admin)
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.text.contains("line 1, column 12"), bad.text)
        XCTAssertEqual(server.databaseRules, Self.ownData)
    }

    func testAuthVariableOverrideIsEvaluatedAsAuth() throws {
        try server.setDatabaseValue(["name": "Ann"], at: "users/ann")
        try server.setDatabaseRules(Self.ownData)
        let admin = ["Authorization": "Bearer owner"]
        let asAnn = server.databaseURL("/users/ann", query: ["auth_variable_override": #"{"uid": "ann"}"#])
        XCTAssertEqual(try client.send("GET", asAnn, headers: admin).json, ["name": "Ann"])
        let asBob = server.databaseURL("/users/ann", query: ["auth_variable_override": #"{"uid": "bob"}"#])
        assertDenied(try client.send("GET", asBob, headers: admin))
        assertDenied(try client.send("GET", server.databaseURL("/users/ann", query: ["auth_variable_override": "null"]), headers: admin))
        XCTAssertEqual(try client.send("GET", server.databaseURL("/users/ann", query: ["auth_variable_override": "[1"]), headers: admin).status, 400)
    }

    func testDenialsExplainTheDecidingRuleOnlyWhenAsked() throws {
        try server.setDatabaseRules(Self.ownData)
        let denied = try client.send("GET", server.databaseURL("/users/bob"))
        assertDenied(denied)
        let explanation = try XCTUnwrap(denied.header("X-Firebase-Test-Server-Rules"))
        XCTAssertTrue(explanation.contains(".read at /users/bob is false"), explanation)
        server.explainsRejections = false
        XCTAssertNil(try client.send("GET", server.databaseURL("/users/bob")).header("X-Firebase-Test-Server-Rules"))
    }

    func testExplanationsNeverContainTheToken() throws {
        try server.setDatabaseRules(#"{"rules": {".read": "auth.token.email == 'x'"}}"#)
        let ann = try token("ann@example.com")
        let denied = try client.send("GET", server.databaseURL("/", query: ["auth": ann]))
        assertDenied(denied)
        XCTAssertFalse(denied.headers.values.contains { $0.contains(ann) })
    }

    func testToolLoadsTheRulesFileAndRefusesABadOneWithItsPosition() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fts-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("rules.json")
        try Data(Self.ownData.utf8).write(to: good)
        guard case .serve(let options) = try FirebaseTestServerTool.parse(["--database-rules", good.path]) else { return XCTFail("not a serve command") }
        let started = try FirebaseTestServerTool.start(options)
        defer { started.stop() }
        XCTAssertEqual(started.databaseRules, Self.ownData)
        XCTAssertTrue(FirebaseTestServerTool.banner(for: started, options: options).contains("database rules from \(good.path)"))

        let bad = folder.appendingPathComponent("bad.json")
        try Data("{\"rules\": {\n  \".read\": \"nobody\"}}".utf8).write(to: bad)
        var badOptions = FirebaseTestServerTool.Options()
        badOptions.databaseRulesFile = bad.path
        XCTAssertThrowsError(try FirebaseTestServerTool.start(badOptions)) { error in
            XCTAssertEqual(
                "\(error)",
                "firebase-test-server: --database-rules \(bad.path): line 2, column 13: unknown variable 'nobody' (expected auth, data, newData, root, now, query or a $wildcard)"
            )
            XCTAssertEqual((error as? FirebaseTestServerTool.StartError)?.exitStatus, 1)
        }
    }
}
