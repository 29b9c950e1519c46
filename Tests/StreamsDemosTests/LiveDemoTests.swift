import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import StreamsDemos
import XCTest

/// The live variants (a real project), pointed at a `FirebaseTestServer` on 127.0.0.1 through
/// the URL overrides, with secrets the output must never show. The listening is ended by the
/// test (`endLiveListening()`) once the server saw what the demo must do, never by time.
///
/// Also: a demo whose backend was not given runs on the embedded one, and says so.
final class LiveDemoTests: XCTestCase {
    private static let apiKey = "AIza-SECRET-API-KEY"
    private static let token = "ID-SECRET-TOKEN"
    private var server: FirebaseTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FirebaseTestServer(project: "123456789", apiKey: Self.apiKey)
        // Standing in for a real project, it answers a wrong key as Google does, without naming the right one.
        server.explainsRejections = false
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private var remoteConfigArguments: [String] {
        [
            "--remote-config-project", "123456789", "--api-key", Self.apiKey, "--app-id", "1:123456789:ios:abcdef",
            "--remote-config-url", server.remoteConfigBaseURL.absoluteString, "--duration", "600",
        ]
    }

    private var databaseArguments: [String] {
        ["--database-url", server.databaseURL.absoluteString, "--auth-token", Self.token, "--duration", "600"]
    }

    /// Runs `demo` on its own thread; `drive` runs meanwhile (waiting on server conditions),
    /// then the listening is ended and the demo must finish. Returns the demo's output.
    private func runLive(
        _ arguments: [String],
        _ demo: @escaping @Sendable (DemoBackends) -> Void,
        drive: (CapturedOutput) throws -> Void
    ) throws -> String {
        let backends = try DemoBackends(options: DemoOptions.parse(arguments))
        let output = try capturingStandardOutput { output in
            let running = BackgroundDemo { demo(backends) }
            defer {
                backends.endLiveListening()
                XCTAssertTrue(running.wait(), "the demo finished once the listening ended")
            }
            try drive(output)
        }
        XCTAssertFalse(output.contains("SECRET"), "a secret was printed:\n\(output)")
        return output
    }

    private func fetchTypes() -> [String?] { server.remoteConfigFetches.map(\.fetchType) }

    func testLiveLaunchDemo_readsTheProjectThenFollowsRealtimeUpdates() throws {
        server.publishTemplate(["tabTitles": "ホーム", "tabTitlesEn": "home"])
        let output = try runLive(remoteConfigArguments, { runLaunchDemo(backends: $0) }) { output in
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime, timeout: demoTimeout))
            // The stream opens beside the first fetch: publish only once that fetch was answered.
            XCTAssertTrue(output.waitFor("tabTitlesEn = \"home\" [remote]"), "the first fetch was printed")
            server.publishTemplate(["tabTitles": "ライブ", "tabTitlesEn": "live"])
            XCTAssertTrue(output.waitFor("tabTitlesEn = \"live\" [remote]"), "the update was activated and printed")
        }
        XCTAssertEqual(fetchTypes(), ["BASE/1", "REALTIME/1"])
        XCTAssertEqual(server.remoteConfigFetches.first?.appID, "1:123456789:ios:abcdef")
        XCTAssertEqual(server.requests(on: .remoteConfigFetch).first?.query["key"], Self.apiKey, "the key is sent, never printed")
        XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime, timeout: demoTimeout))
        XCTAssertTrue(output.contains("(Remote Config: live, project 123456789, app 1:123456789:ios:abcdef, api key <redacted>"), output)
        XCTAssertTrue(output.contains("config: tabTitles=ホーム tabTitlesEn=home"), output)
        XCTAssertTrue(output.contains("tabTitlesEn = \"home\" [remote]"), output)
        XCTAssertTrue(output.contains("content: the home feed"), output)
        XCTAssertTrue(output.contains("stopped listening"), output)
    }

    func testLiveItemListDemo_refreshesAfterARealtimeUpdateOfItsKey() throws {
        server.publishTemplate(["item_json": #"[{"id": 1, "title": "Lipstick"}]"#])
        let output = try runLive(remoteConfigArguments, { runItemListDemo(backends: $0) }) { output in
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime, timeout: demoTimeout))
            // The stream opens beside the first fetch: publish only once that fetch was answered.
            XCTAssertTrue(output.waitFor("items: [#1 Lipstick]"), "the first fetch was printed")
            server.publishTemplate(["item_json": #"[{"id": 2, "title": "Mascara"}]"#])
            // The realtime fetch, then the refresh the update triggers.
            XCTAssertTrue(output.waitFor("items: [#2 Mascara]"))
        }
        XCTAssertEqual(fetchTypes(), ["BASE/1", "REALTIME/1", "BASE/1"])
        XCTAssertTrue(output.contains("items: [#1 Lipstick]"), output)
        XCTAssertTrue(output.contains("item_json = \"[{\"id\": 2, \"title\": \"Mascara\"}]\" [remote]"), output)
        XCTAssertTrue(output.contains("realtime update: updatedKeys = [\"item_json\"]"), output)
        XCTAssertTrue(output.contains("→ refresh (item_json changed)"), output)
    }

    func testLiveForceUpdateDemo_checksTheVersionKeysThenFollowsThem() throws {
        server.publishTemplate(["required_version": "3.0.0"])
        let output = try runLive(remoteConfigArguments, { runForceUpdateDemo(backends: $0) }) { output in
            XCTAssertTrue(server.waitForOpenStreams(1, route: .remoteConfigRealtime, timeout: demoTimeout))
            // The stream opens beside the first fetch (as Firebase's listener does): publish only
            // once that fetch was answered, or it may already return 3.3.0 (CI saw it under load).
            XCTAssertTrue(output.waitFor("isUpdateRequired = false"), "the first check was printed")
            server.publishTemplate(["required_version": "3.3.0"])
            XCTAssertTrue(output.waitFor("isUpdateRequired = true"))
        }
        XCTAssertEqual(fetchTypes(), ["BASE/1", "REALTIME/1"])
        XCTAssertTrue(server.waitForOpenStreams(0, route: .remoteConfigRealtime, timeout: demoTimeout))
        XCTAssertTrue(output.contains("isUpdateRequired = false"), output)
        XCTAssertTrue(output.contains("required_version = \"3.0.0\" [remote]"), output)
        XCTAssertTrue(output.contains("latest_version = (not set) [static]"), output)
        XCTAssertTrue(output.contains("realtime update: updatedKeys = [\"required_version\"]"), output)
        XCTAssertTrue(output.contains("ALERT: \"Update required\""), output)
        XCTAssertTrue(output.contains("stopped observing"), output)
    }

    func testLiveForceUpdateDemo_refusedFetch_printsAHint() throws {
        var arguments = remoteConfigArguments
        arguments[3] = "a-wrong-SECRET-key"
        _ = arguments.remove(at: 5)  // --app-id: back to the placeholder
        _ = arguments.remove(at: 4)
        let output = try runLive(arguments, { runForceUpdateDemo(backends: $0) }) { output in
            XCTAssertTrue(output.waitFor("hint:"))
        }
        XCTAssertEqual(server.remoteConfigFetches.count, 0, "the server refused the key")
        XCTAssertTrue(output.contains("hint: check --remote-config-project and --api-key, and pass your app's ID with --app-id"), output)
    }

    func testLiveGroupCommentsDemo_readsAndStreamsWithTheToken() throws {
        server.requireDatabaseAuth(validTokens: [Self.token])
        try server.setDatabaseValue(["Groups": ["group0": ["hello"], "group1": ["hi"]], "Users": ["user1": ["group0", "group1"]]], at: "/")
        let output = try runLive(databaseArguments, { runGroupCommentsDemo(backends: $0) }) { output in
            XCTAssertTrue(output.waitFor("group0: hello\n"))
            try server.setDatabaseValue("hello again", at: "Groups/group0/1")
            XCTAssertTrue(output.waitFor("group0: hello, hello again"))
        }
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database, timeout: demoTimeout))
        let requests = server.requests(on: .database)
        XCTAssertEqual(requests.map { $0.query["auth"] }, Array(repeating: Self.token, count: requests.count))
        XCTAssertEqual(
            requests.first.map { [$0.method, $0.path, $0.header("Accept") == "text/event-stream" ? "stream" : "read"] },
            ["GET", "/Users/user1.json", "read"], "a plain read first")
        let streams = requests.filter { $0.header("Accept") == "text/event-stream" }
        XCTAssertEqual(Set(streams.map(\.path)), ["/Users/user1.json", "/Groups/group0.json", "/Groups/group1.json"])
        XCTAssertTrue(output.contains("(Realtime Database: live, \(server.databaseURL.absoluteString) (auth token <redacted>))"), output)
        XCTAssertTrue(output.contains("Users/user1 = "), output)
        XCTAssertTrue(output.contains("group0: hello"), output)
        XCTAssertTrue(output.contains("disposed: active listeners: 0"), output)
    }

    func testLiveGroupCommentsDemo_refusedToken_printsAHint() throws {
        server.requireDatabaseAuth(validTokens: ["another token"])
        let output = try runLive(databaseArguments, { runGroupCommentsDemo(backends: $0) }) { output in
            XCTAssertTrue(output.waitFor("hint:"))
        }
        XCTAssertTrue(output.contains("reading Users/user1 failed:"), output)
        XCTAssertTrue(
            output.contains(
                "hint: the rules refuse the read; sign in (--api-key with --anonymous or --email/--password), or pass --auth-token or --access-token"), output)
    }

    func testLiveGroupCommentsDemo_signsInWithTheAPIKeyAndReadsAsTheUser() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "PASSWORD-SECRET")
        server.requireDatabaseAuth()
        try server.setDatabaseValue(["Groups": ["group0": ["hello"]], "Users": ["user1": ["group0"]]], at: "/")
        let arguments = [
            "--database-url", server.databaseURL.absoluteString, "--api-key", Self.apiKey, "--email", "ann@example.com", "--password", "PASSWORD-SECRET",
            "--auth-url", server.baseURL.absoluteString, "--duration", "600",
        ]
        let output = try runLive(arguments, { runGroupCommentsDemo(backends: $0) }) { output in
            XCTAssertTrue(output.waitFor("group0: hello  [active listeners: 2]"))
        }
        XCTAssertTrue(output.contains("signed in to the project (email ann@example.com, uid \(uid.prefix(8))…)"), output)
        let requests = server.requests(on: .database)
        XCTAssertFalse(requests.isEmpty)
        XCTAssertEqual(Set(requests.map { $0.auth?.uid }), [uid], "every request as the signed-in user")
        XCTAssertEqual(server.requests(on: .auth).first?.query["key"], Self.apiKey, "the key is sent, never printed")
        for request in requests { XCTAssertFalse(output.contains(request.query["auth"] ?? "\u{0}"), "no ID token is printed") }
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database, timeout: demoTimeout))
    }

    func testLiveGroupCommentsDemo_failedSignIn_saysWhyAndReadsNothing() throws {
        server.requireDatabaseAuth()
        let arguments = [
            "--database-url", server.databaseURL.absoluteString, "--api-key", Self.apiKey, "--email", "nobody@example.com", "--password", "PASSWORD-SECRET",
            "--auth-url", server.baseURL.absoluteString,
        ]
        let output = try runLive(arguments, { runGroupCommentsDemo(backends: $0) }) { _ in }
        XCTAssertTrue(output.contains("signing in failed: "), output)
        XCTAssertTrue(server.requests(on: .database).isEmpty)
    }

    // MARK: - One backend given: the other demos stay embedded

    func testRemoteConfigDemo_withOnlyADatabase_runsEmbeddedAndSaysSo() throws {
        let output = try runLive(databaseArguments, { runForceUpdateDemo(backends: $0) }) { _ in }
        XCTAssertTrue(output.hasPrefix("(Remote Config: embedded in-memory backend — no --remote-config-project given)\n"), output)
        XCTAssertTrue(output.contains("ALERT shown again"), output)
        XCTAssertEqual(server.requests.count, 0, "nothing went to the network")
    }

    func testDatabaseDemo_withOnlyARemoteConfigProject_runsEmbeddedAndSaysSo() throws {
        let output = try runLive(remoteConfigArguments, { runGroupCommentsDemo(backends: $0) }) { _ in }
        XCTAssertTrue(output.hasPrefix("(Realtime Database: embedded in-memory database — no --database-url given)\n"), output)
        XCTAssertTrue(output.contains("disposed: active listeners: 0"), output)
        XCTAssertEqual(server.requests.count, 0, "nothing went to the network")
    }
}
