import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// `configUpdates`' retry rules end to end: `RemoteConfig` over `HTTPRemoteConfigBackend` (the
/// real `URLSessionTransport`) against the loopback server, whose `.status` fault answers with
/// Google's error body. 403 ends the updates at once with the body's message; 503 is retried.
/// The client runs ×50 (`TimeScaledScheduler`) with a constant random source, so its backoff of
/// 1 s, 2 s, … takes milliseconds.
final class RemoteConfigRealtimeRetryEndToEndTests: FirebaseTestServerTestCase {
    private func makeRemoteConfig() -> RemoteConfig {
        let backend = HTTPRemoteConfigBackend(
            project: server.project,
            apiKey: server.apiKey,
            appID: "1:1234:ios:abcd",
            appInstanceID: "instance-1",
            fetchBaseURL: server.remoteConfigBaseURL,
            realtimeBaseURL: server.remoteConfigBaseURL,
            fetchTimeout: networkTimeout
        )
        return RemoteConfig(
            backend: backend,
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: networkTimeout * 50),
            scheduler: TimeScaledScheduler(factor: 50, name: "realtime-retry-remote-config"),
            randomSource: { 0 }
        )
    }

    func testConfigUpdates_realtime403IsRealtimeDisabledWithoutRetry() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["greeting": "hi"])
            let remoteConfig = makeRemoteConfig()
            // Two faults: a retry would use the second one.
            server.inject(.status(403, count: 2, route: .remoteConfigRealtime))
            let updates = EventRecorder(remoteConfig.configUpdates)

            XCTAssertTrue(updates.waitForTermination(), "\(updates.events)")
            XCTAssertEqual(
                updates.error as? RemoteConfigUpdateError, .realtimeDisabled(message: "Injected fault: Forbidden"), "Google's error.message from the body")
            XCTAssertEqual(updates.elements, [])
            XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, 1, "no reconnection")
            XCTAssertEqual(server.pendingFaults, [.status(403, count: 1, route: .remoteConfigRealtime)])
            XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, 0)
            updates.dispose()
        }
    }

    func testConfigUpdates_realtime503IsRetriedUntilTheFaultIsSpent() {
        XCTAssertNoLeaksEventually {
            server.publishTemplate(["greeting": "hi", "limit": "3"])
            let remoteConfig = makeRemoteConfig()
            server.inject(.status(503, count: 2, route: .remoteConfigRealtime))
            let updates = EventRecorder(remoteConfig.configUpdates)

            // The third connection is accepted and announces the template, which is fetched.
            XCTAssertTrue(updates.waitForElements(1), "\(updates.events)")
            XCTAssertEqual(updates.elements, [RemoteConfigUpdate(updatedKeys: ["greeting", "limit"])])
            XCTAssertFalse(updates.isTerminated)
            XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, 3, "two retries")
            XCTAssertEqual(server.pendingFaults, [])
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime))
            updates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime), "the stream closed after dispose")
        }
    }
}
