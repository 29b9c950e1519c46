import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// Issue #31 item 5 over REST: user1's app reads and writes through a
/// `LocalFirstRealtimeDatabase` with file persistence over `FirebaseRESTDatabase` (the real
/// `URLSessionTransport`) against the loopback `FirebaseTestServer`. The app is closed, the
/// server stopped, the app opened again: its last comments show from the files while nothing
/// listens on the port; a server started on the same port with the same data then brings the
/// new comments and receives the post made before closing, once.
final class GroupCommentsRelaunchRESTTests: FirebaseTestServerTestCase {
    private static let seed: JSONValue = [
        "Groups": ["group0": ["comment0-0", "comment0-1", "comment0-2"]],
        "Users": ["user1": ["group0"], "user2": ["group0"]],
    ]
    private let comments0 = ["comment0-0", "comment0-1", "comment0-2"]
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("GroupCommentsRelaunchRESTTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    /// A REST client of `url` (whether or not a server listens there).
    private func makeREST(_ url: URL, scheduler: SchedulerType) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: url, auth: .none, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2),
            requestTimeout: networkTimeout)
    }

    /// The app's database over `url`, its files in `directory`.
    private func makeApp(_ url: URL) -> LocalFirstRealtimeDatabase {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "relaunch-app")
        return LocalFirstRealtimeDatabase(
            remote: makeREST(url, scheduler: scheduler), persistence: .file(directory: directory, maximumCacheSize: 1_000_000), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2, jitter: 0))
    }

    private func group0(_ database: RealtimeDatabase, user: String) -> EventRecorder<[String]> {
        EventRecorder(GroupCommentsListener(database: database).listen(user: user).map { $0["group0"] ?? [] })
    }

    func testRelaunch_withTheServerStopped_showsTheCachedComments_thenTheRestartedServersAndSendsThePostOnce() throws {
        try server.setDatabaseValue(Self.seed, at: "/")
        let url = server.databaseURL
        let port = server.port

        // The first launch: the server's comments, then a post made offline; the app is closed.
        XCTAssertNoLeaksEventually {
            let app = makeApp(url)
            let shown = group0(app, user: "user1")
            XCTAssertTrue(shown.wait { $0.last == .next(comments0) }, "\(shown.events)")
            app.goOffline()
            let post = EventRecorder(GroupCommentsListener(database: app).post("on my way", to: "group0").asObservable())
            XCTAssertTrue(shown.wait { $0.last == .next(comments0 + ["on my way"]) }, "\(shown.events)")
            XCTAssertFalse(post.isTerminated, "not acknowledged: the app is offline")
            post.dispose()
            shown.dispose()
        }
        XCTAssertEqual(try server.databaseValue(at: "Groups/group0"), ["comment0-0", "comment0-1", "comment0-2"], "nothing was sent")

        // While the app is closed, user2's comment is stored; then the server stops.
        try server.setDatabaseValue("comment0-3", at: "Groups/group0/3")
        let data = try server.databaseValue(at: "/")
        server.stop()

        try XCTAssertNoLeaksEventually {
            // The relaunch: nothing listens on the port, the comments come from the files.
            let app = makeApp(url)
            let shown = group0(app, user: "user1")
            XCTAssertTrue(shown.waitForElements(1), "\(shown.events)")
            XCTAssertEqual(shown.elements, [comments0 + ["on my way"]], "from the files")
            let connected = EventRecorder(app.observeValue(at: ".info/connected"))
            XCTAssertTrue(connected.wait { $0.contains(.next(false)) }, "the server is unreachable: \(connected.events)")
            XCTAssertEqual(shown.elements, [comments0 + ["on my way"]], "nothing else while the server is down")

            // A server on the same port, with the same data: the app reconnects by itself.
            server = try FirebaseTestServer(port: port)
            try server.setDatabaseValue(data, at: "/")
            let other = makeREST(url, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "relaunch-user2"))
            let others = group0(other, user: "user2")
            let everything = comments0 + ["comment0-3", "on my way"]
            XCTAssertTrue(shown.wait { $0.last == .next(everything) }, "\(shown.events)")
            XCTAssertTrue(others.wait { $0.last == .next(everything) }, "\(others.events)")
            let pending = EventRecorder(app.pendingWriteCount)
            XCTAssertTrue(pending.wait { $0.last == .next(0) }, "acknowledged: \(pending.events)")
            XCTAssertEqual(shown.elements, [comments0 + ["on my way"], everything], "the files, then the server's")
            let writes = server.requests(on: .database).filter { $0.method != "GET" }
            XCTAssertEqual(writes.map(\.method), ["PUT"], "the post, sent once")
            XCTAssertTrue(writes.first?.path.hasPrefix("/Groups/group0/-") ?? false, "\(writes.map(\.path))")
            let stored = try XCTUnwrap(try server.databaseValue(at: "Groups/group0").objectValue)
            XCTAssertEqual(stored.values.filter { $0 == "on my way" }.count, 1, "\(stored)")
            pending.dispose()
            others.dispose()
            connected.dispose()
            shown.dispose()
        }
    }
}
