import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
@testable import StreamsDemos
import StreamsTest
import XCTest

/// `DemoBackends`: which backend each demo gets for each combination of options.
final class DemoBackendsTests: XCTestCase {
    private func backends(_ arguments: [String]) throws -> DemoBackends {
        try DemoBackends(options: DemoOptions.parse(arguments))
    }

    func testNoOptions_selectsTheEmbeddedBackends() throws {
        for backends in [try backends([]), DemoBackends.embedded] {
            XCTAssertEqual(backends.remoteConfig, .embedded)
            XCTAssertEqual(backends.database, .embedded)
            XCTAssertNil(backends.server)
            XCTAssertTrue(backends.isEmbedded)
            XCTAssertNil(backends.remoteConfigNote, "the classic output has no backend line")
            XCTAssertNil(backends.databaseNote)
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test")
            let remoteConfig = backends.scriptedRemoteConfig(values: ["k": "v"], latency: .milliseconds(5), scheduler: scheduler)
            XCTAssertTrue(remoteConfig.backend is InMemoryRemoteConfigBackend)
            XCTAssertEqual(remoteConfig.values, ["k": "v"])
            let database = try backends.scriptedDatabase(seed: ["a": 1], latency: .milliseconds(5), scheduler: scheduler)
            XCTAssertTrue(database.database is LatencyDatabase)
            XCTAssertFalse(database.isLocalServer)
            XCTAssertNil(database.serverStreams(settlingAt: 0))
            backends.stop()
        }
    }

    func testLocalServer_startsALoopbackServerForBothBackends() throws {
        let backends = try backends(["--local-server", "--duration", "3"])
        defer { backends.stop() }
        let server = try XCTUnwrap(backends.server)
        XCTAssertEqual(backends.remoteConfig, .localServer)
        XCTAssertEqual(backends.database, .localServer)
        XCTAssertFalse(backends.isEmbedded)
        XCTAssertEqual(backends.duration, 3)
        XCTAssertEqual(server.baseURL.host, "127.0.0.1")
        XCTAssertTrue(backends.summary.contains(server.baseURL.absoluteString))
        XCTAssertEqual(backends.remoteConfigNote, "(Remote Config: HTTP against the loopback server \(server.baseURL.absoluteString))")

        // The scripted storyline's server side goes to the loopback server.
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test")
        let remoteConfig = backends.scriptedRemoteConfig(values: ["k": "v"], latency: .seconds(0), scheduler: scheduler)
        XCTAssertTrue(remoteConfig.backend is HTTPRemoteConfigBackend)
        XCTAssertEqual(server.templateEntries, ["k": "v"])
        remoteConfig.publish(["k": "w"])
        XCTAssertEqual(server.templateEntries, ["k": "w"])
        XCTAssertEqual(remoteConfig.values, ["k": "w"])
        XCTAssertEqual(server.templateVersion, 2)
        XCTAssertTrue(backends.scriptedRemoteConfig(values: [:], latency: .milliseconds(100), scheduler: scheduler).backend is DelayedRemoteConfigBackend)

        let database = try backends.scriptedDatabase(seed: ["a": 1], latency: .milliseconds(30), scheduler: scheduler)
        XCTAssertTrue(database.database is FirebaseRESTDatabase)
        XCTAssertTrue(database.isLocalServer)
        XCTAssertEqual(try server.databaseValue(at: "a"), 1)
        try database.setValue("x", at: "b")
        XCTAssertEqual(try server.databaseValue(at: "b"), "x")
        XCTAssertEqual(database.serverStreams(settlingAt: 0), 0)
    }

    func testLocalServer_givenByTheCaller_isNotStoppedByTheBackends() throws {
        let server = try FirebaseTestServer()
        defer { server.stop() }
        let backends = DemoBackends(localServer: server)
        XCTAssertTrue(backends.server === server)
        backends.stop()
        server.publishTemplate(["still": "serving"])
        let remoteConfig = RemoteConfig(
            backend: HTTPRemoteConfigBackend(
                project: server.project, apiKey: server.apiKey, appID: DemoOptions.defaultAppID, endpoints: server.endpoints, fetchTimeout: 10),
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "test")
        )
        XCTAssertEqual(try remoteConfig.fetchAndActivate().toBlocking(timeout: demoTimeout).single(), .successFetchedFromRemote)
        XCTAssertEqual(remoteConfig["still"].stringValue, "serving")
    }

    func testRemoteConfigProjectOnly_databaseStaysEmbedded() throws {
        let backends = try backends(["--remote-config-project", "123", "--api-key", "SECRET-KEY", "--duration", "7"])
        XCTAssertEqual(backends.remoteConfig, .project(DemoOptions.RemoteConfigProject(project: "123", apiKey: .init("SECRET-KEY"))))
        XCTAssertEqual(backends.database, .embedded)
        XCTAssertNil(backends.server)
        XCTAssertFalse(backends.isEmbedded)
        XCTAssertEqual(backends.duration, 7)
        XCTAssertEqual(backends.databaseNote, "(Realtime Database: embedded in-memory database — no --database-url given)")
        XCTAssertEqual(backends.remoteConfigNote, "(Remote Config: live, project 123, app \(DemoOptions.defaultAppID), api key <redacted>)")
        XCTAssertFalse(backends.summary.contains("SECRET"))
    }

    func testDatabaseOnly_remoteConfigStaysEmbedded() throws {
        let backends = try backends(["--database-url", "https://db.example.com", "--access-token", "SECRET-TOKEN"])
        XCTAssertEqual(backends.remoteConfig, .embedded)
        XCTAssertEqual(
            backends.database,
            .project(
                DemoOptions.DatabaseProject(
                    url: URL(string: "https://db.example.com")!,
                    credential: .accessToken(.init("SECRET-TOKEN")))))
        XCTAssertEqual(backends.remoteConfigNote, "(Remote Config: embedded in-memory backend — no --remote-config-project given)")
        XCTAssertEqual(backends.databaseNote, "(Realtime Database: live, https://db.example.com (access token <redacted>))")
        XCTAssertFalse(backends.summary.contains("SECRET"))
        // Scripted demos of the other backend still work.
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test")
        XCTAssertTrue(backends.scriptedRemoteConfig(values: [:], latency: .seconds(0), scheduler: scheduler).backend is InMemoryRemoteConfigBackend)
        let database = backends.projectDatabase(
            try XCTUnwrap(DemoOptions.parse(["--database-url", "https://db.example.com", "--access-token", "SECRET-TOKEN"]).database), scheduler: scheduler)
        XCTAssertEqual(database.databaseURL, URL(string: "https://db.example.com"))
        XCTAssertEqual(database.auth, .accessToken("SECRET-TOKEN"))
    }

    func testBothProjects_areLive() throws {
        let backends = try backends(["--remote-config-project", "p", "--api-key", "K1", "--database-url", "https://db.example.com", "--auth-token", "T1"])
        guard case .project(let project) = backends.remoteConfig, case .project(let database) = backends.database else {
            return XCTFail("\(backends.summary)")
        }
        XCTAssertEqual(project.project, "p")
        XCTAssertEqual(database.credential, .idToken(.init("T1")))
        XCTAssertEqual(backends.secrets.sorted(), ["K1", "T1"])
        XCTAssertEqual(backends.redacted("key=K1&auth=T1"), "key=<redacted>&auth=<redacted>")
        XCTAssertEqual(
            backends.summary,
            """
            Remote Config: live, project p, app \(DemoOptions.defaultAppID), api key <redacted>
            Realtime Database: live, https://db.example.com (auth token <redacted>)
            """)
    }

    func testInstallationTokens_areRedacted() throws {
        // Against another host than Firebase's the installation lives in memory.
        let project = DemoOptions.RemoteConfigProject(project: "p", apiKey: .init("K1"), fetchBaseURL: URL(string: "http://127.0.0.1:9")!)
        let backends = DemoBackends(remoteConfig: .project(project), database: .embedded)
        let installations = try XCTUnwrap(backends.projectInstallations)
        XCTAssertTrue(installations.storage is InMemoryFirebaseInstallationsStorage)
        XCTAssertEqual(installations.wire.baseURL, URL(string: "http://127.0.0.1:9")!, "the fetch host by default")
        XCTAssertEqual(backends.secrets, ["K1"])
        try installations.storage.save(
            FirebaseInstallationsRecord(
                fid: FirebaseInstallations.generateFID(), appID: project.appID, refreshToken: "REFRESH-SECRET",
                authToken: FirebaseInstallationsAuthToken(token: "AUTH-SECRET", expirationDate: Date())))
        XCTAssertEqual(backends.secrets.sorted(), ["AUTH-SECRET", "K1", "REFRESH-SECRET"])
        XCTAssertEqual(backends.redacted("token AUTH-SECRET, refresh REFRESH-SECRET"), "token <redacted>, refresh <redacted>")
    }

    func testEndLiveListening_endsTheListeningAtOnce() throws {
        let backends = try backends(["--database-url", "https://db.example.com", "--duration", "600"])
        let listening = DispatchSemaphore(value: 0)
        let result = LockedState<Bool?>(nil)
        let demo = BackgroundDemo {
            listening.signal()
            let elapsed = backends.listen(until: DispatchSemaphore(value: 0))
            result.withLock { $0 = elapsed }
        }
        XCTAssertEqual(listening.wait(timeout: .now() + demoTimeout), .success)
        backends.endLiveListening()
        XCTAssertTrue(demo.wait(), "ended long before the 600 s")
        XCTAssertEqual(result.withLock { $0 }, false)
        // Later listening ends at once too.
        XCTAssertFalse(backends.listen(until: DispatchSemaphore(value: 0)))
    }

    func testListen_endsWhenTheDemoSignals() throws {
        let backends = try backends(["--database-url", "https://db.example.com", "--duration", "600"])
        let finished = DispatchSemaphore(value: 0)
        finished.signal()
        XCTAssertFalse(backends.listen(until: finished))
    }

    func testListen_lastsTheDuration() throws {
        let backends = try backends(["--database-url", "https://db.example.com", "--duration", "0.05"])
        XCTAssertTrue(backends.listen(until: DispatchSemaphore(value: 0)))
    }
}
