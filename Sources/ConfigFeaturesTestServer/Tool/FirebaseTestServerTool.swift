import ConfigFeatures
import Foundation

/// The `firebase-test-server` command line: its arguments, `--help`, and starting the server
/// they describe. `Examples/FirebaseTestServerTool/main.swift` only prints and exits; the tests
/// drive this type.
package enum FirebaseTestServerTool {
    /// What the arguments ask for.
    package enum Command: Equatable, Sendable {
        /// Print `help` and exit 0.
        case help
        /// Start a server with these options and serve until killed.
        case serve(Options)
    }

    /// The options of a server run.
    package struct Options: Equatable, Sendable {
        /// `--port`: 0 lets the system pick a free port.
        package var port = 0
        /// `--port-file`: where to write the port once listening.
        package var portFile: String?
        /// `--project`.
        package var project = FirebaseTestServer.defaultProject
        /// `--api-key`.
        package var apiKey = FirebaseTestServer.defaultAPIKey
        /// `--remote-config`: a template file published as version 1 at start.
        package var remoteConfigFile: String?
        /// `--remote-config-server`: a server template file published as version 1 at start.
        package var remoteConfigServerFile: String?
        /// `--database`: the initial database contents.
        package var databaseFile: String?
        /// `--database-rules`: the Realtime Database Security Rules file.
        package var databaseRulesFile: String?
        /// `--require-token`, in the order given.
        package var requiredTokens: [String] = []
        /// `--auth-users`: a JSON array of users created at start.
        package var authUsersFile: String?
        /// `--id-token-lifetime`: seconds an ID token lives (`nil`: the default, 3600).
        package var idTokenLifetime: TimeInterval?
        /// `--require-auth`: database requests need a credential (an ID token of this server,
        /// a `--require-token`, or `owner`).
        package var requireAuth = false

        /// The defaults.
        package init() {}
    }

    /// Arguments that don't say what to do: exit status 2.
    package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong and what was expected.
        package var message: String

        /// An error with `message`.
        package init(message: String) {
            self.message = message
        }

        /// The line to print on standard error.
        package var description: String { "firebase-test-server: \(message)\n(run firebase-test-server --help for every option)" }
    }

    /// Why the server described by valid arguments could not start: exit status 1.
    package enum StartError: Error, Sendable, CustomStringConvertible {
        /// The socket could not be set up on the port asked for.
        case server(FirebaseTestServerError, port: Int)
        /// `--remote-config` or `--database` could not be used.
        case data(option: String, FirebaseTestServerDataError)
        /// `--port-file` could not be written.
        case portFile(path: String, reason: String)
        /// `--auth-users` is not a list of users the server can create: exit status 2.
        case authUsers(FirebaseTestServerDataError)
        /// `--database-rules` could not be read, or its rules do not parse or type-check.
        case rules(path: String, reason: String)
        /// `--remote-config-server` could not be read, or is not a server template.
        case serverTemplate(path: String, reason: String)

        /// The exit status: 2 for a bad `--auth-users` file or a `--remote-config` template
        /// whose condition does not parse (bad input the user gave, as a bad argument), 1
        /// otherwise.
        package var exitStatus: Int32 {
            switch self {
            case .authUsers, .data(_, .invalidCondition): return 2
            default: return 1
            }
        }

        /// The line to print on standard error.
        package var description: String {
            switch self {
            case .server(.portInUse(let port), _):
                return
                    "firebase-test-server: cannot listen on 127.0.0.1:\(port): the port is already in use (choose another --port, or --port 0 for any free port)"
            case .server(let error, let port):
                return "firebase-test-server: cannot listen on 127.0.0.1:\(port): \(error)"
            case .data(let option, let error):
                return "firebase-test-server: \(option): \(error)"
            case .portFile(let path, let reason):
                return "firebase-test-server: --port-file: cannot write \(path): \(reason)"
            case .authUsers(let error):
                return "firebase-test-server: --auth-users: \(error)"
            case .rules(let path, let reason):
                return "firebase-test-server: --database-rules \(path): \(reason)"
            case .serverTemplate(let path, let reason):
                return "firebase-test-server: --remote-config-server \(path): \(reason)"
            }
        }
    }

    // MARK: Parsing

    /// Reads the arguments (without the program name). `--name value` and `--name=value` are
    /// both accepted; a repeated option keeps its last value, except `--require-token`, which
    /// adds one token each time.
    ///
    /// - Throws: `UsageError` naming the argument and what was expected.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            func value(_ expected: String) throws(UsageError) -> String {
                if let attached { return attached }
                guard let next = remaining.popFirst() else { throw UsageError(message: "\(name) expects \(expected)") }
                guard !next.hasPrefix("--") else { throw UsageError(message: "\(name) expects \(expected), got the option \(next)") }
                return next
            }
            switch name {
            case "-h", "--help":
                guard attached == nil else { throw UsageError(message: "\(name) takes no value") }
                return .help
            case "--port":
                let text = try value("a port number (0...65535; 0: any free port)")
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(message: "--port expects a port number from 0 to 65535 (0: any free port), got \"\(text)\"")
                }
                options.port = port
            case "--port-file":
                options.portFile = try nonEmpty(value("a file path"), for: name, expected: "a file path")
            case "--project":
                options.project = try identifier(value("a project ID"), for: name, expected: "a project ID such as demo-project")
            case "--api-key":
                options.apiKey = try identifier(value("an API key"), for: name, expected: "an API key such as test-api-key")
            case "--remote-config":
                options.remoteConfigFile = try nonEmpty(value("a template file (JSON)"), for: name, expected: "a template file (JSON)")
            case "--remote-config-server":
                options.remoteConfigServerFile = try nonEmpty(
                    value("a server template file (JSON)"), for: name, expected: "a server template file (JSON)")
            case "--database":
                options.databaseFile = try nonEmpty(value("a database file (JSON)"), for: name, expected: "a database file (JSON)")
            case "--database-rules":
                options.databaseRulesFile = try nonEmpty(value("a rules file (JSON)"), for: name, expected: "a Security Rules file (JSON)")
            case "--require-token":
                options.requiredTokens.append(try identifier(value("a token"), for: name, expected: "a token"))
            case "--auth-users":
                options.authUsersFile = try nonEmpty(value("a users file (JSON)"), for: name, expected: "a users file (JSON)")
            case "--id-token-lifetime":
                let text = try value("a number of seconds")
                guard let seconds = TimeInterval(text), seconds.isFinite, seconds >= 1 else {
                    throw UsageError(message: "--id-token-lifetime expects a number of seconds of at least 1, got \"\(text)\"")
                }
                options.idTokenLifetime = seconds
            case "--require-auth":
                guard attached == nil else { throw UsageError(message: "\(name) takes no value") }
                options.requireAuth = true
            default:
                if argument.hasPrefix("-") {
                    throw UsageError(message: "unknown option \(name); the options are \(optionNames.joined(separator: ", "))")
                }
                throw UsageError(message: "unexpected argument \"\(argument)\": every argument is an option (\(optionNames.joined(separator: ", ")))")
            }
        }
        return .serve(options)
    }

    /// The options, as `--help` lists them.
    package static let optionNames = [
        "--port", "--port-file", "--project", "--api-key", "--remote-config", "--remote-config-server", "--database", "--database-rules", "--require-token",
        "--auth-users",
        "--id-token-lifetime",
        "--require-auth", "--help",
    ]

    private static func nonEmpty(_ text: String, for option: String, expected: String) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError(message: "\(option) expects \(expected), got an empty value") }
        return text
    }

    /// A value that goes into a URL path or query as it is: no spaces, `/`, `?`, `#`, `&`, `%`.
    private static func identifier(_ text: String, for option: String, expected: String) throws(UsageError) -> String {
        let text = try nonEmpty(text, for: option, expected: expected)
        let forbidden = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "/?#&%:"))
        guard text.unicodeScalars.allSatisfy({ !forbidden.contains($0) }) else {
            throw UsageError(message: "\(option) expects \(expected) without spaces or any of / ? # & % :, got \"\(text)\"")
        }
        return text
    }

    // MARK: Help

    /// What `--help` prints.
    package static let help: String = {
        let project = FirebaseTestServer.defaultProject
        let apiKey = FirebaseTestServer.defaultAPIKey
        let endpoints = FirebaseTestServer.endpointSummary(project: project, namespace: FirebaseTestServer.defaultNamespace, apiKey: apiKey)
            .map { "  \($0.request)\n      \($0.purpose)" }
            .joined(separator: "\n")
        return """
            usage: firebase-test-server [options]

            Serves Firebase Remote Config (fetch and realtime), the Remote Config REST API's template,
            Firebase Installations, the Realtime Database REST API (with SSE streaming) and Firebase
            Authentication (as its emulator: unsigned ID tokens) from memory on 127.0.0.1 until it is
            killed: for curl, Google's firebase-admin, a browser.

            Options (--name value or --name=value):
              --port N               listen on 127.0.0.1:N (default 0: any free port; the port is printed)
              --port-file FILE       write the port to FILE once listening
              --project ID           the project ID accepted (default: \(project))
              --api-key KEY          the API key accepted (default: \(apiKey))
              --remote-config FILE   publish the Remote Config template in FILE at start (version 1)
              --remote-config-server FILE
                                     publish the server template (namespace firebase-server) in FILE
                                     at start (version 1)
              --database FILE        start the Realtime Database with the JSON in FILE
              --database-rules FILE  evaluate the Realtime Database Security Rules in FILE (comments
                                     allowed); default: open rules, as the emulator's
              --require-token TOKEN  database requests must present TOKEN (auth=, access_token= or
                                     Authorization: Bearer TOKEN); repeat for several. The emulator's
                                     admin token, owner (what firebase-admin sends), is always accepted
              --auth-users FILE      create the Firebase Auth users in FILE at start: a JSON array of
                                     {"uid", "email", "password", "displayName", "disabled",
                                     "emailVerified", "customClaims"}, every field optional (no email and
                                     password: an anonymous user); a bad file exits with status 2
              --id-token-lifetime S  ID tokens live S seconds (default 3600)
              --require-auth         database requests must present a credential: an ID token this
                                     server issued (unexpired, of an enabled user), a --require-token
                                     TOKEN, or owner
              -h, --help             print this help

            Accepted: project \(project) and API key \(apiKey) unless --project / --api-key say
            otherwise; another project or key gets Google's error, naming the accepted one.

            Endpoints (with the default project and key):
            \(endpoints)

            Remote Config template (--remote-config, and the body of PUT …/remoteConfig): Firebase's
            template JSON, as `firebase remoteconfig:get -o FILE` writes it:
              {"parameters": {"welcome": {"defaultValue": {"value": "hi"}}},
               "parameterGroups": {"g": {"parameters": {"steps": {"defaultValue": {"value": "3"}}}}}}
            Conditions ({"name", "expression"}, Firebase's client syntax: device.os == 'ios',
            app.version >= '2.0', percent('seed') <= 10, app.customSignal['tier'].exactlyMatches(['gold']),
            … joined by &&) are evaluated for each fetch from its body; the first true condition with a
            conditionalValues entry gives a parameter's value, else its defaultValue; useInAppDefault
            leaves it out. A condition that does not parse is refused (exit status 2; 400 for a PUT)
            with its name and position. Values are strings.

            Publishing while it runs: PUT a template to /v1/projects/\(project)/remoteConfig (If-Match
            optional: * or the current ETag). It becomes the next version; realtime clients are told.

            Server template (--remote-config-server, and the body of PUT
            /v1/projects/\(project)/namespaces/firebase-server/serverRemoteConfig): Firebase's server
            template JSON, {"conditions": [...], "parameters": {...}}; GET at that path serves it (with
            Authorization: Bearer ANY, as firebase-admin sends, or ?key=\(apiKey)).

            Database file (--database): any JSON value, stored at the root (keys as Firebase allows).

            Example:
              firebase-test-server --port 9000 --remote-config template.json --database data.json
              curl -X POST 'http://127.0.0.1:9000/v1/projects/\(project)/namespaces/firebase:fetch?key=\(apiKey)' -d '{}'
              curl 'http://127.0.0.1:9000/users.json'
              curl -X PUT 'http://127.0.0.1:9000/v1/projects/\(project)/remoteConfig' -d @new-template.json
              FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:9000 python3 admin_script.py
              FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9000 python3 admin_script.py

            Exit status: 0 after --help; 1 when the server cannot start (port in use, unreadable or
            malformed file); 2 for bad arguments, a bad --auth-users file or a --remote-config condition
            that does not parse.
            """
    }()

    // MARK: Starting

    /// Reads the files, starts the server, applies the tokens and writes the port file.
    ///
    /// - Throws: `StartError`; nothing keeps running then.
    package static func start(_ options: Options) throws(StartError) -> FirebaseTestServer {
        var template: FirebaseTestServer.RemoteConfigTemplate?
        if let file = options.remoteConfigFile {
            do {
                template = try FirebaseTestServer.RemoteConfigTemplate(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw .data(option: "--remote-config", error)
            }
        }
        let server: FirebaseTestServer
        do {
            server = try FirebaseTestServer(project: options.project, apiKey: options.apiKey, port: options.port)
        } catch {
            throw .server(error, port: options.port)
        }
        if let file = options.databaseFile {
            do {
                try server.loadDatabase(contentsOf: URL(fileURLWithPath: file))
            } catch {
                server.stop()
                throw .data(option: "--database", error)
            }
        }
        if let file = options.databaseRulesFile {
            do {
                try server.setDatabaseRules(String(contentsOfFile: file, encoding: .utf8))
            } catch let error as FirebaseTestServerRulesError {
                server.stop()
                throw .rules(path: file, reason: "line \(error.line), column \(error.column): \(error.message)")
            } catch {
                server.stop()
                throw .rules(path: file, reason: (error as NSError).localizedDescription)
            }
        }
        if let file = options.authUsersFile {
            do {
                try server.loadAuthUsers(contentsOf: URL(fileURLWithPath: file))
            } catch {
                server.stop()
                throw .authUsers(error)
            }
        }
        if let template { server.publishTemplate(template) }
        if let file = options.remoteConfigServerFile {
            do {
                try server.publishServerTemplate(Data(contentsOf: URL(fileURLWithPath: file)))
            } catch let error as RemoteConfigServerTemplateError {
                server.stop()
                throw .serverTemplate(path: file, reason: error.description)
            } catch {
                server.stop()
                throw .serverTemplate(path: file, reason: (error as NSError).localizedDescription)
            }
        }
        if let lifetime = options.idTokenLifetime { server.idTokenLifetime = lifetime }
        if !options.requiredTokens.isEmpty || options.requireAuth { server.requireDatabaseAuth(validTokens: Set(options.requiredTokens)) }
        if let path = options.portFile {
            do {
                try "\(server.port)\n".write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                server.stop()
                throw .portFile(path: path, reason: (error as NSError).localizedDescription)
            }
        }
        return server
    }

    /// What the tool prints once the server listens: one `name value` line each.
    package static func banner(for server: FirebaseTestServer, options: Options) -> String {
        var lines = [
            "database \(server.databaseURL.absoluteString)",
            "remote-config \(server.remoteConfigBaseURL.absoluteString)",
            "project \(server.project)",
            "api-key \(server.apiKey)",
            "fetch POST \(server.remoteConfigFetchURL.absoluteString)",
            "publish PUT \(server.baseURL.absoluteString)/v1/projects/\(server.project)/remoteConfig",
            "auth \(server.baseURL.absoluteString)/identitytoolkit.googleapis.com/v1 (FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:\(server.port))",
        ]
        if let file = options.remoteConfigFile {
            let count = server.templateEntries.count
            lines.append("template version \(server.templateVersion ?? 0) (\(count) parameter\(count == 1 ? "" : "s")) from \(file)")
        }
        if let file = options.remoteConfigServerFile {
            lines.append("server template version \(server.serverTemplateVersion ?? 0) from \(file) at GET \(server.serverTemplateURL.absoluteString)")
        }
        if let file = options.databaseFile { lines.append("database contents from \(file)") }
        if let file = options.databaseRulesFile { lines.append("database rules from \(file)") }
        if !options.requiredTokens.isEmpty {
            lines.append("database tokens \((options.requiredTokens + [FirebaseTestServer.adminToken]).joined(separator: " "))")
        }
        if let file = options.authUsersFile {
            let count = server.authUsers.count
            lines.append("auth users \(count) from \(file)")
        }
        if options.requireAuth { lines.append("database auth required (ID tokens of this server, owner)") }
        return lines.joined(separator: "\n")
    }
}
