import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// The features over the real network clients and the loopback server: `ForceUpdateViewModel`
/// driven by realtime Remote Config updates over HTTP, and `GroupCommentsListener` over
/// `FirebaseRESTDatabase`.
final class EndToEndTests: FirebaseTestServerTestCase {
    // MARK: - Force update

    func testForceUpdateViewModel_followsRealtimeConfigUpdatesOverHTTP() throws {
        try XCTAssertNoLeaksEventually {
            server.publishTemplate(["required_version": "3.0.0", "welcome": "hi"])
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "force-update")
            let backend = HTTPRemoteConfigBackend(
                project: server.project,
                apiKey: server.apiKey,
                appID: "1:1234:ios:abcd",
                installations: server.makeInstallations(),
                fetchBaseURL: server.remoteConfigBaseURL,
                realtimeBaseURL: server.remoteConfigBaseURL
            )
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            let storeURL = URL(string: "https://apps.apple.com/app/id1234567890")!
            let viewModel = ForceUpdateViewModel(
                remoteConfig: remoteConfig,
                currentVersion: try XCTUnwrap(AppVersion("3.2.1")),
                storeURL: storeURL,
                scheduler: scheduler
            )
            let required = EventRecorder(viewModel.outputs.isUpdateRequired)
            let alerts = EventRecorder(viewModel.outputs.presentAlert)
            let urls = EventRecorder(viewModel.outputs.openStoreURL)
            let errors = EventRecorder(viewModel.outputs.error)
            let session = viewModel.startObserving()

            XCTAssertTrue(required.waitForElements(1))
            XCTAssertEqual(required.elements, [false])
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime), "configUpdates follows the initial fetch")

            // A publication that does not touch the version keys changes nothing.
            server.publishTemplate(["required_version": "3.0.0", "welcome": "hello"])
            XCTAssertTrue(waitUntil { remoteConfig.fetchedTemplateVersion == 2 })
            // The version goes up: the realtime stream announces it, the client fetches it, the
            // view model activates it and requires the update.
            server.publishTemplate(["required_version": "3.3.0", "welcome": "hello"])
            XCTAssertTrue(required.waitForElements(2))
            XCTAssertEqual(required.elements, [false, true])
            XCTAssertTrue(alerts.waitForElements(1))
            let alert = try XCTUnwrap(alerts.elements.first)
            XCTAssertFalse(alert.isDismissable)
            XCTAssertEqual(alert.version, AppVersion("3.3.0"))
            XCTAssertEqual(remoteConfig["required_version"].stringValue, "3.3.0")
            XCTAssertEqual(server.remoteConfigFetches.map(\.fetchType), ["BASE/1", "REALTIME/1", "REALTIME/1"])

            // The store button opens the store and presents the forced alert again.
            viewModel.inputs.openStoreTapped.onNext(())
            XCTAssertTrue(urls.waitForElements(1))
            XCTAssertEqual(urls.elements, [storeURL])
            XCTAssertTrue(alerts.waitForElements(2))

            // A dropped realtime stream reconnects; the next publication still arrives.
            server.dropStreams(route: .remoteConfigRealtime)
            XCTAssertTrue(waitUntil { server.remoteConfigRealtimeConnections.count == 2 && server.openStreamCount(route: .remoteConfigRealtime) == 1 })
            server.publishTemplate(["required_version": "3.1.0", "welcome": "hello"])
            XCTAssertTrue(required.waitForElements(3))
            XCTAssertEqual(required.elements, [false, true, false])
            XCTAssertEqual(errors.elements.count, 0, "\(errors.elements)")

            session.dispose()
            XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime), "disposing closes the realtime stream")
            required.dispose()
            alerts.dispose()
            urls.dispose()
            errors.dispose()
        }
    }

    // MARK: - Group comments

    private static let seed: JSONValue = [
        "Groups": [
            "group0": ["comment0-0", "comment0-1", "comment0-2"],
            "group1": ["comment1-0", "comment1-1", "comment1-2"],
            "group2": ["comment2-0", "comment2-1", "comment2-2"],
        ],
        "Users": ["user1": ["group0", "group1"]],
    ]

    func testGroupCommentsListener_overFirebaseRESTDatabase() throws {
        try XCTAssertNoLeaksEventually {
            try server.setDatabaseValue(Self.seed, at: "/")
            let database = FirebaseRESTDatabase(
                databaseURL: server.databaseURL,
                scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "group-comments"),
                reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2)
            )
            let listener = GroupCommentsListener(database: database)
            let diagnostics = EventRecorder(listener.diagnostics)
            let snapshots = EventRecorder(listener.listen(user: "user1"))
            let comments0 = ["comment0-0", "comment0-1", "comment0-2"]
            let comments1 = ["comment1-0", "comment1-1", "comment1-2"]
            let comments2 = ["comment2-0", "comment2-1", "comment2-2"]

            XCTAssertTrue(snapshots.waitForElements(1))
            XCTAssertEqual(snapshots.elements.last, ["group0": comments0, "group1": comments1])
            XCTAssertEqual(database.activeObserverCount, 3, "the membership and one stream per group")

            // Joining group2 (written by another client).
            try server.setDatabaseValue(["group0", "group1", "group2"], at: "Users/user1")
            XCTAssertTrue(snapshots.wait { $0.last == .next(["group0": comments0, "group1": comments1, "group2": comments2]) })

            // A comment pushed through the REST client, an edit written on the server.
            let key = try database.push("comment1-3", at: "Groups/group1").toBlocking(timeout: networkTimeout).single()
            XCTAssertTrue(snapshots.wait { $0.last.flatMap { if case .next(let value) = $0 { return value["group1"]?.count } else { return nil } } == 4 })
            XCTAssertEqual(try server.databaseValue(at: "Groups/group1/\(key)"), "comment1-3")
            try server.setDatabaseValue("edited", at: "Groups/group2/0")
            XCTAssertTrue(
                snapshots.wait { $0.last.flatMap { if case .next(let value) = $0 { return value["group2"]?.first } else { return nil } } == "edited" })

            // A dropped group stream reconnects and catches up.
            server.dropStreams(midMessage: true, route: .database)
            try server.setDatabaseValue(["group1", "group2"], at: "Users/user1")
            XCTAssertTrue(
                snapshots.wait { events in
                    guard case .next(let value)? = events.last else { return false }
                    return Set(value.keys) == ["group1", "group2"]
                })
            XCTAssertTrue(waitUntil { database.activeObserverCount == 3 }, "group0's observation was disposed")
            XCTAssertFalse(snapshots.isTerminated)
            XCTAssertEqual(diagnostics.elements.count, 0, "\(diagnostics.elements)")

            snapshots.dispose()
            XCTAssertEqual(database.activeObserverCount, 0)
            XCTAssertTrue(server.waitForOpenStreams(0, route: .database), "every stream closed")
            diagnostics.dispose()
        }
    }
}
