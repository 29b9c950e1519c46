import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// One setting points every Firebase endpoint at a test server, and a configuration that would
/// send part of a test's traffic to a production host is refused before anything is sent.
final class FirebaseEndpointsTests: FirebaseTestServerTestCase {
    func testEmulator_pointsEveryServiceAtOneHost() throws {
        let endpoints = try FirebaseEndpoints.emulator(port: 9000, databaseNamespace: "demo-db")
        let root = URL(string: "http://127.0.0.1:9000")!
        XCTAssertEqual(endpoints.remoteConfigFetch, root)
        XCTAssertEqual(endpoints.remoteConfigRealtime, root)
        XCTAssertEqual(endpoints.installations, root)
        XCTAssertEqual(endpoints.database, URL(string: "http://127.0.0.1:9000?ns=demo-db"))
        XCTAssertEqual(endpoints.identityToolkit, URL(string: "http://127.0.0.1:9000/identitytoolkit.googleapis.com"))
        XCTAssertEqual(endpoints.secureToken, URL(string: "http://127.0.0.1:9000/securetoken.googleapis.com"))
        XCTAssertTrue(endpoints.isLocal)
        XCTAssertEqual(try FirebaseEndpoints.emulator(host: "::1", port: 8080).installations, URL(string: "http://[::1]:8080"))
        XCTAssertFalse(FirebaseEndpoints.production.isLocal)
        XCTAssertNil(FirebaseEndpoints.production.database)
        XCTAssertEqual(FirebaseEndpoints.production.installations.host, "firebaseinstallations.googleapis.com")
        XCTAssertEqual(FirebaseEndpoints.production.identityToolkit, URL(string: "https://identitytoolkit.googleapis.com"))
        XCTAssertEqual(FirebaseEndpoints.production.secureToken, URL(string: "https://securetoken.googleapis.com"))
        XCTAssertTrue(endpoints.description.contains("identityToolkit: http://127.0.0.1:9000/identitytoolkit.googleapis.com"), endpoints.description)
        XCTAssertTrue(endpoints.description.contains("secureToken: http://127.0.0.1:9000/securetoken.googleapis.com"), endpoints.description)
    }

    func testAuthHosts_followInstallationsWhenNotNamed_andCountInTheMixedCheck() throws {
        let local = URL(string: "http://127.0.0.1:9000/")!
        let derived = try FirebaseEndpoints(remoteConfigFetch: local, remoteConfigRealtime: local, installations: local)
        XCTAssertEqual(derived.identityToolkit, URL(string: "http://127.0.0.1:9000/identitytoolkit.googleapis.com"))
        XCTAssertEqual(derived.secureToken, URL(string: "http://127.0.0.1:9000/securetoken.googleapis.com"))
        let remote = FirebaseEndpoints.production
        let production = try FirebaseEndpoints(
            remoteConfigFetch: remote.remoteConfigFetch, remoteConfigRealtime: remote.remoteConfigRealtime, installations: remote.installations)
        XCTAssertEqual(production, remote)
        // A local Remote Config with production Auth is refused, and so is the reverse.
        XCTAssertThrowsError(
            try FirebaseEndpoints(
                remoteConfigFetch: local, remoteConfigRealtime: local, installations: local, identityToolkit: remote.identityToolkit,
                secureToken: derived.secureToken)
        ) {
            XCTAssertEqual(
                $0 as? FirebaseEndpointsError,
                .mixed(local: ["remoteConfigFetch", "remoteConfigRealtime", "installations", "secureToken"], remote: ["identityToolkit"]))
        }
        XCTAssertThrowsError(
            try FirebaseEndpoints(
                remoteConfigFetch: remote.remoteConfigFetch, remoteConfigRealtime: remote.remoteConfigRealtime, installations: remote.installations,
                identityToolkit: remote.identityToolkit, secureToken: URL(string: "http://localhost:9099/securetoken.googleapis.com")!)
        ) {
            XCTAssertEqual(
                $0 as? FirebaseEndpointsError,
                .mixed(local: ["secureToken"], remote: ["remoteConfigFetch", "remoteConfigRealtime", "installations", "identityToolkit"]))
        }
        XCTAssertThrowsError(
            try FirebaseEndpoints(
                remoteConfigFetch: local, remoteConfigRealtime: local, installations: local, identityToolkit: URL(string: "file:///x")!,
                secureToken: derived.secureToken)
        ) {
            XCTAssertEqual(
                $0 as? FirebaseEndpointsError, .invalidURL(endpoint: "identityToolkit", url: "file:///x", reason: "the scheme must be http or https"))
        }
    }

    func testTheServersEndpoints_nameTheAuthEmulatorPaths() {
        XCTAssertEqual(server.endpoints.identityToolkit, server.baseURL.appendingPathComponent("identitytoolkit.googleapis.com"))
        XCTAssertEqual(server.endpoints.secureToken, server.baseURL.appendingPathComponent("securetoken.googleapis.com"))
        XCTAssertTrue(server.endpoints.isLocal)
    }

    func testEndpoints_badInputIsATypedError() {
        XCTAssertThrowsError(try FirebaseEndpoints.emulator(port: 0)) { XCTAssertEqual($0 as? FirebaseEndpointsError, .invalidPort(0)) }
        XCTAssertThrowsError(try FirebaseEndpoints.emulator(port: 70_000)) { XCTAssertEqual($0 as? FirebaseEndpointsError, .invalidPort(70_000)) }
        let local = URL(string: "http://127.0.0.1:9000")!
        XCTAssertThrowsError(try FirebaseEndpoints(remoteConfigFetch: URL(string: "ftp://127.0.0.1")!, remoteConfigRealtime: local, installations: local)) {
            XCTAssertEqual(
                $0 as? FirebaseEndpointsError, .invalidURL(endpoint: "remoteConfigFetch", url: "ftp://127.0.0.1", reason: "the scheme must be http or https"))
        }
    }

    // Fails on ce3e235 (no such check): the Networking article's snippet pointed Remote Config at
    // the test server and left Installations on Google's host.
    func testEndpoints_mixingThisMachineWithRemoteHosts_isRefused() {
        let local = URL(string: "http://127.0.0.1:9000")!
        XCTAssertThrowsError(
            try FirebaseEndpoints(remoteConfigFetch: local, remoteConfigRealtime: local, installations: FirebaseEndpoints.production.installations)
        ) { error in
            XCTAssertEqual(error as? FirebaseEndpointsError, .mixed(local: ["remoteConfigFetch", "remoteConfigRealtime"], remote: ["installations"]))
            XCTAssertTrue("\(error)".contains("point every endpoint at the test server or emulator"), "\(error)")
        }
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "api.localhost"] {
            XCTAssertNoThrow(
                try FirebaseEndpoints(
                    remoteConfigFetch: URL(string: "http://\(host):1")!, remoteConfigRealtime: local, installations: local,
                    database: URL(string: "http://\(host):2")!), host)
        }
        for host in ["128.0.0.1", "127.0.0.1.example.com", "10.0.0.1", "example.com"] {
            XCTAssertThrowsError(
                try FirebaseEndpoints(remoteConfigFetch: URL(string: "http://\(host):1")!, remoteConfigRealtime: local, installations: local), host)
        }
    }

    // Fails on ce3e235: the backend registered with firebaseinstallations.googleapis.com (and
    // stored the record under the home folder) before fetching from the test server.
    func testBackend_withTheServersFetchHostButGooglesInstallations_sendsNothingAndFailsTyped() {
        let backend = HTTPRemoteConfigBackend(
            project: server.project, apiKey: server.apiKey, appID: "1:1:ios:1",
            fetchBaseURL: server.remoteConfigBaseURL, realtimeBaseURL: server.remoteConfigBaseURL)
        let expected = FirebaseEndpointsError.mixed(local: ["remoteConfigFetch", "remoteConfigRealtime"], remote: ["installations"])
        XCTAssertEqual(backend.misconfiguration, expected)
        switch backend.fetch(RemoteConfigFetchRequest()).toBlocking(timeout: networkTimeout).materialize() {
        case .completed(let elements): XCTFail("fetched \(elements)")
        case .failed(_, let error): XCTAssertEqual(error as? RemoteConfigBackendError, .misconfigured(expected))
        }
        switch backend.realtimeInvalidations(lastKnownTemplateVersion: nil).toBlocking(timeout: networkTimeout).materialize() {
        case .completed(let elements): XCTFail("streamed \(elements)")
        case .failed(_, let error): XCTAssertEqual(error as? RemoteConfigBackendError, .misconfigured(expected))
        }
        XCTAssertEqual(server.requests.count, 0, "nothing reached the test server either")
        // An explicit app instance ID uses no Installations host: nothing is mixed.
        let fixed = HTTPRemoteConfigBackend(
            project: server.project, apiKey: server.apiKey, appID: "1:1:ios:1", appInstanceID: "instance",
            fetchBaseURL: server.remoteConfigBaseURL, realtimeBaseURL: server.remoteConfigBaseURL)
        XCTAssertNil(fixed.misconfiguration)
    }

    /// With the server's endpoints everything goes to the server, and the installation is kept
    /// in memory (nothing is written to the home folder).
    func testBackend_withTheServersEndpoints_fetchesAndKeepsTheInstallationInMemory() throws {
        server.publishTemplate(["welcome": "hi"])
        let backend = HTTPRemoteConfigBackend(project: server.project, apiKey: server.apiKey, appID: "1:1:ios:1", endpoints: server.endpoints)
        XCTAssertNil(backend.misconfiguration)
        XCTAssertTrue(backend.installations?.storage is InMemoryFirebaseInstallationsStorage)
        let response = try backend.fetch(RemoteConfigFetchRequest()).toBlocking(timeout: networkTimeout).single()
        guard case .updated(let values, _, _) = response else { return XCTFail("\(response)") }
        XCTAssertEqual(values["welcome"], "hi")
        XCTAssertEqual(server.installations.count, 1, "registered with the test server")
    }

    func testInstallations_onThisMachine_defaultToMemory_elsewhereToTheApplicationSupportFile() {
        let local = FirebaseInstallations(projectID: "p", apiKey: "k", appID: "1:1:ios:1", baseURL: server.installationsBaseURL)
        XCTAssertTrue(local.storage is InMemoryFirebaseInstallationsStorage)
        let remote = FirebaseInstallations(projectID: "p", apiKey: "k", appID: "1:1:ios:1")
        XCTAssertTrue(remote.storage is FileFirebaseInstallationsStorage)
    }

    func testDatabase_fromTheServersEndpoints_readsTheServer_productionNamesNoDatabase() throws {
        try server.setDatabaseValue(["greeting": "hello"], at: "/")
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "endpoints-test")
        let database = try FirebaseRESTDatabase(endpoints: server.endpoints, scheduler: scheduler)
        XCTAssertEqual(try database.getValue(at: "greeting").toBlocking(timeout: networkTimeout).single(), "hello")
        XCTAssertThrowsError(try FirebaseRESTDatabase(endpoints: .production, scheduler: scheduler)) { error in
            guard case .invalidURL(endpoint: "database", _, _)? = error as? FirebaseEndpointsError else { return XCTFail("\(error)") }
        }
    }
}
