// The command line of `streams-demo`: which demos to run, and against which backends.
//
//   streams-demo [demo …] [--local-server]
//                [--remote-config-project ID --api-key KEY [--app-id ID]
//                 [--remote-config-url URL] [--remote-config-realtime-url URL]
//                 [--installations-url URL]]
//                [--database-url URL [--auth-token T | --access-token T
//                                     | --api-key KEY (--anonymous | --email E --password P)]]
//                [--duration SECONDS] [--timeline FILE.html] [--list | --help]
//
// See `DemoOptions.usage` and Guides/Networking.md ("Running the demos against your project").
import ConfigFeatures
import Foundation

/// What `streams-demo` was asked to do: the demos to run and the backends to run them on.
///
/// Without backend flags every demo runs its scripted storyline on the embedded in-memory
/// backends. `--local-server` runs the same storylines over HTTP against an in-process
/// `FirebaseTestServer`. `--remote-config-project`/`--api-key` and `--database-url` point the
/// demos at a real Firebase project, where they run a live variant (read what the project
/// holds, then listen for `--duration` seconds); with `--api-key` and `--anonymous` or
/// `--email`/`--password` the database demo signs in with `FirebaseAuth` first (a real project
/// needs only its API key). Secrets (`--api-key`, `--auth-token`, `--access-token`,
/// `--password`) are kept in `Secret`, which never shows them.
public struct DemoOptions: Sendable, Hashable, CustomStringConvertible {
    /// A value that must not be printed (an API key, a token): every description masks it.
    public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The secret itself, for the clients that send it.
        public let value: String

        /// Wraps `value`.
        public init(_ value: String) { self.value = value }

        /// `<redacted>`, whatever the value.
        public var description: String { "<redacted>" }
        /// `<redacted>`, whatever the value.
        public var debugDescription: String { "<redacted>" }
        /// A mirror without children, so `dump` does not show the value either.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// The Firebase project the Remote Config demos read (`--remote-config-project` and friends).
    public struct RemoteConfigProject: Sendable, Hashable, CustomStringConvertible {
        /// The project ID or number (`--remote-config-project`; realtime updates need the number).
        public var project: String
        /// The app's Web API key (`--api-key`).
        public var apiKey: Secret
        /// The Firebase app ID (`--app-id`, `DemoOptions.defaultAppID` by default).
        public var appID: String
        /// The fetch host (`--remote-config-url`); `nil`: Firebase's.
        public var fetchBaseURL: URL?
        /// The realtime host (`--remote-config-realtime-url`); `nil`: `fetchBaseURL` when that
        /// is set, else Firebase's.
        public var realtimeBaseURL: URL?
        /// The Firebase Installations host (`--installations-url`); `nil`: `fetchBaseURL` when
        /// that is set, else Firebase's.
        public var installationsBaseURL: URL?

        /// Creates a target.
        public init(
            project: String, apiKey: Secret, appID: String = DemoOptions.defaultAppID, fetchBaseURL: URL? = nil, realtimeBaseURL: URL? = nil,
            installationsBaseURL: URL? = nil
        ) {
            self.installationsBaseURL = installationsBaseURL
            self.project = project
            self.apiKey = apiKey
            self.appID = appID
            self.fetchBaseURL = fetchBaseURL
            self.realtimeBaseURL = realtimeBaseURL
        }

        /// The realtime host actually used: the override, else the fetch override, else `nil`
        /// (Firebase's).
        public var effectiveRealtimeBaseURL: URL? { realtimeBaseURL ?? fetchBaseURL }

        /// The Installations host actually used: the override, else the fetch override, else
        /// `nil` (Firebase's).
        public var effectiveInstallationsBaseURL: URL? { installationsBaseURL ?? fetchBaseURL }

        /// The hosts actually used, checked: all on this machine or all elsewhere.
        public var endpoints: FirebaseEndpoints {
            get throws(FirebaseEndpointsError) {
                let production = FirebaseEndpoints.production
                return try FirebaseEndpoints(
                    remoteConfigFetch: fetchBaseURL ?? production.remoteConfigFetch,
                    remoteConfigRealtime: effectiveRealtimeBaseURL ?? production.remoteConfigRealtime,
                    installations: effectiveInstallationsBaseURL ?? production.installations)
            }
        }

        /// The project, app and hosts; the API key masked.
        public var description: String {
            var text = "project \(project), app \(appID), api key \(apiKey)"
            if let fetchBaseURL { text += ", fetch \(fetchBaseURL.absoluteString)" }
            if let realtimeBaseURL { text += ", realtime \(realtimeBaseURL.absoluteString)" }
            if let installationsBaseURL { text += ", installations \(installationsBaseURL.absoluteString)" }
            return text
        }
    }

    /// How the database demo signs in with `FirebaseAuth` (`--anonymous`, or `--email` and
    /// `--password`).
    public enum SignInMethod: Sendable, Hashable, CustomStringConvertible {
        /// A new anonymous account (`--anonymous`).
        case anonymous
        /// An existing email-and-password account (`--email`, `--password`).
        case email(String, password: Secret)

        /// The kind of sign-in and the email (never the password).
        public var description: String {
            switch self {
            case .anonymous: return "anonymous"
            case .email(let email, _): return "email \(email)"
            }
        }
    }

    /// How the database demo authenticates (`--auth-token`, `--access-token`, or a sign-in with
    /// `--api-key`).
    public enum DatabaseCredential: Sendable, Hashable, CustomStringConvertible {
        /// No credential: only data the rules make public is readable.
        case none
        /// A Firebase ID token (or legacy database secret), sent as `auth=`.
        case idToken(Secret)
        /// A Google OAuth2 access token, sent as `access_token=`.
        case accessToken(Secret)
        /// A user the demo signs in with `FirebaseAuth` against Firebase's Auth hosts, with the
        /// project's Web API key; requests carry the user's ID token (`.user(auth)`).
        case signIn(SignInMethod, apiKey: Secret)

        /// The credential for `FirebaseRESTDatabase`; `.none` for `.signIn`, whose client the
        /// demo creates once signed in.
        public var restAuth: FirebaseRESTAuth {
            switch self {
            case .none, .signIn: return .none
            case .idToken(let token): return .idToken(token.value)
            case .accessToken(let token): return .accessToken(token.value)
            }
        }

        /// The kind of credential, the token masked.
        public var description: String {
            switch self {
            case .none: return "no credential"
            case .idToken(let token): return "auth token \(token)"
            case .accessToken(let token): return "access token \(token)"
            case .signIn(let method, let key): return "signs in: \(method), api key \(key)"
            }
        }
    }

    /// The Realtime Database the group comments demo reads (`--database-url` and a credential).
    public struct DatabaseProject: Sendable, Hashable, CustomStringConvertible {
        /// The database root, e.g. `https://<db>.firebaseio.com`.
        public var url: URL
        /// The credential sent with every request.
        public var credential: DatabaseCredential
        /// Where a sign-in goes (`--auth-url`: an Auth emulator or test server, at its Identity
        /// Toolkit and Secure Token paths); `nil` for Firebase's Auth hosts.
        public var authBaseURL: URL?

        /// Creates a target.
        public init(url: URL, credential: DatabaseCredential = .none, authBaseURL: URL? = nil) {
            self.url = url
            self.credential = credential
            self.authBaseURL = authBaseURL
        }

        /// The URL and the kind of credential (masked).
        public var description: String { "\(url.absoluteString) (\(credential))" }
    }

    /// The app ID sent when `--app-id` is not given: a well-formed placeholder, accepted by the
    /// loopback server. A real project wants its own app's ID (Firebase console → Project
    /// settings → Your apps).
    public static let defaultAppID = "1:000000000000:ios:0000000000000000"

    /// How long the live demos listen when `--duration` is not given, in seconds.
    public static let defaultDuration: TimeInterval = 20

    /// The names of the demos, in the order `streams-demo` runs them.
    public static let demoNames = ["launch", "item-list", "force-update", "group-comments"]

    /// The demos named on the command line, in the order given, without repeats; empty: all.
    public var demoNames: [String]
    /// `--list`, `--help` or `-h`: print the usage and the demos, run nothing.
    public var showsHelp: Bool
    /// `--local-server`: run the scripted demos over HTTP against an in-process `FirebaseTestServer`.
    public var usesLocalServer: Bool
    /// The real Remote Config project, if any.
    public var remoteConfig: RemoteConfigProject?
    /// The real Realtime Database, if any.
    public var database: DatabaseProject?
    /// How long the live demos listen for updates, in seconds (`--duration`).
    public var duration: TimeInterval
    /// Where to write the stream inspector's timeline of the run (`--timeline FILE.html`), if anywhere.
    public var timelinePath: String?

    /// Options for the embedded backends and every demo (what no arguments mean).
    public init(
        demoNames: [String] = [],
        showsHelp: Bool = false,
        usesLocalServer: Bool = false,
        remoteConfig: RemoteConfigProject? = nil,
        database: DatabaseProject? = nil,
        duration: TimeInterval = DemoOptions.defaultDuration,
        timelinePath: String? = nil
    ) {
        self.demoNames = demoNames
        self.showsHelp = showsHelp
        self.usesLocalServer = usesLocalServer
        self.remoteConfig = remoteConfig
        self.database = database
        self.duration = duration
        self.timelinePath = timelinePath
    }

    /// The demos to run: the named ones (in `DemoOptions.demoNames` order), or all of them.
    public var selectedDemoNames: [String] {
        demoNames.isEmpty ? Self.demoNames : Self.demoNames.filter(demoNames.contains)
    }

    /// Every option, secrets masked.
    public var description: String {
        var parts = ["demos: \(selectedDemoNames.joined(separator: ", "))"]
        if showsHelp { parts.append("help") }
        if usesLocalServer { parts.append("local server") }
        parts.append("Remote Config: \(remoteConfig.map { "\($0)" } ?? (usesLocalServer ? "local server" : "embedded"))")
        parts.append("database: \(database.map { "\($0)" } ?? (usesLocalServer ? "local server" : "embedded"))")
        parts.append("duration: \(Self.formatSeconds(duration)) s")
        if let timelinePath { parts.append("timeline: \(timelinePath)") }
        return parts.joined(separator: "; ")
    }

    /// `20`, `0.5`: seconds without a useless fraction.
    static func formatSeconds(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}

/// Why `DemoOptions.parse(_:)` rejected the command line. Descriptions never contain a secret.
public enum DemoOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A flag that takes a value came last, or before another flag, or with an empty value.
    case missingValue(flag: String)
    /// A flag that takes no value was written `--flag=value`.
    case unexpectedValue(flag: String)
    /// A flag `streams-demo` does not know.
    case unknownFlag(String)
    /// A positional argument that is not a demo name.
    case unknownDemo(String)
    /// A positional argument given to a one-demo executable (`group-comments-demo`), which takes
    /// options only.
    case unexpectedArgument(String, program: String)
    /// A flag of `streams-demo` that does not apply to the one demo a per-demo executable runs
    /// (`--database-url` for `launch-demo`, `--api-key` for `group-comments-demo`).
    case inapplicableFlag(String, program: String)
    /// A flag given twice.
    case repeatedFlag(String)
    /// `flag` only makes sense together with `required` (e.g. `--api-key` needs
    /// `--remote-config-project`).
    case missingCompanion(flag: String, required: String)
    /// Two flags that cannot be combined (`--auth-token` and `--access-token`, or
    /// `--local-server` and a real project).
    case conflictingFlags(String, String)
    /// A URL that is not an absolute `http` or `https` URL with a host.
    case malformedURL(flag: String, value: String)
    /// A database URL carrying `auth=` or `access_token=`: tokens go in their own flags.
    case credentialInURL(flag: String)
    /// `--duration` that is not a positive, finite number of seconds.
    case invalidDuration(String)
    /// Remote Config hosts that mix this machine with remote hosts (`--remote-config-url`,
    /// `--remote-config-realtime-url`, `--installations-url`): part of the demo would reach a
    /// real service.
    case mixedEndpoints(FirebaseEndpointsError)

    /// A one-line message for the terminal.
    public var description: String {
        switch self {
        case .missingValue(let flag):
            return "\(flag) needs a value"
        case .unexpectedValue(let flag):
            return "\(flag) takes no value"
        case .unknownFlag(let flag):
            return "unknown option \(flag); try --help"
        case .unknownDemo(let name):
            return "unknown demo \(name); the demos are \(DemoOptions.demoNames.joined(separator: ", "))"
        case .unexpectedArgument(let argument, let program):
            return "unexpected argument \(argument); \(program) runs one demo and takes options only; try --help"
        case .inapplicableFlag(let flag, let program):
            return "\(flag) does not apply to \(program); try --help"
        case .repeatedFlag(let flag):
            return "\(flag) is given more than once"
        case .missingCompanion(let flag, let required):
            return "\(flag) needs \(required)"
        case .conflictingFlags(let first, let second):
            return "\(first) and \(second) cannot be used together"
        case .malformedURL(let flag, let value):
            return "\(flag) needs an absolute http(s) URL with a host, not \"\(value)\""
        case .credentialInURL(let flag):
            return "\(flag) must not carry a token (auth= or access_token=); use --auth-token or --access-token"
        case .invalidDuration(let value):
            return "--duration needs a positive number of seconds, not \"\(value)\""
        case .mixedEndpoints(let error):
            return "\(error) (--remote-config-url, --remote-config-realtime-url, --installations-url)"
        }
    }
}

extension DemoOptions {
    /// Flags that take a value.
    private static let valueFlags: Set<String> = [
        "--remote-config-project", "--api-key", "--app-id", "--remote-config-url", "--remote-config-realtime-url", "--installations-url",
        "--database-url", "--auth-token", "--access-token", "--email", "--password", "--auth-url", "--duration", "--timeline",
    ]
    /// Flags without a value.
    private static let switchFlags: Set<String> = ["--list", "--help", "-h", "--local-server", "--anonymous"]

    /// Parses the arguments of `streams-demo` (without the program name).
    ///
    /// Values follow their flag (`--api-key KEY`) or are attached (`--api-key=KEY`). A value may
    /// not start with `--` (so a forgotten value is reported, not swallowed); a value flag may
    /// be given once. With `--help` or `--list` every argument and value is still checked
    /// (unknown flags, bad URLs and durations are errors), but the flags are not checked against
    /// each other (`--api-key K --help` prints the help).
    ///
    /// - Throws: `DemoOptionsError` for the first problem found.
    public static func parse(_ arguments: [String]) throws(DemoOptionsError) -> DemoOptions {
        try parse(arguments, only: nil)
    }

    /// Parses the arguments of the executable that runs only `demo` (`group-comments-demo` for
    /// `group-comments`): `streams-demo`'s options that apply to that demo
    /// (`DemoOptions.flags(for:)`), and no demo names. The result selects `demo`.
    ///
    /// - Throws: `DemoOptionsError`: `.unexpectedArgument` for a positional argument,
    ///   `.inapplicableFlag` for an option of another demo, `.unknownDemo` when `demo` is not one
    ///   of `DemoOptions.demoNames`, and everything `parse(_:)` throws.
    public static func parse(_ arguments: [String], demo: String) throws(DemoOptionsError) -> DemoOptions {
        guard demoNames.contains(demo) else { throw .unknownDemo(demo) }
        var options = try parse(arguments, only: demo)
        options.demoNames = [demo]
        return options
    }

    /// The executable that runs only `demo` (`group-comments-demo`).
    public static func program(for demo: String) -> String { "\(demo)-demo" }

    /// Flags of Remote Config demos only (`--api-key` is the database's too, for signing in).
    private static let remoteConfigFlags: Set<String> = [
        "--remote-config-project", "--app-id", "--remote-config-url", "--remote-config-realtime-url", "--installations-url",
    ]
    /// Flags of the database demo only.
    private static let databaseFlags: Set<String> = ["--database-url", "--auth-token", "--access-token", "--email", "--password", "--anonymous", "--auth-url"]

    /// The flags that apply to `demo`: the common ones (`--help`, `--local-server`,
    /// `--duration`, `--timeline`, …) plus its backend's (Remote Config's, or the database's for
    /// `group-comments`).
    public static func flags(for demo: String) -> Set<String> {
        let all = valueFlags.union(switchFlags)
        return all.subtracting(demo == "group-comments" ? remoteConfigFlags : databaseFlags)
    }

    private static func parse(_ arguments: [String], only demo: String?) throws(DemoOptionsError) -> DemoOptions {
        let program = demo.map(Self.program(for:))
        let allowed = demo.map(Self.flags(for:))
        var options = DemoOptions()
        var values: [String: String] = [:]
        var switches: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                if let program { throw .unexpectedArgument(argument, program: program) }
                guard Self.demoNames.contains(argument) else { throw .unknownDemo(argument) }
                if !options.demoNames.contains(argument) { options.demoNames.append(argument) }
                continue
            }
            var flag = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            if let allowed, let program, !allowed.contains(flag), valueFlags.contains(flag) || switchFlags.contains(flag) {
                throw .inapplicableFlag(flag, program: program)
            }
            if switchFlags.contains(flag) {
                if attached != nil { throw .unexpectedValue(flag: flag) }
                switches.insert(flag == "-h" ? "--help" : flag)  // repeating a switch is harmless
                continue
            }
            guard valueFlags.contains(flag) else { throw .unknownFlag(flag) }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw .missingValue(flag: flag)
            }
            guard !value.isEmpty else { throw .missingValue(flag: flag) }
            guard values[flag] == nil else { throw .repeatedFlag(flag) }
            values[flag] = value
        }

        options.showsHelp = switches.contains("--help") || switches.contains("--list")
        options.usesLocalServer = switches.contains("--local-server")
        options.timelinePath = values["--timeline"]
        if let text = values["--duration"] {
            guard let seconds = TimeInterval(text), seconds.isFinite, seconds > 0 else { throw .invalidDuration(text) }
            options.duration = seconds
        }
        let fetchURL = try values["--remote-config-url"].map { value throws(DemoOptionsError) in try url(value, flag: "--remote-config-url") }
        let realtimeURL = try values["--remote-config-realtime-url"].map { value throws(DemoOptionsError) in
            try url(value, flag: "--remote-config-realtime-url")
        }
        let installationsURL = try values["--installations-url"].map { value throws(DemoOptionsError) in try url(value, flag: "--installations-url") }
        let databaseURL = try values["--database-url"].map { value throws(DemoOptionsError) in try url(value, flag: "--database-url") }
        let authURL = try values["--auth-url"].map { value throws(DemoOptionsError) in try url(value, flag: "--auth-url") }
        if let databaseURL, hasCredentialQuery(databaseURL) { throw .credentialInURL(flag: "--database-url") }

        if options.showsHelp {
            // Nothing runs: keep what was given, but do not insist on complete combinations.
            if let project = values["--remote-config-project"], let key = values["--api-key"] {
                options.remoteConfig = RemoteConfigProject(
                    project: project, apiKey: Secret(key), appID: values["--app-id"] ?? defaultAppID,
                    fetchBaseURL: fetchURL, realtimeBaseURL: realtimeURL, installationsBaseURL: installationsURL)
            }
            if let databaseURL { options.database = DatabaseProject(url: databaseURL, credential: credential(values, switches), authBaseURL: authURL) }
            return options
        }

        // Signing in: one method, with the API key and a database.
        let signsIn = switches.contains("--anonymous") || values["--email"] != nil || values["--password"] != nil
        if signsIn {
            if switches.contains("--anonymous"), values["--email"] != nil { throw .conflictingFlags("--anonymous", "--email") }
            if values["--email"] != nil, values["--password"] == nil { throw .missingCompanion(flag: "--email", required: "--password") }
            if values["--password"] != nil, values["--email"] == nil { throw .missingCompanion(flag: "--password", required: "--email") }
            for token in ["--auth-token", "--access-token"] where values[token] != nil {
                throw .conflictingFlags(token, switches.contains("--anonymous") ? "--anonymous" : "--email")
            }
            let flag = switches.contains("--anonymous") ? "--anonymous" : "--email"
            if databaseURL == nil { throw .missingCompanion(flag: flag, required: "--database-url") }
            if values["--api-key"] == nil { throw .missingCompanion(flag: flag, required: "--api-key") }
        } else if authURL != nil {
            throw .missingCompanion(flag: "--auth-url", required: "--anonymous or --email")
        }

        // Remote Config: the project and the key come together (the key alone signs the
        // database's user in); the rest needs them.
        switch (values["--remote-config-project"], signsIn && values["--remote-config-project"] == nil ? nil : values["--api-key"]) {
        case (nil, nil):
            for flag in ["--app-id", "--remote-config-url", "--remote-config-realtime-url", "--installations-url"] where values[flag] != nil {
                throw .missingCompanion(flag: flag, required: "--remote-config-project")
            }
        case (_?, nil):
            throw .missingCompanion(flag: "--remote-config-project", required: "--api-key")
        case (nil, _?):
            throw .missingCompanion(flag: "--api-key", required: demo == "group-comments" ? "--anonymous or --email" : "--remote-config-project")
        case (let project?, let key?):
            let target = RemoteConfigProject(
                project: project, apiKey: Secret(key), appID: values["--app-id"] ?? defaultAppID,
                fetchBaseURL: fetchURL, realtimeBaseURL: realtimeURL, installationsBaseURL: installationsURL)
            do {
                _ = try target.endpoints
            } catch {
                throw .mixedEndpoints(error)
            }
            options.remoteConfig = target
        }

        // Database: at most one token, and only with a URL.
        if values["--auth-token"] != nil, values["--access-token"] != nil {
            throw .conflictingFlags("--auth-token", "--access-token")
        }
        if let databaseURL {
            options.database = DatabaseProject(url: databaseURL, credential: credential(values, switches), authBaseURL: authURL)
        } else {
            for flag in ["--auth-token", "--access-token"] where values[flag] != nil {
                throw .missingCompanion(flag: flag, required: "--database-url")
            }
        }

        // The loopback server replaces both backends; it cannot be mixed with a real project.
        if options.usesLocalServer {
            if options.remoteConfig != nil { throw .conflictingFlags("--local-server", "--remote-config-project") }
            if options.database != nil { throw .conflictingFlags("--local-server", "--database-url") }
            if signsIn { throw .conflictingFlags("--local-server", switches.contains("--anonymous") ? "--anonymous" : "--email") }
        }
        return options
    }

    private static func credential(_ values: [String: String], _ switches: Set<String>) -> DatabaseCredential {
        if let key = values["--api-key"] {
            if switches.contains("--anonymous") { return .signIn(.anonymous, apiKey: Secret(key)) }
            if let email = values["--email"], let password = values["--password"] {
                return .signIn(.email(email, password: Secret(password)), apiKey: Secret(key))
            }
        }
        if let token = values["--auth-token"] { return .idToken(Secret(token)) }
        if let token = values["--access-token"] { return .accessToken(Secret(token)) }
        return .none
    }

    /// `value` as an absolute `http`/`https` URL with a host.
    private static func url(_ value: String, flag: String) throws(DemoOptionsError) -> URL {
        guard
            let url = URL(string: value),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty,
            URLComponents(url: url, resolvingAgainstBaseURL: false) != nil
        else { throw .malformedURL(flag: flag, value: value) }
        return url
    }

    private static func hasCredentialQuery(_ url: URL) -> Bool {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.contains { $0.name == "auth" || $0.name == "access_token" }
    }

    /// The help of each option: its first line starts with the flag (aliases after commas),
    /// continuation lines are indented under the text.
    private static var optionHelp: [String] {
        [
            "  --list, --help, -h                 print this help and the demos",
            """
              --local-server                     run the scripted storylines over HTTP against an
                                                 in-process loopback server (FirebaseTestServer)
            """,
            """
              --remote-config-project ID         a real Remote Config project (ID or number; realtime
                                                 updates need the number); needs --api-key
            """,
            """
              --api-key KEY                      the app's Web API key; needs --remote-config-project,
                                                 or --anonymous or --email to sign the database in
            """,
            "  --app-id ID                        the Firebase app ID (default \(defaultAppID))",
            "  --remote-config-url URL            the Remote Config fetch host (default Firebase's)",
            """
              --remote-config-realtime-url URL   the realtime host (default: --remote-config-url if
                                                 given, else Firebase's)
            """,
            """
              --installations-url URL            the Firebase Installations host (default:
                                                 --remote-config-url if given, else Firebase's);
                                                 the installation is kept in the standard file only
                                                 against Firebase's host, in memory otherwise
            """,
            "  --database-url URL                 a real Realtime Database (https://<db>.firebaseio.com)",
            "  --auth-token TOKEN                 a Firebase ID token (or database secret), as auth=",
            "  --access-token TOKEN               a Google OAuth2 access token, as access_token=",
            """
              --anonymous                        sign in to the database's project as a new anonymous
                                                 user (FirebaseAuth; needs --api-key, --database-url)
            """,
            """
              --email EMAIL                      sign in to the database's project with email and
                                                 password (needs --password, --api-key, --database-url)
            """,
            "  --password PASSWORD                the password for --email (never printed)",
            """
              --auth-url URL                     the Auth host for --anonymous/--email instead of
                                                 Firebase's (an Auth emulator, a test server)
            """,
            "  --duration SECONDS                 how long the live demos listen (default \(formatSeconds(defaultDuration)))",
            """
              --timeline FILE.html               record every stream with the inspector and write
                                                 its timeline (one lane per named stream) to FILE.html
            """,
        ]
    }

    /// The help of the options whose flags are all in `flags`.
    private static func optionLines(_ flags: Set<String>) -> String {
        optionHelp.filter { help in
            let names = help.split(separator: " ", omittingEmptySubsequences: true).prefix { $0.hasPrefix("-") }
            return names.allSatisfy { flags.contains(String($0.trimmingCharacters(in: CharacterSet(charactersIn: ",")))) }
        }.joined(separator: "\n")
    }

    /// The help text: usage, flags and the demos.
    public static var usage: String {
        let demoLines = DemoCatalog.all.map { "  \($0.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.summary)" }
        return """
            usage: streams-demo [demo …] [options]

            Runs the feature demos (all of them when none is named). Without options they run their
            scripted storylines on the embedded in-memory backends.

            options:
            \(optionLines(valueFlags.union(switchFlags)))

            With a real project the demos run live: they print what the project holds for their
            keys, then every update for --duration seconds (see Guides/Networking.md). A demo whose
            backend was not given runs on the embedded one and says so. Secrets are never printed.

            demos:
            \(demoLines.joined(separator: "\n"))
            """
    }

    /// The help text of the executable that runs only `demo` (`group-comments-demo --help`): what
    /// it shows, and the options of `streams-demo` that apply to it.
    public static func usage(demo: String) -> String {
        let program = program(for: demo)
        let entry = DemoCatalog.entry(named: demo)
        let backend = demo == "group-comments" ? "Realtime Database" : "Remote Config"
        let intro = DemoCatalog.wrapped(
            "The \(demo) demo: \(entry?.summary ?? demo). Without options it runs its scripted storyline on the "
                + "embedded in-memory \(backend); `streams-demo \(demo)` runs the same.")
        let live = DemoCatalog.wrapped(
            "With a real \(demo == "group-comments" ? "database" : "project") the demo runs live for --duration seconds "
                + "(see Guides/Networking.md). Secrets are never printed.")
        return """
            usage: \(program) [options]

            \(intro)

            options (those of streams-demo that apply to this demo):
            \(optionLines(flags(for: demo)))

            \(live)
            """
    }
}
