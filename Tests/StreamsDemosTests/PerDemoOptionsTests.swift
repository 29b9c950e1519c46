import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import StreamsDemos
import XCTest

/// `DemoOptions.parse(_:demo:)`: the per-demo executables (`group-comments-demo`, …) take
/// `streams-demo`'s options that apply to their demo, and nothing else.
final class PerDemoOptionsTests: XCTestCase {
    private func assertError(_ arguments: [String], demo: String, _ expected: DemoOptionsError, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let options = try DemoOptions.parse(arguments, demo: demo)
            XCTFail("parsed \(options), expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }

    func testParse_noArguments_selectsTheDemoOnTheEmbeddedBackends() throws {
        for demo in DemoOptions.demoNames {
            let options = try DemoOptions.parse([], demo: demo)
            XCTAssertEqual(options.selectedDemoNames, [demo])
            XCTAssertFalse(options.usesLocalServer)
            XCTAssertFalse(options.showsHelp)
        }
    }

    func testParse_localServerAndHelp_applyToEveryDemo() throws {
        for demo in DemoOptions.demoNames {
            let options = try DemoOptions.parse(["--local-server", "--duration", "5", "--timeline=t.html"], demo: demo)
            XCTAssertTrue(options.usesLocalServer)
            XCTAssertEqual(options.duration, 5)
            XCTAssertEqual(options.timelinePath, "t.html")
            XCTAssertEqual(options.selectedDemoNames, [demo])
            XCTAssertTrue(try DemoOptions.parse(["-h"], demo: demo).showsHelp)
            XCTAssertTrue(try DemoOptions.parse(["--help"], demo: demo).showsHelp)
        }
    }

    func testParse_databaseFlags_applyToGroupCommentsOnly() throws {
        let options = try DemoOptions.parse(["--database-url", "https://x.firebaseio.com", "--auth-token", "T"], demo: "group-comments")
        XCTAssertEqual(options.database?.url.absoluteString, "https://x.firebaseio.com")
        for demo in ["launch", "item-list", "force-update"] {
            assertError(["--database-url", "https://x.firebaseio.com"], demo: demo, .inapplicableFlag("--database-url", program: "\(demo)-demo"))
            assertError(["--access-token=T"], demo: demo, .inapplicableFlag("--access-token", program: "\(demo)-demo"))
        }
    }

    func testParse_remoteConfigFlags_doNotApplyToGroupComments() throws {
        let options = try DemoOptions.parse(["--remote-config-project", "123", "--api-key", "K"], demo: "launch")
        XCTAssertEqual(options.remoteConfig?.project, "123")
        assertError(["--app-id", "1:2:ios:3"], demo: "group-comments", .inapplicableFlag("--app-id", program: "group-comments-demo"))
        // --api-key applies to the database demo too, but only to sign a user in.
        assertError(["--api-key", "K"], demo: "group-comments", .missingCompanion(flag: "--api-key", required: "--anonymous or --email"))
        assertError(["--remote-config-project=1"], demo: "group-comments", .inapplicableFlag("--remote-config-project", program: "group-comments-demo"))
    }

    func testParse_signInFlags_applyToGroupCommentsOnly() throws {
        let anonymous = try DemoOptions.parse(["--database-url", "https://x.firebaseio.com", "--api-key", "KEY", "--anonymous"], demo: "group-comments")
        XCTAssertEqual(anonymous.database?.credential, .signIn(.anonymous, apiKey: DemoOptions.Secret("KEY")))
        let email = try DemoOptions.parse(
            ["--database-url", "https://x.firebaseio.com", "--api-key", "KEY", "--email", "ann@example.com", "--password", "PASSWORD"], demo: "group-comments")
        XCTAssertEqual(
            email.database?.credential, .signIn(.email("ann@example.com", password: DemoOptions.Secret("PASSWORD")), apiKey: DemoOptions.Secret("KEY")))
        XCTAssertEqual(email.database?.credential.description, "signs in: email ann@example.com, api key <redacted>")
        XCTAssertFalse("\(email)".contains("PASSWORD") || "\(email)".contains("KEY"), "\(email)")
        for demo in ["launch", "item-list", "force-update"] {
            assertError(["--anonymous"], demo: demo, .inapplicableFlag("--anonymous", program: "\(demo)-demo"))
        }
        let url = ["--database-url", "https://x.firebaseio.com"]
        assertError(url + ["--anonymous"], demo: "group-comments", .missingCompanion(flag: "--anonymous", required: "--api-key"))
        assertError(["--api-key", "K", "--anonymous"], demo: "group-comments", .missingCompanion(flag: "--anonymous", required: "--database-url"))
        assertError(url + ["--api-key", "K", "--email", "a@b.c"], demo: "group-comments", .missingCompanion(flag: "--email", required: "--password"))
        assertError(url + ["--api-key", "K", "--password", "p"], demo: "group-comments", .missingCompanion(flag: "--password", required: "--email"))
        assertError(
            url + ["--api-key", "K", "--anonymous", "--email", "a@b.c", "--password", "p"], demo: "group-comments",
            .conflictingFlags("--anonymous", "--email"))
        assertError(url + ["--api-key", "K", "--anonymous", "--auth-token", "T"], demo: "group-comments", .conflictingFlags("--auth-token", "--anonymous"))
        assertError(["--local-server", "--anonymous"], demo: "group-comments", .missingCompanion(flag: "--anonymous", required: "--database-url"))
        assertError(
            url + ["--auth-url", "http://127.0.0.1:9099"], demo: "group-comments", .missingCompanion(flag: "--auth-url", required: "--anonymous or --email"))
        let emulator = try DemoOptions.parse(url + ["--api-key", "K", "--anonymous", "--auth-url", "http://127.0.0.1:9099"], demo: "group-comments")
        XCTAssertEqual(emulator.database?.authBaseURL, URL(string: "http://127.0.0.1:9099"))
    }

    func testParse_unknownFlagsAndArguments_areErrors() {
        assertError(["--bogus"], demo: "group-comments", .unknownFlag("--bogus"))
        assertError(["--local-server", "--verbose"], demo: "launch", .unknownFlag("--verbose"))
        assertError(["launch"], demo: "launch", .unexpectedArgument("launch", program: "launch-demo"))
        assertError(["extra"], demo: "item-list", .unexpectedArgument("extra", program: "item-list-demo"))
        assertError([], demo: "nope", .unknownDemo("nope"))
        // What parse(_:) rejects is rejected too.
        assertError(["--duration", "0"], demo: "force-update", .invalidDuration("0"))
        assertError(["--local-server=yes"], demo: "force-update", .unexpectedValue(flag: "--local-server"))
    }

    func testErrors_sayWhatToDo() {
        XCTAssertEqual(
            DemoOptionsError.unexpectedArgument("x", program: "launch-demo").description,
            "unexpected argument x; launch-demo runs one demo and takes options only; try --help")
        XCTAssertEqual(
            DemoOptionsError.inapplicableFlag("--api-key", program: "group-comments-demo").description,
            "--api-key does not apply to group-comments-demo; try --help")
    }

    /// The help lists exactly the options that parse, and says what the demo shows.
    func testUsage_listsTheApplicableOptionsOnly() throws {
        for demo in DemoOptions.demoNames {
            let usage = DemoOptions.usage(demo: demo)
            XCTAssertTrue(usage.hasPrefix("usage: \(demo)-demo [options]\n"), usage)
            XCTAssertTrue(usage.contains(try XCTUnwrap(DemoCatalog.entry(named: demo)).summary), usage)
            let listed = Set(usage.matches(of: /(?m)^  (-[-a-z]+)/).map { String($0.1) })
            XCTAssertTrue(listed.isSubset(of: DemoOptions.flags(for: demo)), "\(listed.subtracting(DemoOptions.flags(for: demo)))")
            XCTAssertTrue(listed.contains("--local-server"), usage)
            XCTAssertTrue(usage.split(separator: "\n").filter { !$0.hasPrefix("  ") }.allSatisfy { $0.count <= 100 }, usage)  // prose wrapped
        }
        XCTAssertTrue(DemoOptions.usage(demo: "group-comments").contains("--database-url"))
        func listed(_ demo: String) -> Set<String> { Set(DemoOptions.usage(demo: demo).matches(of: /(?m)^  (-[-a-z]+)/).map { String($0.1) }) }
        XCTAssertTrue(listed("group-comments").isSuperset(of: ["--api-key", "--anonymous", "--email", "--password"]))
        XCTAssertFalse(listed("group-comments").contains("--remote-config-project"))
        XCTAssertTrue(listed("launch").isDisjoint(with: ["--anonymous", "--email", "--password"]))
        XCTAssertFalse(DemoOptions.usage(demo: "launch").contains("--database-url"))
        XCTAssertTrue(DemoOptions.usage.contains("--database-url") && DemoOptions.usage.contains("--api-key"))
    }

    /// The group comments intro names only the sections that run: the chat-scale section runs on
    /// the embedded database only.
    func testGroupCommentsWhy_matchesWhatEachModeRuns() throws {
        let entry = try XCTUnwrap(DemoCatalog.entry(named: "group-comments"))
        let embedded = entry.why(on: .embedded)
        XCTAssertTrue(embedded.contains("a large group is followed through a window of its last comments"), embedded)
        XCTAssertTrue(embedded.contains("a comment posted offline"), embedded)
        let server = try FirebaseTestServer()
        defer { server.stop() }
        let overHTTP = entry.why(on: DemoBackends(localServer: server))
        XCTAssertFalse(overHTTP.contains("a large group is followed"), overHTTP)
        XCTAssertTrue(overHTTP.contains("a comment posted offline"), overHTTP)
        XCTAssertTrue(overHTTP.contains("chat-scale section runs on the embedded database only"), overHTTP)
        XCTAssertTrue(overHTTP.contains("under the group chat's Security Rules each user reads only their groups"), overHTTP)
        XCTAssertEqual(try XCTUnwrap(DemoCatalog.entry(named: "launch")).why(on: DemoBackends(localServer: server)), DemoCatalog.entry(named: "launch")?.why)
    }

    /// Bad arguments exit with status 2 before anything runs (the per-demo `main`s return this).
    func testCommand_badArgumentsExitWithStatus2() {
        XCTAssertEqual(DemoCommand.run(demo: "group-comments", arguments: ["--bogus"]), 2)
        XCTAssertEqual(DemoCommand.run(demo: "launch", arguments: ["--database-url", "https://x.firebaseio.com"]), 2)
        XCTAssertEqual(DemoCommand.run(demo: "item-list", arguments: ["item-list"]), 2)
        XCTAssertEqual(DemoCommand.run(demo: nil, arguments: ["--bogus"]), 2)
    }

    #if !Inspector
    /// Built without the `Inspector` trait, `--timeline` exits with status 1 before anything runs
    /// (and writes nothing: the path's folder does not exist).
    func testCommand_timelineWithoutTheInspectorTraitExitsWithStatus1() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID().uuidString)/t.html").path
        XCTAssertEqual(DemoCommand.run(demo: "launch", arguments: ["--timeline", path]), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
    #endif
}
