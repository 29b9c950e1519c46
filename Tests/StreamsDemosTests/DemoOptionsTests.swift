import ConfigFeatures
import Foundation
import StreamsDemos
import XCTest

/// `DemoOptions.parse(_:)`: every flag, every error, and that secrets never show.
final class DemoOptionsTests: XCTestCase {
    private func parse(_ arguments: String) throws -> DemoOptions {
        try DemoOptions.parse(arguments.split(separator: " ").map(String.init))
    }

    private func assertError(_ arguments: [String], _ expected: DemoOptionsError, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let options = try DemoOptions.parse(arguments)
            XCTFail("parsed \(options), expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }

    private func assertError(_ arguments: String, _ expected: DemoOptionsError, file: StaticString = #filePath, line: UInt = #line) {
        assertError(arguments.split(separator: " ").map(String.init), expected, file: file, line: line)
    }

    // MARK: - Defaults and demo names

    func testParse_noArguments_isEveryDemoOnTheEmbeddedBackends() throws {
        let options = try DemoOptions.parse([])
        XCTAssertEqual(options, DemoOptions())
        XCTAssertEqual(options.demoNames, [])
        XCTAssertEqual(options.selectedDemoNames, ["launch", "item-list", "force-update", "group-comments"])
        XCTAssertFalse(options.showsHelp)
        XCTAssertFalse(options.usesLocalServer)
        XCTAssertNil(options.remoteConfig)
        XCTAssertNil(options.database)
        XCTAssertEqual(options.duration, 20)
        XCTAssertEqual(DemoOptions.defaultDuration, 20)
    }

    func testParse_demoNames_runInCatalogOrderOnce() throws {
        let options = try parse("group-comments launch group-comments")
        XCTAssertEqual(options.demoNames, ["group-comments", "launch"])
        XCTAssertEqual(options.selectedDemoNames, ["launch", "group-comments"])
        XCTAssertEqual(try parse("item-list").selectedDemoNames, ["item-list"])
        XCTAssertEqual(try parse("force-update").selectedDemoNames, ["force-update"])
    }

    func testParse_catalogMatchesTheNames() {
        XCTAssertEqual(DemoCatalog.all.map(\.name), DemoOptions.demoNames)
        XCTAssertNotNil(DemoCatalog.entry(named: "launch"))
        XCTAssertNil(DemoCatalog.entry(named: "nope"))
    }

    func testParse_helpAndList() throws {
        XCTAssertTrue(try parse("--help").showsHelp)
        XCTAssertTrue(try parse("--list").showsHelp)
        XCTAssertTrue(try parse("-h").showsHelp)
        XCTAssertTrue(try parse("--list --list").showsHelp)
        // With --help the flags are not checked against each other (nothing runs)...
        XCTAssertTrue(try parse("--api-key KEY --help").showsHelp)
        // ...but every argument still is.
        assertError("--help --bogus", .unknownFlag("--bogus"))
        assertError("--help --duration 0", .invalidDuration("0"))
        assertError("--help=yes", .unexpectedValue(flag: "--help"))
    }

    func testUsage_namesEveryFlagAndDemo() {
        let usage = DemoOptions.usage
        for flag in [
            "--list", "--help", "--local-server", "--remote-config-project", "--api-key", "--app-id", "--remote-config-url",
            "--remote-config-realtime-url", "--database-url", "--auth-token", "--access-token", "--duration",
        ] {
            XCTAssertTrue(usage.contains(flag), flag)
        }
        for name in DemoOptions.demoNames { XCTAssertTrue(usage.contains(name), name) }
        XCTAssertTrue(usage.contains(DemoOptions.defaultAppID))
    }

    // MARK: - Backend flags

    func testParse_localServer() throws {
        let options = try parse("--local-server force-update")
        XCTAssertTrue(options.usesLocalServer)
        XCTAssertEqual(options.selectedDemoNames, ["force-update"])
        XCTAssertNil(options.remoteConfig)
        XCTAssertNil(options.database)
    }

    func testParse_remoteConfigProject_withDefaults() throws {
        let options = try parse("--remote-config-project 1234 --api-key AIzaKEY")
        let project = try XCTUnwrap(options.remoteConfig)
        XCTAssertEqual(project.project, "1234")
        XCTAssertEqual(project.apiKey.value, "AIzaKEY")
        XCTAssertEqual(project.appID, DemoOptions.defaultAppID)
        XCTAssertNil(project.fetchBaseURL)
        XCTAssertNil(project.realtimeBaseURL)
        XCTAssertNil(project.effectiveRealtimeBaseURL)
        XCTAssertNil(options.database)
    }

    func testParse_remoteConfigProject_everyFlag() throws {
        let options = try parse(
            "--api-key=K --remote-config-project p --app-id 1:99:ios:ab --remote-config-url https://rc.example.com "
                + "--remote-config-realtime-url https://rt.example.com/base --installations-url https://fis.example.com"
        )
        XCTAssertEqual(
            options.remoteConfig,
            DemoOptions.RemoteConfigProject(
                project: "p", apiKey: .init("K"), appID: "1:99:ios:ab",
                fetchBaseURL: URL(string: "https://rc.example.com"), realtimeBaseURL: URL(string: "https://rt.example.com/base"),
                installationsBaseURL: URL(string: "https://fis.example.com")
            ))
        XCTAssertEqual(options.remoteConfig?.effectiveRealtimeBaseURL, URL(string: "https://rt.example.com/base"))
    }

    /// Hosts that mix this machine with remote ones are refused before anything runs (part of
    /// the demo would reach a real service). Fails on ce3e235, which accepted them.
    func testParse_remoteConfigHosts_mixingLoopbackAndRemote_areRefused() {
        XCTAssertThrowsError(
            try parse("--api-key=K --remote-config-project p --remote-config-url http://127.0.0.1:8080 --remote-config-realtime-url https://rt.example.com")
        ) { error in
            XCTAssertEqual(
                error as? DemoOptionsError,
                .mixedEndpoints(.mixed(local: ["remoteConfigFetch", "installations"], remote: ["remoteConfigRealtime"])))
            XCTAssertTrue("\(error)".contains("point every endpoint at the test server or emulator"), "\(error)")
        }
        XCTAssertThrowsError(
            try parse("--api-key=K --remote-config-project p --installations-url http://localhost:9099")
        ) { error in
            XCTAssertEqual(
                error as? DemoOptionsError,
                .mixedEndpoints(.mixed(local: ["installations"], remote: ["remoteConfigFetch", "remoteConfigRealtime"])))
        }
    }

    func testParse_remoteConfigURL_isAlsoTheRealtimeHostByDefault() throws {
        let options = try parse("--remote-config-project p --api-key K --remote-config-url http://127.0.0.1:8080")
        XCTAssertEqual(options.remoteConfig?.effectiveRealtimeBaseURL, URL(string: "http://127.0.0.1:8080"))
    }

    func testParse_database_everyCredential() throws {
        let none = try parse("--database-url https://demo-default-rtdb.firebaseio.com")
        XCTAssertEqual(none.database, DemoOptions.DatabaseProject(url: URL(string: "https://demo-default-rtdb.firebaseio.com")!, credential: .none))
        XCTAssertEqual(none.database?.credential.restAuth, FirebaseRESTAuth.none)

        let id = try parse("--database-url https://db.example.com --auth-token ID-TOKEN")
        XCTAssertEqual(id.database?.credential, .idToken(.init("ID-TOKEN")))
        XCTAssertEqual(id.database?.credential.restAuth, .idToken("ID-TOKEN"))

        let access = try parse("--access-token=ya29.TOKEN --database-url=http://127.0.0.1:9000/?ns=demo")
        XCTAssertEqual(access.database?.credential, .accessToken(.init("ya29.TOKEN")))
        XCTAssertEqual(access.database?.credential.restAuth, .accessToken("ya29.TOKEN"))
        XCTAssertEqual(access.database?.url, URL(string: "http://127.0.0.1:9000/?ns=demo"))
        XCTAssertNil(access.remoteConfig)
    }

    func testParse_bothProjects_andDuration() throws {
        let options = try parse("launch --remote-config-project p --api-key K --database-url https://db.example.com --duration 2.5")
        XCTAssertNotNil(options.remoteConfig)
        XCTAssertNotNil(options.database)
        XCTAssertEqual(options.duration, 2.5)
        XCTAssertEqual(try parse("--duration 90").duration, 90)
        XCTAssertEqual(try parse("--duration=0.25").duration, 0.25)
    }

    // MARK: - Errors

    func testParse_missingValues() {
        for flag in [
            "--remote-config-project", "--api-key", "--app-id", "--remote-config-url", "--remote-config-realtime-url",
            "--database-url", "--auth-token", "--access-token", "--duration",
        ] {
            assertError([flag], .missingValue(flag: flag))
            assertError([flag, "--local-server"], .missingValue(flag: flag))
            assertError([flag + "="], .missingValue(flag: flag))
        }
    }

    func testParse_unknownFlagsAndDemos() {
        assertError("--bogus", .unknownFlag("--bogus"))
        assertError("-x", .unknownFlag("-x"))
        assertError("--api-ky=SECRET", .unknownFlag("--api-ky"))
        assertError("launch nope", .unknownDemo("nope"))
        assertError("--local-server=1", .unexpectedValue(flag: "--local-server"))
    }

    func testParse_repeatedValueFlag() {
        assertError("--duration 1 --duration 2", .repeatedFlag("--duration"))
        assertError("--remote-config-project p --api-key A --api-key=B", .repeatedFlag("--api-key"))
    }

    func testParse_apiKeyAndProjectComeTogether() {
        assertError("--api-key K", .missingCompanion(flag: "--api-key", required: "--remote-config-project"))
        assertError("--remote-config-project p", .missingCompanion(flag: "--remote-config-project", required: "--api-key"))
        assertError("--app-id 1:2:ios:3", .missingCompanion(flag: "--app-id", required: "--remote-config-project"))
        assertError("--remote-config-url http://127.0.0.1", .missingCompanion(flag: "--remote-config-url", required: "--remote-config-project"))
        assertError(
            "--remote-config-realtime-url http://127.0.0.1",
            .missingCompanion(flag: "--remote-config-realtime-url", required: "--remote-config-project"))
    }

    func testParse_tokens() {
        assertError("--database-url https://db.example.com --auth-token A --access-token B", .conflictingFlags("--auth-token", "--access-token"))
        assertError("--auth-token A --access-token B", .conflictingFlags("--auth-token", "--access-token"))
        assertError("--auth-token A", .missingCompanion(flag: "--auth-token", required: "--database-url"))
        assertError("--access-token A", .missingCompanion(flag: "--access-token", required: "--database-url"))
    }

    func testParse_localServerExcludesRealProjects() {
        assertError("--local-server --remote-config-project p --api-key K", .conflictingFlags("--local-server", "--remote-config-project"))
        assertError("--local-server --database-url https://db.example.com", .conflictingFlags("--local-server", "--database-url"))
    }

    func testParse_malformedURLs() {
        for flag in ["--remote-config-url", "--remote-config-realtime-url", "--database-url"] {
            for value in ["not a url", "ftp://host", "db.example.com", "https://", "file:///tmp/x"] {
                var arguments = [flag, value]
                if flag != "--database-url" { arguments += ["--remote-config-project", "p", "--api-key", "K"] }
                assertError(arguments, .malformedURL(flag: flag, value: value))
            }
        }
        assertError("--database-url https://db.example.com/?auth=SECRET", .credentialInURL(flag: "--database-url"))
        assertError("--database-url https://db.example.com?access_token=SECRET", .credentialInURL(flag: "--database-url"))
    }

    func testParse_invalidDurations() {
        for value in ["0", "-1", "-0.5", "abc", "inf", "nan", "1s"] {
            assertError(["--duration", value], .invalidDuration(value))
        }
    }

    func testErrors_describeTheProblem() {
        XCTAssertEqual(DemoOptionsError.missingValue(flag: "--api-key").description, "--api-key needs a value")
        XCTAssertEqual(DemoOptionsError.unknownFlag("--x").description, "unknown option --x; try --help")
        XCTAssertEqual(DemoOptionsError.unknownDemo("x").description, "unknown demo x; the demos are launch, item-list, force-update, group-comments")
        XCTAssertEqual(
            DemoOptionsError.missingCompanion(flag: "--api-key", required: "--remote-config-project").description,
            "--api-key needs --remote-config-project")
        XCTAssertEqual(
            DemoOptionsError.conflictingFlags("--auth-token", "--access-token").description,
            "--auth-token and --access-token cannot be used together")
        XCTAssertEqual(DemoOptionsError.invalidDuration("0").description, "--duration needs a positive number of seconds, not \"0\"")
        XCTAssertEqual(
            DemoOptionsError.malformedURL(flag: "--database-url", value: "x").description,
            "--database-url needs an absolute http(s) URL with a host, not \"x\"")
        XCTAssertEqual(DemoOptionsError.repeatedFlag("--duration").description, "--duration is given more than once")
        XCTAssertEqual(DemoOptionsError.unexpectedValue(flag: "--list").description, "--list takes no value")
        XCTAssertTrue(DemoOptionsError.credentialInURL(flag: "--database-url").description.contains("--auth-token"))
    }

    // MARK: - Masking

    func testSecrets_areMaskedEverywhere() throws {
        let options = try parse(
            "--remote-config-project p --api-key AIzaSECRETKEY --database-url https://db.example.com --auth-token ID-SECRET-TOKEN"
        )
        var dumped = ""
        dump(options, to: &dumped)
        let project = try XCTUnwrap(options.remoteConfig)
        let database = try XCTUnwrap(options.database)
        let texts = [
            options.description, String(describing: options), String(reflecting: options), dumped,
            "\(project)", "\(database)", "\(project.apiKey)", String(reflecting: project.apiKey), "\(database.credential)",
        ]
        for text in texts {
            XCTAssertFalse(text.contains("SECRET"), text)
        }
        XCTAssertTrue(options.description.contains("<redacted>"))
        XCTAssertTrue(options.description.contains("project p"))
        XCTAssertTrue(options.description.contains("https://db.example.com"))

        let access = try parse("--database-url https://db.example.com --access-token ya29.SECRET")
        var dumpedAccess = ""
        dump(access, to: &dumpedAccess)
        XCTAssertFalse(access.description.contains("SECRET"))
        XCTAssertFalse(dumpedAccess.contains("SECRET"))
        XCTAssertTrue(access.description.contains("access token <redacted>"))
    }

    func testSecrets_areNotEchoedByErrors() {
        for arguments in [
            ["--api-key", "SECRET"], ["--api-ky=SECRET"], ["--auth-token", "SECRET"], ["--access-token=SECRET"],
            ["--remote-config-project", "p", "--api-key", "SECRET", "--api-key", "SECRET"],
            ["--database-url", "https://db.example.com", "--auth-token", "SECRET", "--access-token", "SECRET"],
        ] {
            do {
                _ = try DemoOptions.parse(arguments)
                XCTFail("\(arguments) parsed")
            } catch {
                XCTAssertFalse(error.description.contains("SECRET"), error.description)
            }
        }
    }
}
