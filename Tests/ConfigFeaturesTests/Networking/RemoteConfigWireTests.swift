import Foundation
import XCTest
import ConfigFeatures

final class RemoteConfigWireTests: XCTestCase {
    private let wire = RemoteConfigWire(
        project: "my-project",
        apiKey: "AIza key+/=",
        appID: "1:123:ios:abc",
        appInstanceID: "instance-1",
        sdkVersion: "11.0.0",
        languageCode: "en-US"
    )

    private func json(_ data: Data?) throws -> JSONValue {
        try JSONValue(parsing: try XCTUnwrap(data))
    }

    private func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> WireResponse {
        WireResponse(statusCode: status, headers: headers, body: Data(body.utf8))
    }

    private func assertError(_ response: WireResponse, _ expected: RemoteConfigBackendError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try wire.decodeFetchResponse(response, for: RemoteConfigFetchRequest()), file: file, line: line) { error in
            XCTAssertEqual(error as? RemoteConfigBackendError, expected, file: file, line: line)
        }
    }

    private func assertInvalidResponse(_ response: WireResponse, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try wire.decodeFetchResponse(response, for: RemoteConfigFetchRequest()), file: file, line: line) { error in
            guard case .invalidResponse? = error as? RemoteConfigBackendError else {
                return XCTFail("\(error)", file: file, line: line)
            }
        }
    }

    // MARK: - Fetch request

    func testRemoteConfigWire_fetchRequestURLAndHeaders() throws {
        let request = wire.fetchRequest(RemoteConfigFetchRequest())
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(
            request.url.absoluteString, "https://firebaseremoteconfig.googleapis.com/v1/projects/my-project/namespaces/firebase:fetch?key=AIza%20key%2B%2F%3D")
        XCTAssertEqual(
            request.headers,
            [
                "Content-Type": "application/json",
                "If-None-Match": "*",
                "X-Firebase-RC-Fetch-Type": "BASE/1",
                "X-Goog-Api-Key": "AIza key+/=",
            ])
    }

    func testRemoteConfigWire_appInfoFieldsAndIdentifierHeaders() throws {
        var ios = wire
        ios.appInfo = RemoteConfigAppInfo(
            platform: .apple, appIdentifier: "com.example.app", appVersion: "1.4.2", appBuild: "77",
            platformVersion: "17.2", countryCode: "jp", languageCode: "ja-JP", timeZone: "Asia/Tokyo"
        )
        ios.appInstanceIDToken = "fis-token"
        let fetch = ios.fetchRequest(RemoteConfigFetchRequest())
        XCTAssertEqual(
            try json(fetch.body),
            [
                "app_instance_id": "instance-1",
                "app_instance_id_token": "fis-token",
                "app_id": "1:123:ios:abc",
                "sdk_version": "11.0.0",
                "custom_signals": [:],
                "language_code": "ja-JP",
                "country_code": "jp",
                "platform_version": "17.2",
                "time_zone": "Asia/Tokyo",
                "package_name": "com.example.app",
                "app_version": "1.4.2",
                "app_build": "77",
            ])
        XCTAssertEqual(fetch.header("X-Ios-Bundle-Identifier"), "com.example.app")
        XCTAssertNil(fetch.header("X-Android-Package"))
        XCTAssertEqual(fetch.header("X-Goog-Firebase-Installations-Auth"), "fis-token")
        let realtime = ios.realtimeRequest(lastKnownTemplateVersion: 3, eTag: "etag-3")
        XCTAssertEqual(
            realtime.headers,
            [
                "Accept": "application/json",
                "Content-Type": "application/json",
                "If-None-Match": "etag-3",
                "X-Goog-Api-Key": "AIza key+/=",
                "X-Goog-Firebase-Installations-Auth": "fis-token",
                "X-Google-GFE-Can-Retry": "true",
                "X-Ios-Bundle-Identifier": "com.example.app",
            ])

        var android = ios
        android.appInfo.platform = .android
        XCTAssertEqual(android.fetchRequest(RemoteConfigFetchRequest()).header("X-Android-Package"), "com.example.app")
        XCTAssertNil(android.fetchRequest(RemoteConfigFetchRequest()).header("X-Ios-Bundle-Identifier"))
        var server = ios
        server.appInfo.platform = .other
        XCTAssertNil(server.fetchRequest(RemoteConfigFetchRequest()).header("X-Ios-Bundle-Identifier"))
        XCTAssertNil(server.fetchRequest(RemoteConfigFetchRequest()).header("X-Android-Package"))
        XCTAssertNil(wire.realtimeRequest(lastKnownTemplateVersion: nil).header("If-None-Match"), "no ETag known yet")
        XCTAssertNil(wire.realtimeRequest(lastKnownTemplateVersion: nil).header("X-Goog-Firebase-Installations-Auth"), "no token")
    }

    func testRemoteConfigAppInfo_currentReadsTheProcess() {
        let current = RemoteConfigAppInfo.current
        XCTAssertEqual(current.timeZone, TimeZone.current.identifier)
        XCTAssertFalse(current.languageCode.isEmpty)
        XCTAssertEqual(current.countryCode, current.countryCode?.lowercased(), "lower-cased as the iOS SDK sends it")
        let os = ProcessInfo.processInfo.operatingSystemVersion
        XCTAssertEqual(current.platformVersion?.hasPrefix("\(os.majorVersion).\(os.minorVersion)"), true)
        #if canImport(Darwin)
        XCTAssertEqual(current.platform, .apple)
        #else
        XCTAssertEqual(current.platform, .other)
        XCTAssertEqual(current.identifierHeaders, [:], "no bundle on Linux, no app header")
        #endif
    }

    func testRemoteConfigWire_fetchRequestSendsTheStoredETagAndTheFetchType() {
        let request = wire.fetchRequest(RemoteConfigFetchRequest(eTag: "etag-7", lastKnownTemplateVersion: 7, fetchType: .realtime(attempt: 3)))
        XCTAssertEqual(request.header("if-none-match"), "etag-7")
        XCTAssertEqual(request.header("X-Firebase-RC-Fetch-Type"), "REALTIME/3")
        XCTAssertEqual(RemoteConfigWire.fetchTypeHeader(.realtime(attempt: 1)), "REALTIME/1")
    }

    func testRemoteConfigWire_fetchRequestBody() throws {
        let request = wire.fetchRequest(RemoteConfigFetchRequest(customSignals: ["tier": "gold", "level": "3"]))
        XCTAssertEqual(
            try json(request.body),
            [
                "app_instance_id": "instance-1",
                "app_id": "1:123:ios:abc",
                "sdk_version": "11.0.0",
                "language_code": "en-US",
                "custom_signals": ["tier": "gold", "level": "3"],
            ])
        var withToken = wire
        withToken.appInstanceIDToken = "token"
        XCTAssertEqual(try json(withToken.fetchRequest(RemoteConfigFetchRequest()).body)["app_instance_id_token"], "token")
        XCTAssertEqual(try json(wire.fetchRequest(RemoteConfigFetchRequest()).body)["custom_signals"], [:])
    }

    func testRemoteConfigWire_percentEncodesProjectAndNamespaceAndKeepsABasePathPrefix() {
        var custom = wire
        custom.fetchBaseURL = URL(string: "http://127.0.0.1:8123/rc/")!
        custom.project = "a/b c"
        custom.namespace = "ns:1"
        XCTAssertEqual(custom.fetchURL.absoluteString, "http://127.0.0.1:8123/rc/v1/projects/a%2Fb%20c/namespaces/ns%3A1:fetch?key=AIza%20key%2B%2F%3D")
    }

    // MARK: - Fetch response

    func testRemoteConfigWire_decodesUpdate() throws {
        let body = #"{"state":"UPDATE","entries":{"a":"1","b":"{\"x\":true}"},"templateVersion":"12","experimentDescriptions":[]}"#
        XCTAssertEqual(
            try wire.decodeFetchResponse(response(200, body, headers: ["etag": "e12"]), for: RemoteConfigFetchRequest()),
            .updated(entries: ["a": "1", "b": #"{"x":true}"#], templateVersion: 12, eTag: "e12")
        )
        XCTAssertEqual(
            try wire.decodeFetchResponse(response(200, #"{"state":"UPDATE","templateVersion":13}"#), for: RemoteConfigFetchRequest()),
            .updated(entries: [:], templateVersion: 13, eTag: nil),
            "no entries: an empty config; a numeric version; no ETag header"
        )
    }

    func testRemoteConfigWire_decodesTheOtherStates() throws {
        let request = RemoteConfigFetchRequest(eTag: "old", lastKnownTemplateVersion: 4)
        XCTAssertEqual(
            try wire.decodeFetchResponse(response(200, #"{"state":"NO_CHANGE","templateVersion":"5"}"#, headers: ["ETag": "new"]), for: request),
            .noChange(templateVersion: 5, eTag: "new"))
        XCTAssertEqual(
            try wire.decodeFetchResponse(response(200, #"{"state":"NO_CHANGE"}"#), for: request), .noChange(templateVersion: 4, eTag: "old"),
            "falls back to the request's")
        XCTAssertEqual(try wire.decodeFetchResponse(response(200, #"{"state":"NO_TEMPLATE"}"#, headers: ["ETag": "e"]), for: request), .noTemplate(eTag: "e"))
        XCTAssertEqual(
            try wire.decodeFetchResponse(response(200, #"{"state":"EMPTY_CONFIG","templateVersion":9}"#, headers: ["ETAG": "e"]), for: request),
            .emptyConfig(templateVersion: 9, eTag: "e"))
    }

    func testRemoteConfigWire_notModifiedKeepsTheRequestsETagAndVersion() throws {
        let request = RemoteConfigFetchRequest(eTag: "etag-3", lastKnownTemplateVersion: 3)
        XCTAssertEqual(try wire.decodeFetchResponse(WireResponse(statusCode: 304), for: request), .noChange(templateVersion: 3, eTag: "etag-3"))
        XCTAssertEqual(try wire.decodeFetchResponse(WireResponse(statusCode: 304), for: RemoteConfigFetchRequest()), .noChange(templateVersion: nil, eTag: nil))
    }

    func testRemoteConfigWire_mapsHTTPFailures() {
        assertError(response(429, ""), .rateLimited)
        for status in [500, 503, 504] { assertError(response(status, "<html>"), .unavailable(statusCode: status)) }
        assertError(
            response(400, #"{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}"#),
            .http(statusCode: 400, message: "API key not valid."))
        assertError(response(403, #"{"error":{"code":403,"status":"PERMISSION_DENIED"}}"#), .http(statusCode: 403, message: "PERMISSION_DENIED"))
        assertError(response(404, "Not Found\n"), .http(statusCode: 404, message: "Not Found"))
        assertError(response(502, ""), .http(statusCode: 502, message: "no details"))
        assertError(response(201, "{}"), .invalidResponse(message: "unexpected HTTP status 201"))
        assertError(response(302, ""), .invalidResponse(message: "unexpected HTTP status 302"))
        assertError(response(200, #"{"state":"INSTANCE_STATE_UNSPECIFIED"}"#), .unavailable(statusCode: 500))
    }

    func testRemoteConfigWire_malformedBodiesAreInvalidResponses() {
        assertInvalidResponse(response(200, ""))
        assertInvalidResponse(response(200, "{not json"))
        assertInvalidResponse(response(200, "[]"))
        assertInvalidResponse(response(200, #"{"entries":{}}"#))
        assertInvalidResponse(response(200, #"{"state":"SOMETHING_NEW"}"#))
        assertInvalidResponse(response(200, #"{"state":3}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","entries":[]}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","entries":{"a":1}}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","templateVersion":"v1"}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","templateVersion":1.5}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","templateVersion":-1}"#))
        assertInvalidResponse(response(200, #"{"state":"UPDATE","templateVersion":true}"#))
    }

    // MARK: - Realtime

    func testRemoteConfigWire_realtimeRequest() throws {
        let request = wire.realtimeRequest(lastKnownTemplateVersion: 42)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(
            request.url.absoluteString,
            "https://firebaseremoteconfigrealtime.googleapis.com/v1/projects/my-project/namespaces/firebase:streamFetchInvalidations?key=AIza%20key%2B%2F%3D")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(
            try json(request.body),
            [
                "project": "my-project",
                "namespace": "firebase",
                "lastKnownVersionNumber": "42",
                "appId": "1:123:ios:abc",
                "sdkVersion": "11.0.0",
                "appInstanceId": "instance-1",
            ])
        XCTAssertEqual(try json(wire.realtimeRequest(lastKnownTemplateVersion: nil).body)["lastKnownVersionNumber"], "0")
    }

    func testRemoteConfigWire_realtimeStreamStatus() {
        XCTAssertNil(RemoteConfigWire.realtimeStreamError(for: WireResponse(statusCode: 200)))
        XCTAssertEqual(RemoteConfigWire.realtimeStreamError(for: WireResponse(statusCode: 429)), .rateLimited)
        for status in [500, 502, 503, 504] {
            XCTAssertEqual(RemoteConfigWire.realtimeStreamError(for: WireResponse(statusCode: status)), .unavailable(statusCode: status))
        }
        XCTAssertEqual(RemoteConfigWire.realtimeStreamError(for: response(403, #"{"error":{"message":"denied"}}"#)), .http(statusCode: 403, message: "denied"))
        XCTAssertEqual(RemoteConfigWire.realtimeStreamError(for: WireResponse(statusCode: 204)), .invalidResponse(message: "unexpected HTTP status 204"))
    }
}
