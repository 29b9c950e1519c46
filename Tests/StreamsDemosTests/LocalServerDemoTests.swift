import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import StreamsDemos
import XCTest

/// Each demo's scripted storyline in `--local-server` mode: over HTTP (and SSE) against a
/// `FirebaseTestServer` on 127.0.0.1. The demo must finish, the server must have seen the
/// requests the storyline implies, and the demo's printed timeline must show its key moments.
final class LocalServerDemoTests: XCTestCase {
    private var server: FirebaseTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FirebaseTestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// Runs `demo` on the loopback server on its own thread (bounded) and returns its output.
    private func run(_ demo: @escaping @Sendable (DemoBackends) -> Void) throws -> String {
        let backends = DemoBackends(localServer: server)
        return try capturingStandardOutput { _ in
            let running = BackgroundDemo { demo(backends) }
            XCTAssertTrue(running.wait(), "the demo finished")
        }
    }

    func testLaunchDemo_fetchesOverHTTP() throws {
        let output = try run { runLaunchDemo(backends: $0) }

        // Launches 1-3 fetch a new template each time; launch 4's fetch is cut by the server.
        XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, 4)
        XCTAssertEqual(server.remoteConfigFetches.map(\.answeredState), ["UPDATE", "UPDATE", "UPDATE"])
        XCTAssertEqual(server.remoteConfigFetches.map(\.appID), Array(repeating: DemoOptions.defaultAppID, count: 3))
        XCTAssertEqual(server.pendingFaults, [], "the offline launch used the injected disconnect")
        XCTAssertEqual(server.templateEntries, ["tabTitles": "新着", "tabTitlesEn": "new"])
        XCTAssertEqual(server.templateVersion, 3)

        XCTAssertTrue(output.contains("(Remote Config: HTTP against the loopback server \(server.baseURL.absoluteString))"), output)
        XCTAssertTrue(output.contains("content: the home feed"), output)
        XCTAssertTrue(output.contains("stored for the next launch, not activated: tabTitlesEn=sale (active: home)"), output)
        XCTAssertTrue(output.contains("config: tabTitles=セール tabTitlesEn=sale"), output)
        XCTAssertTrue(output.contains("error: LaunchError.fetchFailed(Remote Config backend error: network:"), output)
        XCTAssertTrue(output.contains("content: the new feed"), output)
    }

    func testItemListDemo_fetchesEveryRefreshOverHTTP() throws {
        let output = try run { runItemListDemo(backends: $0) }

        // Seven refreshes reach the server; the one made while loading is refused client-side.
        XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, 7)
        XCTAssertEqual(server.remoteConfigFetches.count, 7)
        XCTAssertEqual(server.remoteConfigFetches.map(\.fetchType), Array(repeating: "BASE/1", count: 7))
        XCTAssertEqual(server.remoteConfigFetches.last?.customSignals, ["tier": "gold"])
        XCTAssertEqual(server.templateEntries, ["item_json": #"[{"id": 4, "title": "Primer"}]"#], "the default value")
        XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, 0)

        XCTAssertTrue(output.contains("error: ActionError.notEnabled"), output)
        XCTAssertTrue(output.contains("items: [#1 Lipstick, #2 Mascara, #3 Blush]"), output)
        XCTAssertTrue(output.contains("ItemListError.invalidJSON"), output)
        XCTAssertTrue(output.contains("ItemListError.invalidElement"), output)
        XCTAssertTrue(output.contains("items: [#4 Primer]"), output)
        // The targeted template: the default list until the app sends tier = gold.
        XCTAssertTrue(output.contains("server publishes a template: item_json for app.customSignal['tier'] == gold"), output)
        let signal = try XCTUnwrap(output.range(of: "the app sets customSignals = [tier: gold]"), output)
        let targeted = try XCTUnwrap(output.range(of: "items: [#5 Gold palette, #6 Silk brush]"), output)
        XCTAssertLessThan(signal.lowerBound, targeted.lowerBound, output)
    }

    func testForceUpdateDemo_followsTheRealtimeStreamOverHTTP() throws {
        let output = try run { runForceUpdateDemo(backends: $0) }

        // The initial fetch, then one realtime fetch per publication, over one realtime stream
        // that is closed at the end.
        XCTAssertEqual(server.remoteConfigFetches.map(\.fetchType), ["BASE/1", "REALTIME/1", "REALTIME/1"])
        XCTAssertEqual(server.requests(on: .remoteConfigRealtime).count, 1)
        XCTAssertEqual(server.remoteConfigRealtimeConnections.count, 1)
        XCTAssertEqual(server.openStreamCount(route: .remoteConfigRealtime), 0)
        XCTAssertEqual(server.templateEntries["required_version"], "3.0.0", "the default; iOS and Android get their own")
        XCTAssertEqual(server.remoteConfigTemplate?.conditions.map(\.name), ["ios", "android"])

        XCTAssertTrue(output.contains("isUpdateRequired = false"), output)
        XCTAssertTrue(output.contains("configUpdates: updatedKeys = [\"banner\"] (no version key → nothing to do)"), output)
        XCTAssertTrue(output.contains("isUpdateRequired = true"), output)
        XCTAssertTrue(output.contains("ALERT shown again"), output)
        XCTAssertTrue(output.contains("stopped observing; realtime streams open: 0"), output)
        XCTAssertFalse(output.contains("timed out"), output)
    }

    func testGroupCommentsDemo_streamsEveryListenedLocationOverSSE() throws {
        let output = try run { runGroupCommentsDemo(backends: $0) }

        // The storyline: one SSE stream per listened location, each opened once.
        let streams = server.requests(on: .database).filter { $0.header("Accept") == "text/event-stream" }
        XCTAssertEqual(streams.map(\.method), Array(repeating: "GET", count: streams.count))
        let storyline = streams.prefix(4)
        XCTAssertEqual(Set(storyline.map(\.path)), ["/Users/user1.json", "/Groups/group0.json", "/Groups/group1.json", "/Groups/group2.json"])
        // Posting while offline: user2's client streams group2; the phone streams its
        // membership and groups, then again after goOnline().
        let phoneAndUser2 = streams.dropFirst(4).prefix(7).map(\.path)
        XCTAssertEqual(phoneAndUser2.filter { $0 == "/Groups/group2.json" }.count, 3, "\(phoneAndUser2)")
        XCTAssertEqual(phoneAndUser2.filter { $0 == "/Users/user1.json" }.count, 2, "\(phoneAndUser2)")
        XCTAssertEqual(phoneAndUser2.filter { $0 == "/Groups/group1.json" }.count, 2, "\(phoneAndUser2)")
        XCTAssertEqual(phoneAndUser2.count, 7, "\(phoneAndUser2)")
        // Relaunch offline: user2's client streams group2; the app streams its membership and
        // groups at its first launch, none while it has no network, and again once it is back.
        let relaunch = streams.dropFirst(11).prefix(7).map(\.path)
        XCTAssertEqual(
            relaunch.sorted(),
            [
                "/Groups/group1.json", "/Groups/group1.json", "/Groups/group2.json", "/Groups/group2.json", "/Groups/group2.json", "/Users/user1.json",
                "/Users/user1.json",
            ])
        // Under the group chat's Security Rules: user1 follows groupA and groupB, user2 groupB,
        // each through their own membership.
        let user1 = try XCTUnwrap(server.authUsers.first { $0.email == "user1@example.com" }).uid
        let user2 = try XCTUnwrap(server.authUsers.first { $0.email == nil }).uid
        XCTAssertEqual(
            streams.dropFirst(18).map(\.path).sorted(),
            ["/Groups/groupA.json", "/Groups/groupB.json", "/Groups/groupB.json", "/Users/\(user1).json", "/Users/\(user2).json"].sorted())
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database, timeout: demoTimeout))
        // The storyline's writes went through the server's Swift API; each of the phone's posts
        // is one PUT under a push ID, sent once: after goOnline(), then after the relaunch.
        let writes = server.requests(on: .database).filter {
            $0.method != "GET" && !$0.path.hasPrefix("/Groups/groupA") && !$0.path.hasPrefix("/Groups/groupB")
        }
        XCTAssertEqual(writes.map(\.method), ["PUT", "PUT"])
        XCTAssertTrue(writes.allSatisfy { $0.path.hasPrefix("/Groups/group2/-") }, "\(writes.map(\.path))")
        XCTAssertEqual(try server.databaseValue(at: "Users/user1"), ["group1", "group2"])
        XCTAssertEqual(try server.databaseValue(at: "Groups/group1"), ["comment1-0", "comment1-1"])
        let group2 = try XCTUnwrap(try server.databaseValue(at: "Groups/group2").objectValue)
        XCTAssertEqual(group2.values.filter { $0 == "see you at 8" }.count, 1, "\(group2)")
        XCTAssertEqual(group2.values.filter { $0 == "running late" }.count, 1, "\(group2)")
        XCTAssertEqual(group2.count, 7, "\(group2)")
        let groupB = try XCTUnwrap(try server.databaseValue(at: "Groups/groupB").objectValue)
        XCTAssertEqual(groupB.values.filter { $0["author"]?.stringValue == user2 && $0["text"] == "hi, it's user2" }.count, 1, "\(groupB)")
        XCTAssertEqual(groupB.count, 2, "the seeded comment and user2's; user2's post as user1 was refused")
        XCTAssertEqual(try server.databaseValue(at: "Groups/groupA"), ["hello from A", "still flowing"], "user2's post to groupA was refused")
        XCTAssertEqual(server.databaseRules, #"{"rules": {".read": true, ".write": true}}"#, "the previous rules are restored")

        XCTAssertTrue(output.contains("active listeners: 3 (Users/user1, group0, group1)"), output)
        XCTAssertTrue(output.contains("group2: comment2-0, comment2-1, comment2-2, comment2-3"), output)
        XCTAssertTrue(output.contains("diagnostic: Group \"group1\" is not a list of comments (42)"), output)
        XCTAssertTrue(output.contains("disposed: active listeners: 0"), output)
        XCTAssertTrue(output.contains("SSE streams still open on the server: 0"), output)
        assertPostingWhileOffline(output)
        assertRelaunchOffline(output)
        assertSecurityRules(output)
        XCTAssertEqual(output.components(separatedBy: "SSE streams still open on the server: 0\n").count - 1, 4, output)
    }

    /// With the server requiring database auth, the demo signs user1 in with email and password
    /// and user2 anonymously; every database request carries a user's ID token (none of which is
    /// printed), a client without a user is refused, and an hour on the server's clock later
    /// user1's client refreshes its token by itself.
    func testGroupCommentsDemo_signsTwoUsersInAndEveryRequestCarriesOne() throws {
        let output = try run { runGroupCommentsDemo(backends: $0) }

        let user1 = try XCTUnwrap(server.authUsers.first { $0.email == "user1@example.com" })
        let user2 = try XCTUnwrap(server.authUsers.first { $0.email == nil })
        XCTAssertEqual(server.authUsers.count, 2)
        XCTAssertTrue(output.contains("the server requires database auth (requireDatabaseAuth())"), output)
        XCTAssertTrue(output.contains("user1 signs in with email and password: email user1@example.com, uid \(user1.uid.prefix(8))…"), output)
        XCTAssertTrue(output.contains("user2 signs in anonymously: anonymous, uid \(user2.uid.prefix(8))…"), output)
        XCTAssertTrue(output.contains("a client with no one signed in reads Users/user1: refused, permission denied"), output)
        XCTAssertTrue(output.contains("the server's auth clock moves on an hour: the users' ID tokens have expired"), output)
        XCTAssertTrue(
            output.contains(
                "user1 reads Users/user1: the expired token is refused, user1's client refreshes it by itself (token refreshes: 1) and the read succeeds"),
            output)
        XCTAssertTrue(
            output.contains(
                "user2 reads Users/user1: the expired token is refused, user2's client refreshes it by itself (token refreshes: 2) and the read succeeds"),
            output)
        // One refresh per user after the hour, by the clients themselves; none for the three
        // requests the Security Rules refuse later (a 401 "Permission denied" fails at once: the
        // REST client refreshes and retries only a 401 about the token).
        XCTAssertEqual(server.requests(on: .authTokenRefresh).count, 2)

        // Who the server saw: one refused request without a user; then only the two users.
        let database = server.requests(on: .database)
        XCTAssertEqual(database.filter { $0.query["auth"] == nil }.count, 1, "only the refused read went without a token")
        XCTAssertEqual(database.filter { $0.auth == nil }.count, 3, "that read and each user's read with its expired token")
        let seen = Set(database.compactMap(\.auth?.uid))
        XCTAssertEqual(seen, [user1.uid, user2.uid])
        let streams = database.filter { $0.header("Accept") == "text/event-stream" }
        XCTAssertTrue(streams.allSatisfy { $0.auth != nil }, "every stream was opened as a user")
        XCTAssertTrue(streams.contains { $0.auth?.uid == user2.uid && $0.path == "/Groups/group2.json" }, "user2's client follows group2")
        XCTAssertTrue(database.filter { $0.method == "PUT" }.allSatisfy { $0.auth?.uid == user1.uid }, "user1's posts")
        for request in database { XCTAssertFalse(output.contains(request.query["auth"] ?? "\u{0}"), "no ID token is printed") }
        XCTAssertTrue(output.contains("SSE streams still open on the server: 0"), output)
    }

    /// The Security Rules section's key lines, in order.
    private func assertSecurityRules(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
        let refused = "refused: FirebaseRESTDatabaseError.permissionDenied (permission denied: Permission denied)"
        let expected = [
            "the server loads GroupCommentsListener.securityRules: members read their groups and post as themselves",
            "user1 reads their groups: groupA: hello from A · groupB: hello from B",
            "user2 reads their groups: groupB: hello from B",
            "user2 reads Groups/groupA (not a member): \(refused)",
            "user2 posts to groupA (not a member): \(refused)",
            "user2 posts to groupB as user1: \(refused)",
            "user2 posts to groupB as themselves: allowed",
            "user1 sees it: groupA: hello from A · groupB: hello from B, hi, it's user2",
            "the admin removes user1 from groupB: the server cancels user1's listen of groupB",
            "user1's comments, without failing: groupA: hello from A",
            "a comment arrives in groupA: groupA: hello from A, still flowing",
            "user1's active listeners: 2 (Users/<user1>, groupA)",
        ]
        var rest = output[...]
        for text in expected {
            guard let range = rest.range(of: "] " + text + "\n") else {
                return XCTFail("missing, or out of order: \(text)\n\(output)", file: file, line: line)
            }
            rest = rest[range.upperBound...]
        }
    }

    /// The output opens with what a reader needs (what runs, how to read a line), then the
    /// backends, then each demo under its header and the reason it matters.
    func testStreamsDemoCatalog_printsTheIntroductionThenTheBackends() throws {
        let options = try DemoOptions.parse(["--local-server", "item-list"])
        let backends = DemoBackends(localServer: server)
        let output = try capturingStandardOutput { _ in
            let running = BackgroundDemo { DemoCatalog.run(options, on: backends) }
            XCTAssertTrue(running.wait())
        }
        let backendsLine = "Remote Config: HTTP against the loopback server \(server.baseURL.absoluteString) (project demo-project)"
        XCTAssertTrue(output.hasPrefix(DemoCatalog.wrapped(DemoCatalog.introduction) + "\n" + backendsLine + "\n"), output)
        let header = "━━ item-list: a list of items read from a JSON config value, loaded by an Action ━━"
        XCTAssertTrue(output.contains(header + "\nA refresh button bound to an Action"), output)
        XCTAssertFalse(output.contains("seed 00"), "the output names nothing a README reader has not seen")
        XCTAssertFalse(output.contains("━━ launch: "), output)
        XCTAssertEqual(server.requests(on: .remoteConfigFetch).count, 7, "five refreshes, then two of the targeted template")
    }
}
