import ConfigFeatures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import XCTest

/// `Scripts/independent_auth_server.py`, an Auth server written apart from ours (from Google's REST
/// reference, in Python), run as a child process for one test: started with `/usr/bin/env
/// python3`, ready once it has written its port file, steered through `POST /__control`, and
/// killed by ``stop()`` (and, should the test process die first, by the end of its standard input).
final class IndependentAuthServer {

    /// The `?key=` the server accepts.
    static let apiKey = "independent-test-key"
    /// The project ID in the tokens it issues.
    static let project = "demo-independent"
    /// How long a test waits for the server to start or for a control call (a failure guard).
    static let startTimeout: TimeInterval = 60

    /// The script, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/independent_auth_server.py")

    /// A route the server counts and injects faults on.
    enum Route: String, CaseIterable {
        case signUp, signInWithPassword, signInWithCustomToken, lookup, delete, token
    }

    /// The port it listens on (127.0.0.1).
    let port: Int
    /// Every Firebase host pointed at the server (`FirebaseEndpoints.emulator(port:)`).
    let endpoints: FirebaseEndpoints
    /// The server's root, `http://127.0.0.1:<port>`.
    let baseURL: URL

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let folder: URL
    private let child = ChildState()
    private let session: URLSession

    /// Starts the server; `tokenLifetime` is the `expiresIn` of the ID tokens it issues;
    /// `environment` replaces the child's environment (a test of the missing-python3 message).
    init(tokenLifetime: Int = 3600, environment: [String: String]? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("independent-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let portFile = folder.appendingPathComponent("port")
        let errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.script.path, "--port-file", portFile.path, "--api-key", Self.apiKey, "--project", Self.project,
            "--token-lifetime", String(tokenLifetime), "--exit-on-stdin-eof",
        ]
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.startTimeout
        configuration.timeoutIntervalForResource = Self.startTimeout
        session = URLSession(configuration: configuration)
        process.terminationHandler = { [child] _ in child.update { $0.hasExited = true } }
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw SetupError("cannot run /usr/bin/env python3 (\(error)): the independent Auth server tests need Python 3 (Debian: apt-get install python3)")
        }
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [child] in
            // The server prints `listening on PORT` once the port file is in place.
            while true {
                let chunk = reader.availableData
                child.update { state in
                    if chunk.isEmpty { state.hasExited = true } else { state.output += String(decoding: chunk, as: UTF8.self) }
                }
                if chunk.isEmpty { return }
            }
        }
        let ready = child.wait(timeout: Self.startTimeout) { $0.output.contains("listening on ") || $0.hasExited }.output.contains("listening on ")
        let port = ready ? (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } : nil
        guard let port else {
            let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            if process.isRunning { process.terminate() }
            try? input.fileHandleForWriting.close()
            child.wait(timeout: Self.startTimeout) { $0.hasExited }
            try? FileManager.default.removeItem(at: folder)
            if stderr.contains("python3") && stderr.contains("No such file") {
                throw SetupError("python3 is not on PATH: the independent Auth server tests need Python 3 (Debian: apt-get install python3)")
            }
            throw SetupError("the independent Auth server did not start within \(Int(Self.startTimeout)) s (stderr: \(stderr))")
        }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        endpoints = try FirebaseEndpoints.emulator(port: port)
    }

    deinit { stop() }

    /// Kills the server and removes its folder; waits (bounded) until it is gone.
    func stop() {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        child.wait(timeout: Self.startTimeout) { $0.hasExited }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Control

    /// Sends `body` to `POST /__control` and returns the answer.
    @discardableResult
    func control(_ body: JSONValue) throws -> JSONValue {
        var request = URLRequest(url: baseURL.appendingPathComponent("__control"))
        request.httpMethod = "POST"
        request.httpBody = body.data()
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let outcome = LockedState<Result<Data, SetupError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, _, error in
            outcome.withLock { $0 = data.map { .success($0) } ?? .failure(SetupError("control \(body): \(String(describing: error))")) }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + Self.startTimeout + 5) == .success else {
            task.cancel()
            throw SetupError("control \(body): no answer")
        }
        let answer = try JSONValue(parsing: try outcome.withLock { $0! }.get())
        if let error = answer["error"] { throw SetupError("control \(body) refused: \(error)") }
        return answer
    }

    /// The next `count` requests of `route` fail with `kind` (`status`, `error`, `malformed`, `delay`,
    /// `drop`, `hold`) and its parameters (`status`, `message`, `seconds`, `body`).
    func fault(_ route: Route, _ kind: String, count: Int = 1, _ parameters: [String: JSONValue] = [:]) throws {
        var body: [String: JSONValue] = ["op": "fault", "route": .string(route.rawValue), "kind": .string(kind), "count": .number(Double(count))]
        body.merge(parameters) { $1 }
        try control(.object(body))
    }

    /// How many requests of `route` the server answered (or began to).
    func requests(_ route: Route) throws -> Int {
        Int(try control(["op": "counters"])["requests"]?[route.rawValue]?.numberValue ?? -1)
    }

    /// Blocks until `count` requests are held by a `hold` fault; how many are.
    @discardableResult
    func awaitHeld(_ count: Int) throws -> Int {
        Int(try control(["op": "awaitHeld", "count": .number(Double(count)), "timeout": .number(Self.startTimeout - 5)])["held"]?.numberValue ?? -1)
    }

    /// Lets every held request go on.
    func release() throws { try control(["op": "release"]) }

    /// Every refresh token issued so far is refused with `code`.
    func expireRefreshTokens(code: String = "TOKEN_EXPIRED") throws { try control(["op": "expireRefreshTokens", "code": .string(code)]) }

    /// The ID tokens issued from now on expire after `seconds`.
    func setTokenLifetime(_ seconds: Int) throws { try control(["op": "config", "tokenLifetime": .number(Double(seconds))]) }

    /// Password sign-ins answer `EMAIL_NOT_FOUND` / `INVALID_PASSWORD` (before email-enumeration
    /// protection) instead of `INVALID_LOGIN_CREDENTIALS`.
    func setLegacyPasswordErrors(_ legacy: Bool) throws { try control(["op": "config", "legacyPasswordErrors": .bool(legacy)]) }

    /// Disables (or enables) the user with `email`.
    func disableUser(email: String, disabled: Bool = true) throws {
        try control(["op": "disableUser", "email": .string(email), "disabled": .bool(disabled)])
    }

    /// Deletes the user with `uid` on the server's side.
    func deleteUser(uid: String) throws { try control(["op": "deleteUser", "uid": .string(uid)]) }

    /// The users' IDs the server knows.
    func userIDs() throws -> [String] {
        (try control(["op": "users"])["users"]?.arrayValue ?? []).compactMap { $0["uid"]?.stringValue }
    }

    /// What the child process has said so far, and whether it is gone.
    private final class ChildState: @unchecked Sendable {
        // Safety: `state` is only touched while `condition` is locked.
        struct State {
            var output = ""
            var hasExited = false
        }
        private let condition = NSCondition()
        private var state = State()

        func update(_ change: (inout State) -> Void) {
            condition.lock()
            change(&state)
            condition.broadcast()
            condition.unlock()
        }

        /// Blocks until `predicate` holds or `timeout` passes; the state then.
        @discardableResult
        func wait(timeout: TimeInterval, until predicate: (State) -> Bool) -> State {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while !predicate(state) {
                if !condition.wait(until: deadline) { break }
            }
            return state
        }
    }

    /// Why the server could not be used.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
