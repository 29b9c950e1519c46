import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `firebase-test-server`'s Auth options: `--auth-users`, `--id-token-lifetime`, `--require-auth`.
final class FirebaseTestServerAuthToolTests: ToolTestCase {
    func testParse_authOptions() throws {
        var expected = FirebaseTestServerTool.Options()
        expected.authUsersFile = "users.json"
        expected.idTokenLifetime = 90
        expected.requireAuth = true
        XCTAssertEqual(
            try FirebaseTestServerTool.parse(["--auth-users", "users.json", "--id-token-lifetime=90", "--require-auth"]), .serve(expected))
        for (arguments, message) in [
            (["--id-token-lifetime", "0"], #"--id-token-lifetime expects a number of seconds of at least 1, got "0""#),
            (["--id-token-lifetime", "soon"], #"--id-token-lifetime expects a number of seconds of at least 1, got "soon""#),
            (["--require-auth=yes"], "--require-auth takes no value"),
            (["--auth-users"], "--auth-users expects a users file (JSON)"),
        ] {
            XCTAssertThrowsError(try FirebaseTestServerTool.parse(arguments)) { error in
                XCTAssertEqual((error as? FirebaseTestServerTool.UsageError)?.message, message)
            }
        }
        let help = FirebaseTestServerTool.help
        for option in ["--auth-users FILE", "--id-token-lifetime S", "--require-auth", "FIREBASE_AUTH_EMULATOR_HOST", "/securetoken.googleapis.com/v1/token"] {
            XCTAssertTrue(help.contains(option), "missing \(option)")
        }
    }

    func testStart_seedsUsersSetsTheLifetimeAndRequiresAuth() throws {
        var options = FirebaseTestServerTool.Options()
        options.authUsersFile = try write(
            #"[{"uid": "ann", "email": "ann@example.com", "password": "secret1", "customClaims": {"role": "admin"}}, {"uid": "guest"}]"#, to: "users.json")
        options.idTokenLifetime = 90
        options.requireAuth = true
        let server = try FirebaseTestServerTool.start(options)
        servers.append(server)
        XCTAssertEqual(server.authUsers.map(\.uid), ["ann", "guest"])
        XCTAssertEqual(server.idTokenLifetime, 90)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 401)
        let url = URL(string: "\(server.baseURL)/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test-api-key")!
        let signIn = try client.send("POST", url, json: ["email": "ann@example.com", "password": "secret1", "returnSecureToken": true])
        XCTAssertEqual(signIn.json?["expiresIn"], "90")
        let token = try XCTUnwrap(signIn.json?["idToken"]?.stringValue)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": token])).status, 200)
        let banner = FirebaseTestServerTool.banner(for: server, options: options)
        XCTAssertTrue(banner.contains("auth users 2 from \(options.authUsersFile!)"), banner)
        XCTAssertTrue(banner.contains("database auth required"), banner)
        XCTAssertFalse(banner.contains("secret1"))
    }

    func testStart_badUsersFileNamesTheProblemAndExits2() throws {
        var options = FirebaseTestServerTool.Options()
        let file = try write(#"[{"uid": "a", "email": "a@example.com", "password": "hunter"}, {"email": "b@example.com", "password": "123"}]"#, to: "bad.json")
        options.authUsersFile = file
        XCTAssertThrowsError(try FirebaseTestServerTool.start(options)) { error in
            let startError = error as? FirebaseTestServerTool.StartError
            XCTAssertEqual(startError?.exitStatus, 2)
            XCTAssertEqual(
                "\(error)",
                "firebase-test-server: --auth-users: the file \(file) (user at index 1): the password should be at least 6 characters (WEAK_PASSWORD)")
            XCTAssertFalse("\(error)".contains("hunter"))
        }
        options.authUsersFile = try write("[{", to: "broken.json")
        XCTAssertThrowsError(try FirebaseTestServerTool.start(options)) { error in
            XCTAssertEqual((error as? FirebaseTestServerTool.StartError)?.exitStatus, 2)
            XCTAssertTrue("\(error)".hasPrefix("firebase-test-server: --auth-users: the file \(options.authUsersFile!) is not valid JSON"), "\(error)")
        }
    }

    func testExecutable_badUsersFileExits2() throws {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        let executable = try XCTUnwrap(
            candidates.map { $0.appendingPathComponent("firebase-test-server") }.first { FileManager.default.isExecutableFile(atPath: $0.path) })
        let file = try write(#"{"uid": "a"}"#, to: "object.json")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--auth-users", file]
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertEqual(message, "firebase-test-server: --auth-users: the file \(file): expected a JSON array of user objects\n")
    }
}
