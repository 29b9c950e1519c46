import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import XCTest

/// `firebase-test-server`'s command line (`FirebaseTestServerTool`), and the executable itself.
final class FirebaseTestServerToolTests: ToolTestCase {
    private func start(_ options: FirebaseTestServerTool.Options) throws -> FirebaseTestServer {
        let server = try FirebaseTestServerTool.start(options)
        servers.append(server)
        return server
    }

    private func parseError(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let command = try FirebaseTestServerTool.parse(arguments)
            XCTFail("\(arguments) parsed as \(command)", file: file, line: line)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Parsing

    func testParse_defaultsAndEveryOption() throws {
        var expected = FirebaseTestServerTool.Options()
        XCTAssertEqual(try FirebaseTestServerTool.parse([]), .serve(expected))
        XCTAssertEqual(expected.project, "demo-project")
        XCTAssertEqual(expected.apiKey, "test-api-key")
        XCTAssertEqual(expected.port, 0)
        expected.port = 9000
        expected.portFile = "/tmp/p"
        expected.project = "my-project"
        expected.apiKey = "my-key"
        expected.remoteConfigFile = "t.json"
        expected.databaseFile = "d.json"
        expected.requiredTokens = ["a", "b"]
        let arguments = [
            "--port", "9000", "--port-file", "/tmp/p", "--project", "my-project", "--api-key=my-key", "--remote-config", "t.json",
            "--database=d.json", "--require-token", "a", "--require-token=b",
        ]
        XCTAssertEqual(try FirebaseTestServerTool.parse(arguments), .serve(expected))
        XCTAssertEqual(try FirebaseTestServerTool.parse(["--port", "1", "--port", "0"]), .serve(FirebaseTestServerTool.Options()), "the last value wins")
        XCTAssertEqual(try FirebaseTestServerTool.parse(["--help"]), .help)
        XCTAssertEqual(try FirebaseTestServerTool.parse(["--port", "1", "-h"]), .help)
    }

    func testParse_badArgumentsSayWhatWasExpected() {
        XCTAssertEqual(parseError(["--port"]), "--port expects a port number (0...65535; 0: any free port)")
        XCTAssertEqual(parseError(["--port", "abc"]), #"--port expects a port number from 0 to 65535 (0: any free port), got "abc""#)
        XCTAssertEqual(parseError(["--port=70000"]), #"--port expects a port number from 0 to 65535 (0: any free port), got "70000""#)
        XCTAssertEqual(parseError(["--port-file", "--port", "1"]), "--port-file expects a file path, got the option --port")
        XCTAssertEqual(parseError(["--project", ""]), "--project expects a project ID such as demo-project, got an empty value")
        XCTAssertEqual(
            parseError(["--project", "a/b"]), #"--project expects a project ID such as demo-project without spaces or any of / ? # & % :, got "a/b""#)
        XCTAssertEqual(parseError(["--remote-config"]), "--remote-config expects a template file (JSON)")
        XCTAssertEqual(
            parseError(["--verbose"]),
            "unknown option --verbose; the options are --port, --port-file, --project, --api-key, --remote-config, --remote-config-server, "
                + "--database, --database-rules, "
                + "--require-token, "
                + "--auth-users, --id-token-lifetime, --require-auth, --help")
        XCTAssertEqual(parseError(["9000"])?.hasPrefix(#"unexpected argument "9000": every argument is an option"#), true)
        XCTAssertEqual(parseError(["--help=yes"]), "--help takes no value")
        let error = FirebaseTestServerTool.UsageError(message: "--port expects a port number")
        XCTAssertEqual(error.description, "firebase-test-server: --port expects a port number\n(run firebase-test-server --help for every option)")
    }

    // MARK: Help

    func testHelp_listsOptionsEndpointsAcceptedValuesAndAnExample() {
        let help = FirebaseTestServerTool.help
        for option in FirebaseTestServerTool.optionNames {
            XCTAssertTrue(help.contains(option), "missing \(option)")
        }
        for endpoint in [
            "POST /v1/projects/demo-project/namespaces/firebase:fetch?key=test-api-key",
            "POST /v1/projects/demo-project/namespaces/firebase:streamFetchInvalidations?key=test-api-key",
            "GET|PUT /v1/projects/demo-project/remoteConfig",
            "POST /v1/projects/demo-project/installations?key=test-api-key",
            "POST /v1/projects/demo-project/installations/{fid}/authTokens:generate?key=test-api-key",
            "GET|PUT|PATCH|POST|DELETE /{path}.json",
        ] {
            XCTAssertTrue(help.contains(endpoint), "missing \(endpoint)")
        }
        XCTAssertTrue(help.contains("project demo-project and API key test-api-key"))
        XCTAssertTrue(help.contains(#"{"parameters": {"welcome": {"defaultValue": {"value": "hi"}}}"#))
        XCTAssertTrue(help.contains("Example:\n  firebase-test-server --port 9000 --remote-config template.json --database data.json"))
        XCTAssertTrue(help.contains("owner"))
        XCTAssertTrue(help.contains("2 for bad arguments"))
        XCTAssertFalse(help.split(separator: "\n").contains { $0.count > 120 }, "lines fit a terminal")
    }

    // MARK: Starting

    func testStart_loadsTemplateAndDatabaseAndWritesThePortFile() throws {
        var options = FirebaseTestServerTool.Options()
        options.remoteConfigFile = try write(FirebaseTestServerTemplateTests.firebaseTemplate, to: "template.json")
        options.databaseFile = try write(#"{"users": {"ann": {"name": "Ann"}}}"#, to: "db.json")
        options.portFile = folder.appendingPathComponent("port").path
        options.project = "my-project"
        options.apiKey = "my-key"
        options.requiredTokens = ["secret"]
        let server = try start(options)
        XCTAssertEqual(try String(contentsOfFile: options.portFile!, encoding: .utf8), "\(server.port)\n")
        XCTAssertEqual(server.project, "my-project")
        XCTAssertEqual(server.apiKey, "my-key")
        XCTAssertEqual(server.templateVersion, 1)
        XCTAssertEqual(server.templateEntries, ["welcome": "hi", "steps": "3"])
        XCTAssertEqual(try server.databaseValue(at: "users/ann/name"), "Ann")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/users")).status, 401)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/users", query: ["auth": "secret"])).status, 200)
        XCTAssertEqual(try client.send(server.fetchRequest()).json?["entries"]?["welcome"], "hi iOS", "the template's ios condition holds for an iOS app")
        let banner = FirebaseTestServerTool.banner(for: server, options: options)
        XCTAssertEqual(
            banner.split(separator: "\n").map(String.init),
            [
                "database http://127.0.0.1:\(server.port)",
                "remote-config http://127.0.0.1:\(server.port)",
                "project my-project",
                "api-key my-key",
                "fetch POST http://127.0.0.1:\(server.port)/v1/projects/my-project/namespaces/firebase:fetch?key=my-key",
                "publish PUT http://127.0.0.1:\(server.port)/v1/projects/my-project/remoteConfig",
                "auth http://127.0.0.1:\(server.port)/identitytoolkit.googleapis.com/v1 (FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:\(server.port))",
                "template version 1 (2 parameters) from \(options.remoteConfigFile!)",
                "database contents from \(options.databaseFile!)",
                "database tokens secret owner",
            ])
    }

    func testStart_failuresNameThePortOrTheFile() throws {
        let busy = try FirebaseTestServer()
        servers.append(busy)
        var options = FirebaseTestServerTool.Options()
        options.port = busy.port
        XCTAssertThrowsError(try start(options)) { error in
            XCTAssertEqual(
                "\(error)",
                "firebase-test-server: cannot listen on 127.0.0.1:\(busy.port): the port is already in use (choose another --port, or --port 0 for any free port)"
            )
        }
        options.port = 0
        let template = try write(#"{"parameters": {"a": {"defaultValue": {"value": true}}}}"#, to: "bad-template.json")
        options.remoteConfigFile = template
        XCTAssertThrowsError(try start(options)) { error in
            XCTAssertEqual(
                "\(error)",
                "firebase-test-server: --remote-config: the file \(template) is not a Remote Config template: at parameters.a.defaultValue.value, "
                    + #"expected a string (Remote Config values are strings: write "true" for true)"#)
        }
        options.remoteConfigFile = nil
        let database = try write(#"{"users": "#, to: "bad-db.json")
        options.databaseFile = database
        XCTAssertThrowsError(try start(options)) { error in
            XCTAssertTrue("\(error)".hasPrefix("firebase-test-server: --database: the file \(database) is not valid JSON: "), "\(error)")
        }
        options.databaseFile = nil
        options.portFile = folder.appendingPathComponent("no-such-folder/port").path
        XCTAssertThrowsError(try start(options)) { error in
            XCTAssertTrue("\(error)".hasPrefix("firebase-test-server: --port-file: cannot write \(options.portFile!)"), "\(error)")
        }
        XCTAssertEqual(servers.count, 1, "nothing keeps running after a failed start")
    }

    // MARK: The executable

    /// `firebase-test-server`, built next to this test bundle (`swift test` builds every executable).
    private func executable() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent("firebase-test-server")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw HTTPClientError(description: "firebase-test-server is not built next to the tests (looked in \(candidates.map(\.path)))")
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    func testExecutable_helpAndBadArguments() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.output, FirebaseTestServerTool.help + "\n")
        let bad = try run(["--port", "http"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.output, "")
        XCTAssertEqual(
            bad.error,
            "firebase-test-server: --port expects a port number from 0 to 65535 (0: any free port), got \"http\"\n(run firebase-test-server --help for every option)\n"
        )
        let missing = try run(["--remote-config", folder.appendingPathComponent("none.json").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.error, "firebase-test-server: --remote-config: cannot read \(folder.appendingPathComponent("none.json").path): no such file\n")
        let badCondition = try write(
            #"{"conditions": [{"name": "beta", "expression": "device.os == 'ios' || app.version > '2'"}], "parameters": {}}"#, to: "bad-condition.json")
        let refused = try run(["--port", "0", "--remote-config", badCondition])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(
            refused.error,
            "firebase-test-server: --remote-config: the file \(badCondition) has an invalid condition \"beta\" at position 19: "
                + "a condition (Firebase joins elements with && only) does not take the operator ||\n")
    }

    func testExecutable_servesTheFilesAndPublishesOverHTTP() throws {
        let template = try write(FirebaseTestServerTemplateTests.firebaseTemplate, to: "template.json")
        let database = try write(#"{"users": {"ann": {"name": "Ann"}}}"#, to: "db.json")
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["--port", "0", "--remote-config", template, "--database", database, "--require-token", "secret"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Blocking reads until the banner is complete (or the process ends).
        var banner = ""
        while !banner.contains("database tokens") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let first = try XCTUnwrap(banner.split(separator: "\n").first, banner)
        XCTAssertTrue(first.hasPrefix("database http://127.0.0.1:"), banner)
        let base = String(first.dropFirst("database ".count))
        XCTAssertTrue(banner.contains("template version 1 (2 parameters) from \(template)"), banner)

        var fetch = URLRequest(url: URL(string: "\(base)/v1/projects/demo-project/namespaces/firebase:fetch?key=test-api-key")!)
        fetch.httpMethod = "POST"
        fetch.httpBody = Data("{}".utf8)
        XCTAssertEqual(try client.send(fetch).json, ["entries": ["welcome": "hi", "steps": "3"], "state": "UPDATE", "templateVersion": "1"])
        XCTAssertEqual(try client.send("GET", URL(string: "\(base)/users/ann.json")!, headers: ["Authorization": "Bearer owner"]).json, ["name": "Ann"])
        XCTAssertEqual(try client.send("GET", URL(string: "\(base)/users/ann.json")!).status, 401)
        let publish = try client.send(
            "PUT", URL(string: "\(base)/v1/projects/demo-project/remoteConfig")!,
            body: Data(#"{"parameters": {"welcome": {"defaultValue": {"value": "hello"}}}}"#.utf8))
        XCTAssertEqual(publish.status, 200, publish.text)
        XCTAssertEqual(try client.send(fetch).json, ["entries": ["welcome": "hello"], "state": "UPDATE", "templateVersion": "2"])
    }
}
