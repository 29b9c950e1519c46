import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// Issue 38 item 2 end to end: two app instances (iOS and Android) over HTTP against
/// `FirebaseTestServer`; a publication that changes only the Android value reaches both
/// realtime listeners, and each fetches its own value.
final class RemoteConfigTargetingEndToEndTests: FirebaseTestServerTestCase {
    private func template(androidBanner: String) throws -> FirebaseTestServer.RemoteConfigTemplate {
        try FirebaseTestServer.RemoteConfigTemplate(
            parameters: ["banner": "plain"],
            conditions: [RemoteConfigCondition(name: "android", expression: "device.os == 'android' && app.version >= '2.0'")],
            conditionalValues: ["banner": ["android": .value(androidBanner)]])
    }

    private func client(appID: String, scheduler: SchedulerType) -> RemoteConfig {
        let backend = HTTPRemoteConfigBackend(
            project: server.project, apiKey: server.apiKey, appID: appID, installations: server.makeInstallations(appID: appID),
            fetchBaseURL: server.remoteConfigBaseURL, realtimeBaseURL: server.remoteConfigBaseURL,
            appInfo: RemoteConfigAppInfo(platform: appID.contains(":ios:") ? .apple : .android, appIdentifier: "com.example.app", appVersion: "2.1.0"))
        return RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
    }

    func testRealtime_conditionalOnlyChangeReachesEveryInstanceAndEachFetchesItsOwnValue() throws {
        try XCTAssertNoLeaksEventually {
            server.publishTemplate(try template(androidBanner: "droid"))
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "targeting")
            let ios = client(appID: "1:1234:ios:abcd", scheduler: scheduler)
            let android = client(appID: "1:1234:android:abcd", scheduler: scheduler)
            let iosUpdates = EventRecorder(ios.configUpdates)
            let androidUpdates = EventRecorder(android.configUpdates)
            XCTAssertTrue(waitUntil { ios.fetchedTemplateVersion == 1 && android.fetchedTemplateVersion == 1 })
            XCTAssertTrue(server.waitForOpenStreams(2, route: .remoteConfigRealtime))
            XCTAssertEqual(ios.snapshot.fetched?["banner"], "plain")
            XCTAssertEqual(android.snapshot.fetched?["banner"], "droid")

            server.publishTemplate(try template(androidBanner: "robot"))
            XCTAssertTrue(androidUpdates.waitForElements(2))
            XCTAssertEqual(androidUpdates.elements.last, RemoteConfigUpdate(updatedKeys: ["banner"]))
            XCTAssertTrue(waitUntil { ios.fetchedTemplateVersion == 2 }, "the iOS instance is told too, and fetches")
            XCTAssertEqual(ios.snapshot.fetched?["banner"], "plain")
            XCTAssertEqual(android.snapshot.fetched?["banner"], "robot")
            XCTAssertEqual(server.remoteConfigFetches.filter { $0.fetchType == "REALTIME/1" }.count, 4, "each instance: first connection, then version 2")
            iosUpdates.dispose()
            androidUpdates.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime))
        }
    }
}
