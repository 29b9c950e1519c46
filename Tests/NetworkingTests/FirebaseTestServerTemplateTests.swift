import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import XCTest

/// Templates and database contents from JSON, publishing over HTTP, the admin token, a chosen
/// port, and error messages that say what the server accepts (issue 29, item 4).
final class FirebaseTestServerTemplateTests: FirebaseTestServerTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fts-template-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
        super.tearDown()
    }

    private func write(_ text: String, to name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Firebase's template JSON, as `firebase remoteconfig:get` writes it.
    static let firebaseTemplate = """
        {
          "conditions": [{"name": "ios", "expression": "device.os == 'ios'"}],
          "parameters": {
            "welcome": {"defaultValue": {"value": "hi"}, "conditionalValues": {"ios": {"value": "hi iOS"}}, "valueType": "STRING"},
            "legacy": {"defaultValue": {"useInAppDefault": true}},
            "only_conditional": {"conditionalValues": {"ios": {"value": "x"}}}
          },
          "parameterGroups": {
            "onboarding": {"description": "steps", "parameters": {"steps": {"defaultValue": {"value": "3"}, "valueType": "NUMBER"}}}
          },
          "version": {"versionNumber": "42", "updateUser": {"email": "a@example.com"}}
        }
        """

    // MARK: Reading templates

    func testTemplate_readsFirebaseTemplateJSON() throws {
        let template = try FirebaseTestServer.RemoteConfigTemplate(json: Data(Self.firebaseTemplate.utf8))
        XCTAssertEqual(template.parameters, ["welcome": "hi", "steps": "3"])
        XCTAssertEqual(try FirebaseTestServer.RemoteConfigTemplate(json: Data("{}".utf8)).parameters, [:])
        let url = try write(Self.firebaseTemplate, to: "template.json")
        XCTAssertEqual(try FirebaseTestServer.RemoteConfigTemplate(contentsOf: url), template)
    }

    func testTemplate_malformedFilesAreTypedErrorsNamingFileAndPlace() throws {
        let cases: [(String, String, String)] = [
            (
                #"{"parameters": {"a": {"defaultValue": {"value": 5}}}}"#, "parameters.a.defaultValue.value",
                #"a string (Remote Config values are strings: write "5" for 5)"#
            ),
            (#"{"parameters": {"a": "text"}}"#, "parameters.a", #"an object such as {"defaultValue": {"value": "text"}}"#),
            (#"{"parameters": []}"#, "parameters", "an object of parameters keyed by name"),
            (#"{"parameters": {"a": {"defaultValue": {}}}}"#, "parameters.a.defaultValue", #"a "value" string or "useInAppDefault": true"#),
            (
                #"{"parameters": {"a": {"defaultValue": {"value": "1"}}}, "parameterGroups": {"g": {"parameters": {"a": {}}}}}"#,
                "parameterGroups.g.parameters.a", "each parameter once (a is defined twice)"
            ),
            (#"["a"]"#, "(top level)", #"a JSON object such as {"parameters": {"key": {"defaultValue": {"value": "text"}}}}"#),
        ]
        for (index, (json, path, expected)) in cases.enumerated() {
            let url = try write(json, to: "bad\(index).json")
            XCTAssertThrowsError(try FirebaseTestServer.RemoteConfigTemplate(contentsOf: url), json) { error in
                XCTAssertEqual(error as? FirebaseTestServerDataError, .invalidTemplate(file: url.path, path: path, expected: expected), json)
                XCTAssertTrue("\(error)".hasPrefix("the file \(url.path) is not a Remote Config template: at \(path), expected "), "\(error)")
            }
        }
        let broken = try write(#"{"parameters": {"#, to: "broken.json")
        XCTAssertThrowsError(try FirebaseTestServer.RemoteConfigTemplate(contentsOf: broken)) { error in
            guard case .invalidJSON(let file, _)? = error as? FirebaseTestServerDataError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, broken.path)
            XCTAssertTrue("\(error)".hasPrefix("the file \(broken.path) is not valid JSON: "), "\(error)")
        }
        let missing = folder.appendingPathComponent("missing.json")
        XCTAssertThrowsError(try FirebaseTestServer.RemoteConfigTemplate(contentsOf: missing)) { error in
            XCTAssertEqual(error as? FirebaseTestServerDataError, .unreadable(file: missing.path, reason: "no such file"))
            XCTAssertEqual("\(error)", "cannot read \(missing.path): no such file")
        }
    }

    func testPublishTemplate_servesTheTemplatesValuesForTheFetchingInstance() throws {
        let version = server.publishTemplate(try FirebaseTestServer.RemoteConfigTemplate(json: Data(Self.firebaseTemplate.utf8)))
        XCTAssertEqual(version, 1)
        let ios = try client.send(server.fetchRequest())
        XCTAssertEqual(ios.json?["entries"], ["welcome": "hi iOS", "only_conditional": "x", "steps": "3"], "the ios condition is true for an iOS app ID")
        let android = try client.send(server.fetchRequest(body: JSONValue.object(["app_id": "1:123:android:abc", "app_instance_id": "i2"]).data()))
        XCTAssertEqual(android.json, ["entries": ["welcome": "hi", "steps": "3"], "state": "UPDATE", "templateVersion": "1"])
        XCTAssertNotEqual(ios.header("ETag"), android.header("ETag"), "the ETag follows the values each instance gets")
    }

    // MARK: Database contents

    func testLoadDatabase_replacesTheTreeAndTellsStreams() throws {
        try server.setDatabaseValue("old", at: "gone")
        let stream = openSSE("/users")
        let url = try write(#"{"users": {"ann": {"name": "Ann"}}, "flags": {"beta": true}}"#, to: "db.json")
        try server.loadDatabase(contentsOf: url)
        XCTAssertEqual(try server.databaseValue(at: "/"), ["users": ["ann": ["name": "Ann"]], "flags": ["beta": true]])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/users/ann/name")).json, "Ann")
        wait(for: [stream.expectEvents(2)], timeout: networkTimeout)
        XCTAssertEqual(stream.events.last?.json, ["path": "/", "data": ["ann": ["name": "Ann"]]])
    }

    func testLoadDatabase_malformedContentsAreTypedErrorsAndWriteNothing() throws {
        try server.setDatabaseValue("kept", at: "a")
        let badKey = try write(#"{"a.b": 1}"#, to: "badkey.json")
        XCTAssertThrowsError(try server.loadDatabase(contentsOf: badKey)) { error in
            guard case .invalidDatabase(let file, let reason)? = error as? FirebaseTestServerDataError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, badKey.path)
            XCTAssertTrue(reason.contains("a.b"), reason)
            XCTAssertTrue("\(error)".hasPrefix("the file \(badKey.path) cannot be stored in the database: "), "\(error)")
        }
        let broken = try write("{", to: "broken.json")
        XCTAssertThrowsError(try server.loadDatabase(contentsOf: broken)) { error in
            guard case .invalidJSON(broken.path, _)? = error as? FirebaseTestServerDataError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try server.loadDatabase(contentsOf: folder.appendingPathComponent("none.json"))) { error in
            guard case .unreadable? = error as? FirebaseTestServerDataError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try server.databaseValue(at: "a"), "kept")
    }

    // MARK: Publishing over HTTP (the Remote Config REST API's template)

    private var templateURL: URL { URL(string: "\(server.baseURL)/v1/projects/\(server.project)/remoteConfig")! }

    func testPutTemplate_publishesAndTellsRealtimeClients() throws {
        server.publishTemplate(["a": "1"])
        let stream = openRealtime(lastKnownVersion: 1)
        let put = try client.send("PUT", templateURL, body: Data(Self.firebaseTemplate.utf8), headers: ["Content-Type": "application/json"])
        XCTAssertEqual(put.status, 200, put.text)
        XCTAssertEqual(put.header("ETag"), "etag-demo-project-2")
        XCTAssertEqual(put.json?["version"], ["versionNumber": "2"])
        XCTAssertEqual(put.json?["parameters"]?["steps"], ["defaultValue": ["value": "3"]])
        wait(for: [stream.expectMessages(1)], timeout: networkTimeout)
        XCTAssertEqual(stream.messages.map { try? JSONValue(parsing: $0) }, [["latestTemplateVersionNumber": "2"]])
        XCTAssertEqual(server.templateVersion, 2)
        XCTAssertEqual(server.templateEntries, ["welcome": "hi", "steps": "3"])
        XCTAssertEqual(try client.send(server.fetchRequest()).json?["entries"], ["welcome": "hi iOS", "only_conditional": "x", "steps": "3"])
        let get = try client.send("GET", templateURL)
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(get.json?["parameters"], put.json?["parameters"])
        XCTAssertEqual(get.header("ETag"), "etag-demo-project-2")
        XCTAssertEqual(server.requests(on: .remoteConfigTemplate).count, 2)
    }

    func testPutTemplate_ifMatchValidateOnlyAndErrors() throws {
        server.publishTemplate(["a": "1"])
        let body = Data(#"{"parameters": {"a": {"defaultValue": {"value": "2"}}}}"#.utf8)
        let stale = try client.send("PUT", templateURL, body: body, headers: ["If-Match": "etag-demo-project-0"])
        XCTAssertEqual(stale.status, 409)
        XCTAssertEqual(stale.json?["error"]?["status"], "ABORTED")
        let validated = try client.send("PUT", URL(string: "\(templateURL)?validateOnly=true")!, body: body)
        XCTAssertEqual(validated.status, 200)
        XCTAssertEqual(server.templateVersion, 1, "validateOnly publishes nothing")
        let malformed = try client.send("PUT", templateURL, body: Data(#"{"parameters": {"a": {"defaultValue": {"value": 2}}}}"#.utf8))
        XCTAssertEqual(malformed.status, 400)
        XCTAssertEqual(malformed.json?["error"]?["status"], "INVALID_ARGUMENT")
        XCTAssertTrue(
            malformed.json?["error"]?["message"]?.stringValue?.contains("at parameters.a.defaultValue.value, expected a string") == true, malformed.text)
        let badCondition = Data(
            #"{"conditions": [{"name": "ok", "expression": "device.os == 'ios'"}, {"name": "jp", "expression": "device.country in ['jp'] && app.audiences.inAtLeastOne(['a'])"}]}"#
                .utf8)
        let refused = try client.send("PUT", templateURL, body: badCondition)
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(refused.json?["error"]?["code"], 400)
        XCTAssertEqual(refused.json?["error"]?["status"], "INVALID_ARGUMENT")
        XCTAssertEqual(
            refused.json?["error"]?["message"],
            .string(
                "Invalid Remote Config template: the Remote Config template has an invalid condition \"jp\" at position 28: "
                    + "app.audiences is not supported (see the Remote Config conditions article)"))
        XCTAssertEqual(server.templateVersion, 1, "a template whose condition does not parse is not published")
        let forced = try client.send("PUT", templateURL, body: body, headers: ["If-Match": "*"])
        XCTAssertEqual(forced.status, 200)
        let current = try client.send("PUT", templateURL, body: body, headers: ["If-Match": "etag-demo-project-2"])
        XCTAssertEqual(current.status, 200)
        XCTAssertEqual(server.templateVersion, 3)
        let otherProject = try client.send("PUT", URL(string: "\(server.baseURL)/v1/projects/my-project/remoteConfig")!, body: body)
        XCTAssertEqual(otherProject.status, 403)
        XCTAssertEqual(server.templateVersion, 3)
    }

    // MARK: The admin token

    func testOwnerToken_isAcceptedWithoutRequiredTokens() throws {
        try server.setDatabaseValue(1, at: "a")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer owner"]).json, 1)
    }

    func testOwnerToken_isAcceptedWhenOtherTokensAreRequired() throws {
        try server.setDatabaseValue(1, at: "a")
        server.requireDatabaseAuth(validTokens: ["secret"])
        XCTAssertEqual(FirebaseTestServer.adminToken, "owner")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer owner"]).json, 1)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "owner"])).json, 1)
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/b"), json: 2, headers: ["Authorization": "Bearer owner"]).status, 200)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 401)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer someone"]).status, 401)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "secret"])).json, 1)
        server.revokeAuth("owner")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a"), headers: ["Authorization": "Bearer owner"]).status, 401, "revoked")
    }

    // MARK: Errors that say what is expected

    func testWrongAPIKey_saysWhichKeyIsAccepted() throws {
        let result = try client.send(server.fetchRequest(key: "wrong"))
        XCTAssertEqual(result.status, 400)
        let message = try XCTUnwrap(result.json?["error"]?["message"]?.stringValue)
        XCTAssertTrue(message.hasPrefix("API key not valid. Please pass a valid API key."), message)
        XCTAssertTrue(message.contains(#"accepts the API key "test-api-key""#), message)
        let missing = try client.send(server.fetchRequest(key: ""))
        XCTAssertTrue(missing.json?["error"]?["message"]?.stringValue?.contains(#""test-api-key""#) == true, missing.text)
    }

    func testExplainsRejectionsOff_answersWithGooglesMessageAlone() throws {
        server.explainsRejections = false
        XCTAssertFalse(server.explainsRejections)
        let key = try client.send(server.fetchRequest(key: "wrong"))
        XCTAssertEqual(key.json?["error"]?["message"], "API key not valid. Please pass a valid API key.")
        let project = try client.send(server.fetchRequest(project: "my-project"))
        XCTAssertEqual(project.json?["error"]?["message"], "Permission denied on resource project my-project.")
        XCTAssertEqual(try client.send("GET", URL(string: "\(server.baseURL)/nothing-here")!).json, ["error": "Not found: /nothing-here."])
    }

    func testWrongProject_saysWhichProjectIsServed() throws {
        let result = try client.send(server.fetchRequest(project: "my-project"))
        XCTAssertEqual(result.status, 403)
        XCTAssertEqual(result.json?["error"]?["status"], "PERMISSION_DENIED")
        let message = try XCTUnwrap(result.json?["error"]?["message"]?.stringValue)
        XCTAssertTrue(message.hasPrefix("Permission denied on resource project my-project."), message)
        XCTAssertTrue(message.contains(#"serves the project "demo-project" only"#), message)
        XCTAssertTrue(message.contains("--project my-project"), message)
    }

    func testWrongNamespace_andUnknownPath_sayWhatIsServed() throws {
        var request = server.fetchRequest()
        request.url = URL(string: "\(server.baseURL)/v1/projects/demo-project/namespaces/other:fetch?key=test-api-key")
        let namespace = try client.send(request)
        XCTAssertEqual(namespace.status, 404)
        XCTAssertTrue(namespace.json?["error"]?["message"]?.stringValue?.contains(#"serves the namespace "firebase" only"#) == true, namespace.text)
        let unknown = try client.send("GET", URL(string: "\(server.baseURL)/nothing-here")!)
        XCTAssertEqual(unknown.status, 404)
        let message = try XCTUnwrap(unknown.json?["error"]?.stringValue)
        XCTAssertTrue(message.hasPrefix("Not found: /nothing-here. FirebaseTestServer serves "), message)
        XCTAssertTrue(message.contains("POST /v1/projects/demo-project/namespaces/firebase:fetch?key=test-api-key"), message)
        XCTAssertTrue(message.contains("/{path}.json"), message)
    }

    // MARK: The port

    func testPort_canBeChosenAndAPortInUseIsATypedError() throws {
        XCTAssertThrowsError(try FirebaseTestServer(port: server.port)) { error in
            XCTAssertEqual(error as? FirebaseTestServerError, .portInUse(server.port))
            XCTAssertTrue("\(error)".contains("port \(server.port) on 127.0.0.1 is already in use"), "\(error)")
        }
        XCTAssertThrowsError(try FirebaseTestServer(port: 70000)) { error in
            XCTAssertEqual(error as? FirebaseTestServerError, .invalidPort(70000))
        }
        let port = server.port
        server.stop()
        let again = try FirebaseTestServer(port: port)
        defer { again.stop() }
        XCTAssertEqual(again.port, port)
        XCTAssertEqual(try client.send("GET", URL(string: "http://127.0.0.1:\(port)/a.json")!).status, 200)
    }
}
