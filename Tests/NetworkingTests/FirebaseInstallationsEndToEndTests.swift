import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `FirebaseInstallations` and `HTTPRemoteConfigBackend` (over the real `URLSessionTransport`)
/// against the loopback server's Installations endpoints: registration, token refresh, the
/// 401/404 re-registration, faults on create, persistence, and Remote Config requests carrying
/// the installation's ID and token to a server that checks them.
final class FirebaseInstallationsEndToEndTests: FirebaseTestServerTestCase {
    private let appID = "1:1234:ios:abcd"

    private func record(_ installations: FirebaseInstallations, forcingRefresh: Bool = false) throws -> FirebaseInstallationsRecord {
        try installations.installation(forcingRefresh: forcingRefresh).toBlocking(timeout: networkTimeout).single()
    }

    private func failure(_ installations: FirebaseInstallations) -> FirebaseInstallationsError? {
        guard case .failed(_, let error) = installations.installation().toBlocking(timeout: networkTimeout).materialize() else { return nil }
        return error as? FirebaseInstallationsError
    }

    private func backend(installations: FirebaseInstallations) -> HTTPRemoteConfigBackend {
        HTTPRemoteConfigBackend(
            project: server.project, apiKey: server.apiKey, appID: appID, installations: installations,
            fetchBaseURL: server.remoteConfigBaseURL, realtimeBaseURL: server.remoteConfigBaseURL,
            appInfo: RemoteConfigAppInfo(platform: .apple, appIdentifier: "com.example.app", appVersion: "2.1.0", appBuild: "42", languageCode: "ja-JP"),
            fetchTimeout: networkTimeout
        )
    }

    // MARK: - Installations

    func testRegistration_usesTheServersAnswerAndSendsTheSDKsRequest() throws {
        let installations = server.makeInstallations()
        let registered = try record(installations)
        XCTAssertTrue(FirebaseInstallations.isValidFID(registered.fid))
        XCTAssertEqual(server.installations.map(\.fid), [registered.fid])
        XCTAssertEqual(server.installations.first?.appID, appID)
        XCTAssertEqual(server.installations.first?.sdkVersion, FirebaseInstallations.defaultSDKVersion)
        let create = try XCTUnwrap(server.requests(on: .installationsCreate).first)
        XCTAssertEqual(create.path, "/v1/projects/\(server.project)/installations")
        XCTAssertEqual(create.header("x-goog-api-key"), server.apiKey)
        XCTAssertEqual(create.bodyJSON?["authVersion"], "FIS_v2")
        XCTAssertEqual(create.bodyJSON?["fid"]?.stringValue, registered.fid, "the proposed FID was valid, so the server kept it")

        XCTAssertEqual(try record(installations), registered, "a valid token is served without a request")
        XCTAssertEqual(server.requests.count, 1)
    }

    func testShortLivedToken_isRefreshedWithTheRefreshToken() throws {
        server.installationAuthTokenLifetime = 30 * 60  // inside the SDK's one-hour margin
        let installations = server.makeInstallations()
        let first = try record(installations)
        let second = try record(installations)
        XCTAssertEqual(second.fid, first.fid)
        XCTAssertNotEqual(second.authToken?.token, first.authToken?.token)
        let refresh = try XCTUnwrap(server.requests(on: .installationsAuthToken).first)
        XCTAssertEqual(refresh.path, "/v1/projects/\(server.project)/installations/\(first.fid)/authTokens:generate")
        XCTAssertEqual(refresh.header("authorization"), "FIS_v2 \(try XCTUnwrap(first.refreshToken))")
        XCTAssertEqual(server.installations.first?.issuedAuthTokens, 2)
    }

    func testRevokedRefreshToken401_andDeletedInstallation404_registerANewInstallation() throws {
        let installations = server.makeInstallations()
        let first = try record(installations)

        server.revokeInstallationRefreshTokens()
        let second = try record(installations, forcingRefresh: true)
        XCTAssertNotEqual(second.fid, first.fid, "401: a new installation")

        XCTAssertTrue(server.deleteInstallation(second.fid))
        let third = try record(installations, forcingRefresh: true)
        XCTAssertNotEqual(third.fid, second.fid, "404: a new installation")
        XCTAssertEqual(
            server.requests.map { $0.route },
            [.installationsCreate, .installationsAuthToken, .installationsCreate, .installationsAuthToken, .installationsCreate])
        XCTAssertEqual(try installations.storage.load(), third, "the new installation replaced the old one in storage")
    }

    func testInjected401OnRefresh_registersAgain() throws {
        let installations = server.makeInstallations()
        let first = try record(installations)
        server.inject(.status(401, route: .installationsAuthToken))
        let second = try record(installations, forcingRefresh: true)
        XCTAssertNotEqual(second.fid, first.fid)
        XCTAssertEqual(server.pendingFaults, [])
    }

    func testFaultsOnCreate_areTypedAndNotCached() throws {
        let installations = server.makeInstallations()
        server.inject(.status(429, route: .installationsCreate))
        XCTAssertEqual(failure(installations), .rateLimited)
        server.inject(.status(503, route: .installationsCreate))
        XCTAssertEqual(failure(installations), .unavailable(statusCode: 503))
        server.inject(.disconnect(route: .installationsCreate))
        guard case .network? = failure(installations) else { return XCTFail("a dropped connection is a network error") }
        XCTAssertTrue(FirebaseInstallations.isValidFID(try record(installations).fid), "the next call registers")
        XCTAssertEqual(server.requests(on: .installationsCreate).count, 4)
        XCTAssertEqual(
            Set(server.requests(on: .installationsCreate).compactMap { $0.bodyJSON?["fid"]?.stringValue }).count, 1, "the same FID is proposed each time")
    }

    func testWrongAPIKey_isAnHTTPErrorWithGooglesMessage() {
        let installations = FirebaseInstallations(
            projectID: server.project, apiKey: "wrong", appID: appID, storage: InMemoryFirebaseInstallationsStorage(), baseURL: server.installationsBaseURL,
            requestTimeout: networkTimeout)
        // Google's message, then which key the test server accepts.
        XCTAssertEqual(
            failure(installations),
            .http(
                statusCode: 400,
                message: "API key not valid. Please pass a valid API key. FirebaseTestServer accepts the API key \"test-api-key\" only "
                    + "(pass it as ?key= or X-Goog-Api-Key; start the server with --api-key, or FirebaseTestServer(apiKey:) in Swift, to accept another)."))
    }

    func testFileStorage_keepsTheInstallationAcrossLaunches() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fis-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fileURL = directory.appendingPathComponent("Installations.json")
        let first = try record(server.makeInstallations(storage: FileFirebaseInstallationsStorage(fileURL: fileURL)))
        let relaunched = try record(server.makeInstallations(storage: FileFirebaseInstallationsStorage(fileURL: fileURL)))
        XCTAssertEqual(relaunched, first)
        XCTAssertEqual(server.requests.count, 1, "no second registration")
    }

    // MARK: - Remote Config with Installations

    func testRemoteConfig_sendsTheInstallationToAServerThatRequiresIt() throws {
        server.requiresInstallationAuth = true
        server.publishTemplate(["greeting": "hi"])
        let installations = server.makeInstallations()
        let backend = backend(installations: installations)
        let fetched = try backend.fetch(RemoteConfigFetchRequest()).toBlocking(timeout: networkTimeout).single()
        guard case .updated = fetched else { return XCTFail("\(fetched)") }
        let record = try self.record(installations)
        let fetch = try XCTUnwrap(server.remoteConfigFetches.first)
        XCTAssertEqual(fetch.appInstanceID, record.fid)
        XCTAssertEqual(fetch.appInstanceIDToken, record.authToken?.token)
        XCTAssertEqual(fetch.body["package_name"], "com.example.app")
        XCTAssertEqual(fetch.body["app_version"], "2.1.0")
        XCTAssertEqual(fetch.body["app_build"], "42")
        XCTAssertEqual(fetch.languageCode, "ja-JP")
        let request = try XCTUnwrap(server.requests(on: .remoteConfigFetch).first)
        XCTAssertEqual(request.header("x-goog-firebase-installations-auth"), record.authToken?.token)
        XCTAssertEqual(request.header("x-goog-api-key"), server.apiKey)
        XCTAssertEqual(request.header("x-ios-bundle-identifier"), "com.example.app")

        // The realtime stream: the same identity, the fetch's ETag, and the SDK's retry header.
        let invalidations = EventRecorder(backend.realtimeInvalidations(lastKnownTemplateVersion: nil))
        XCTAssertTrue(invalidations.waitForElements(1), "\(invalidations.events)")
        let realtime = try XCTUnwrap(server.requests(on: .remoteConfigRealtime).first)
        XCTAssertEqual(realtime.bodyJSON?["appInstanceId"]?.stringValue, record.fid)
        XCTAssertEqual(realtime.header("x-goog-firebase-installations-auth"), record.authToken?.token)
        XCTAssertEqual(realtime.header("if-none-match"), server.remoteConfigETag)
        XCTAssertEqual(realtime.header("x-google-gfe-can-retry"), "true")
        invalidations.dispose()
        XCTAssertEqual(server.requests(on: .installationsCreate).count, 1, "one registration serves every request")
    }

    func testRemoteConfig_withoutAnInstallationToken_isRejectedByAServerThatRequiresIt() {
        server.requiresInstallationAuth = true
        let backend = HTTPRemoteConfigBackend(
            project: server.project, apiKey: server.apiKey, appID: appID, appInstanceID: "fixed-instance",
            fetchBaseURL: server.remoteConfigBaseURL, realtimeBaseURL: server.remoteConfigBaseURL, fetchTimeout: networkTimeout
        )
        XCTAssertNil(backend.installations, "an explicit instance ID makes no Installations request")
        guard case .failed(_, let error) = backend.fetch(RemoteConfigFetchRequest()).toBlocking(timeout: networkTimeout).materialize(),
            case .http(401, let message)? = error as? RemoteConfigBackendError
        else {
            return XCTFail("a 401 was expected")
        }
        XCTAssertTrue(message.contains("no Firebase Installations auth token"), message)
        XCTAssertTrue(server.requests(on: .installationsCreate).isEmpty)
    }

    func testRemoteConfig_anInstallationsFailureFailsTheFetchWithAThrottlingError() {
        let backend = backend(installations: server.makeInstallations())
        server.inject(.status(503, route: .installationsCreate))
        guard case .failed(_, let error) = backend.fetch(RemoteConfigFetchRequest()).toBlocking(timeout: networkTimeout).materialize() else {
            return XCTFail("the fetch should fail")
        }
        XCTAssertEqual(error as? RemoteConfigBackendError, .unavailable(statusCode: 503), "starts RemoteConfig's throttling backoff")
        XCTAssertTrue(server.requests(on: .remoteConfigFetch).isEmpty, "no fetch without an installation")
    }
}
