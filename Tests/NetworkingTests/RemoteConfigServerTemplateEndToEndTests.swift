import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `RemoteConfigServerTemplate.load()` against the loopback `FirebaseTestServer`'s
/// `firebase-server` namespace, with its faults, and the server's REST endpoint and tool flag.
final class RemoteConfigServerTemplateEndToEndTests: FirebaseTestServerTestCase {
    static let templateJSON = """
        {"conditions": [{"name": "gold", "condition": {"customSignal": {"customSignalOperator": "STRING_EXACTLY_MATCHES",
             "customSignalKey": "tier", "targetCustomSignalValues": ["gold"]}}}],
         "parameters": {"limit": {"defaultValue": {"value": "10"}, "conditionalValues": {"gold": {"value": "50"}}}}}
        """

    private func makeTemplate(apiKey: String? = nil) throws -> RemoteConfigServerTemplate {
        RemoteConfigServerTemplate(
            project: server.project, apiKey: apiKey ?? server.apiKey, endpoints: server.endpoints, defaults: ["extra": "1"], timeout: networkTimeout)
    }

    private func load(_ template: RemoteConfigServerTemplate) -> RemoteConfigServerTemplateError? {
        switch template.load().toBlocking(timeout: networkTimeout).materialize() {
        case .completed: return nil
        case .failed(_, let error): return error as? RemoteConfigServerTemplateError ?? .network(message: "unexpected \(error)")
        }
    }

    private func limit(_ template: RemoteConfigServerTemplate, tier: String) -> RemoteConfigServerValue {
        template.evaluate(randomizationID: "user-1", customSignals: ["tier": tier]).value(forKey: "limit")
    }

    func testLoad_fetchesThePublishedTemplateAndEvaluatesIt() throws {
        try XCTAssertNoLeaksEventually {
            XCTAssertEqual(try server.publishServerTemplate(Data(Self.templateJSON.utf8)), 1)
            let template = try makeTemplate()
            XCTAssertNil(load(template))
            XCTAssertEqual(limit(template, tier: "gold"), RemoteConfigServerValue(string: "50", source: .remote))
            XCTAssertEqual(limit(template, tier: "silver"), RemoteConfigServerValue(string: "10", source: .remote))
            XCTAssertEqual(template.evaluate(randomizationID: nil, customSignals: [:]).value(forKey: "extra").source, .default)
            XCTAssertEqual(template.versionNumber, "1")
            XCTAssertEqual(template.eTag, "etag-\(server.project)-server-1")
            let request = try XCTUnwrap(server.requests(on: .remoteConfigServerTemplate).last)
            XCTAssertEqual(request.method, "GET")
        }
    }

    func testLoad_serverErrorKeepsTheCachedTemplate() throws {
        try XCTAssertNoLeaksEventually {
            try server.publishServerTemplate(Data(Self.templateJSON.utf8))
            let template = try makeTemplate()
            XCTAssertNil(load(template))
            try server.publishServerTemplate(Data(#"{"parameters": {"limit": {"defaultValue": {"value": "99"}}}}"#.utf8))
            server.inject(.status(500, route: .remoteConfigServerTemplate))
            guard case .http(500, _)? = load(template) else { return XCTFail("expected HTTP 500") }
            XCTAssertEqual(limit(template, tier: "gold").stringValue, "50")
            XCTAssertEqual(template.versionNumber, "1")
            XCTAssertNil(load(template))
            XCTAssertEqual(limit(template, tier: "gold").stringValue, "99")
        }
    }

    func testLoad_malformedBodyIsATypedErrorAndKeepsTheCache() throws {
        try XCTAssertNoLeaksEventually {
            try server.publishServerTemplate(Data(Self.templateJSON.utf8))
            let template = try makeTemplate()
            XCTAssertNil(load(template))
            server.inject(.malformedJSON(route: .remoteConfigServerTemplate))
            guard case .invalidJSON? = load(template) else { return XCTFail("expected invalidJSON") }
            XCTAssertEqual(limit(template, tier: "gold").stringValue, "50")
        }
    }

    func testLoad_unauthorizedAndWrongKeyAreHTTPErrorsWithoutTheKey() throws {
        try XCTAssertNoLeaksEventually {
            try server.publishServerTemplate(Data(Self.templateJSON.utf8))
            server.inject(.status(401, route: .remoteConfigServerTemplate))
            let template = try makeTemplate()
            guard case .http(401, _)? = load(template) else { return XCTFail("expected HTTP 401") }
            XCTAssertFalse(template.isLoaded)
            let wrongKey = try makeTemplate(apiKey: "secret-wrong-key")
            let error = load(wrongKey)
            guard case .http(400, let message)? = error else { return XCTFail("expected HTTP 400, got \(String(describing: error))") }
            XCTAssertTrue(message.contains("API key not valid"), message)
            XCTAssertFalse(String(describing: error).contains("secret-wrong-key"))
        }
    }

    func testLoad_withoutATemplateIs404() throws {
        let template = try makeTemplate()
        guard case .http(404, _)? = load(template) else { return XCTFail("expected HTTP 404") }
    }

    func testLoad_unreachableServerIsANetworkError() throws {
        let port = server.port
        server.stop()
        let template = RemoteConfigServerTemplate(
            project: "demo-project", apiKey: "secret-key-xyz", endpoints: try FirebaseEndpoints.emulator(port: port), timeout: networkTimeout)
        let error = load(template)
        guard case .network? = error else { return XCTFail("expected a network error") }
        XCTAssertFalse(String(describing: error).contains("secret-key-xyz"))
    }

    func testREST_getNeedsACredentialAndPutPublishes() throws {
        let url = server.serverTemplateURL
        XCTAssertEqual(try client.send("GET", url).status, 401)
        XCTAssertEqual(try client.send("GET", url, headers: ["Authorization": "Bearer owner"]).status, 404)
        let bad = try client.send("PUT", url, body: Data(#"{"conditions": 3}"#.utf8), headers: ["Authorization": "Bearer owner"])
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.text.contains("conditions"), bad.text)
        let put = try client.send("PUT", url, body: Data(Self.templateJSON.utf8), headers: ["Authorization": "Bearer owner"])
        XCTAssertEqual(put.status, 200)
        XCTAssertEqual(server.serverTemplateVersion, 1)
        let get = try client.send("GET", url, headers: ["Authorization": "Bearer ya29.any"])
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(get.json?["version"]?["versionNumber"], "1")
        XCTAssertEqual(get.header("ETag"), "etag-\(server.project)-server-1")
        XCTAssertEqual(get.json?["parameters"]?["limit"]?["defaultValue"]?["value"], "10")
    }

    func testPublish_refusesAnInvalidTemplate() {
        XCTAssertThrowsError(try server.publishServerTemplate(Data("nope".utf8)))
        XCTAssertNil(server.serverTemplateVersion)
    }
}
