import ConfigFeatures
import Foundation
import Streams

/// How a request is answered.
enum Reply {
    /// A complete response.
    case response(HTTPResponse)
    /// A streaming response: the head, then the stream registered under the connection's id.
    case stream(head: Data)
}

/// The running server: the accept thread, one thread per connection, and the shared state.
///
/// Threads hold the engine (not the public `FirebaseTestServer`), so the server's `deinit` can
/// stop it. `stop()` wakes every thread through its doorbell and waits for all of them.
final class ServerEngine: @unchecked Sendable {
    // Safety: all mutable state is in `state`, guarded by its lock; lock bodies never do I/O,
    // ring doorbells or signal semaphores (`mutate` does that after unlocking). `listener`,
    // `threads`, `pushIDs` and `clock` (a locked box) are thread-safe; `configuration` is
    // immutable.
    let configuration: ServerConfiguration
    let state: LockedState<ServerState>
    private let listener: Listener
    private let threads = DispatchGroup()
    private let pushIDs = PushIDGenerator()
    /// The database's clock: the instant of each write's server values and of rules' `now`.
    private let clock = LockedState<@Sendable () -> Date>({ Date() })

    /// Starts accepting connections on `listener`.
    init(listener: Listener, project: String, namespace: String, apiKey: String) {
        configuration = ServerConfiguration(project: project, namespace: namespace, apiKey: apiKey, port: listener.port)
        state = LockedState(ServerState(configuration: configuration))
        self.listener = listener
        threads.enter()
        Thread { [self] in
            POSIX.nameCurrentThread(Self.acceptThreadName)
            acceptLoop()
            threads.leave()
        }.start()
    }

    // MARK: State

    /// Runs `body` under the lock, then rings the doorbells and wakes the waiters it asked for
    /// (and the waiters whose condition now holds).
    func mutate<R>(_ body: (inout ServerState, inout Effects) throws -> R) rethrows -> R {
        var effects = Effects()
        let result = try state.withLock { state -> R in
            defer { effects.semaphores += state.takeSatisfiedWaiters() }
            return try body(&state, &effects)
        }
        effects.perform()
        return result
    }

    /// The database's time now, read once per request or write (outside the state's lock), so
    /// that the rules' `now` and the server values it stores are the same instant.
    func now() -> Date {
        let read = clock.withLock { $0 }
        return read()
    }

    /// Replaces the database's clock (`setDatabaseClock(_:)`).
    func setClock(_ read: @escaping @Sendable () -> Date) {
        clock.withLock { $0 = read }
    }

    /// Reads the state under the lock.
    func read<R>(_ body: (ServerState) throws -> R) rethrows -> R {
        try state.withLock { try body($0) }
    }

    /// Blocks until `condition` holds or `timeout` seconds pass; whether it held.
    func wait(for condition: WaitCondition, timeout: TimeInterval) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let id = state.withLock { state -> UInt64? in
            if state.satisfies(condition) { return nil }
            let id = state.makeID()
            state.waiters[id] = Waiter(condition: condition, semaphore: semaphore)
            return id
        }
        guard let id else { return true }
        if semaphore.wait(timeout: .now() + max(0, timeout)) == .success { return true }
        let stillWaiting = state.withLock { $0.waiters.removeValue(forKey: id) != nil }
        if stillWaiting { return false }
        // Satisfied while timing out: the signal is on its way.
        semaphore.wait()
        return true
    }

    // MARK: Stopping

    /// Closes the listener and every connection, and waits for all threads (idempotent).
    func stop() {
        let connections = mutate { state, _ -> [Connection] in
            state.isStopped = true
            return Array(state.connections.values)
        }
        listener.stop()
        for connection in connections { connection.abort() }
        // Every blocking call polls the doorbell, so this returns promptly; the bound only
        // keeps a bug from hanging the test process.
        _ = threads.wait(timeout: .now() + 30)
        listener.close()
    }

    // MARK: Threads

    /// Thread names (Linux keeps at most 15 bytes, so they are short; tests look for `FTSrv-`).
    static let acceptThreadName = "FTSrv-accept"
    static let connectionThreadName = "FTSrv-conn"

    private func acceptLoop() {
        while let socket = listener.accept() {
            let id = state.withLock { $0.makeID() }
            guard let connection = try? Connection(id: id, socket: socket) else {
                POSIX.close(socket)
                continue
            }
            let registered = state.withLock { state -> Bool in
                guard !state.isStopped else { return false }
                state.connections[id] = connection
                return true
            }
            guard registered else {
                connection.finish(linger: false)
                continue
            }
            threads.enter()
            Thread { [self] in
                POSIX.nameCurrentThread(Self.connectionThreadName)
                serve(connection)
                mutate { state, _ in
                    state.connections.removeValue(forKey: id)
                    state.streams.removeValue(forKey: id)
                }
                threads.leave()
            }.start()
        }
    }

    /// Reads one request, answers it, and closes the connection.
    private func serve(_ connection: Connection) {
        var reader = HTTPRequestReader(
            source: { connection.receive() },
            sendContinue: { connection.send(HTTPResponse.continueHead) }
        )
        switch reader.read() {
        case .closed:
            connection.finish()
        case .invalid(let error):
            connection.send(DatabaseWire.error(error.status, "Bad request: \(error.reason)").serialized())
            connection.finish()
        case .request(let request):
            let linger = handle(request, on: connection)
            connection.finish(linger: linger)
        }
    }

    /// Answers `request`; returns whether to linger when closing (not after a `disconnect`).
    private func handle(_ request: HTTPRequest, on connection: Connection) -> Bool {
        let (path, redirected) = Endpoint.strippingRedirect(request.path)
        let endpoint = Endpoint(path: path)
        let route = endpoint.route
        var record = FirebaseTestServer.RecordedRequest(
            method: request.method, path: path, query: request.query, headers: request.headers,
            body: request.body, route: route, wasRedirected: redirected
        )
        let plan = mutate { state, _ -> FaultPlan in
            if route == .database { record.auth = state.databaseAuth(of: request) }
            state.requests.append(record)
            return state.takeFaults(for: route)
        }
        if let delay = plan.delay, !connection.pause(delay) { return false }

        var malformed = false
        switch plan.fault {
        case .status(let code, _, _)?:
            let response =
                route == .database || route == nil
                ? DatabaseWire.error(code, HTTPResponse.reason(for: code))
                : RemoteConfigWire.error(code, "Injected fault: \(HTTPResponse.reason(for: code))")
            connection.send(response.serialized())
            return true
        case .redirect307?:
            let target = redirected ? request.target : Endpoint.redirectPrefix + request.target
            let response = HTTPResponse(status: 307, headers: [("Location", configuration.origin + target)])
            connection.send(response.serialized())
            return true
        case .disconnect?:
            return false
        case .malformedJSON?:
            if isStreaming(request, endpoint) {
                malformed = true
            } else {
                let body = route == .database ? DatabaseWire.malformedBody : RemoteConfigWire.malformedBody
                let response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
                connection.send(response.serialized())
                return true
            }
        case .delay?, nil:
            break
        }

        if let encoding = request.header("content-encoding")?.lowercased(), encoding != "identity", !request.body.isEmpty {
            // Firebase's SDK gzips realtime bodies; this server reads plain bodies only.
            let message = "Content-Encoding \(encoding) is not supported by FirebaseTestServer; send the body uncompressed"
            let response = route == .database || route == nil ? DatabaseWire.error(415, message) : RemoteConfigWire.error(415, message)
            connection.send(response.serialized())
            return true
        }
        let pushID = request.method == "POST" ? pushIDs.next(at: Date()) : ""
        let now = self.now()
        let reply = mutate { state, effects -> Reply in
            switch endpoint {
            case .remoteConfigFetch(let project, let namespace):
                return .response(state.fetchRemoteConfig(request, project: project, namespace: namespace))
            case .remoteConfigRealtime(let project, let namespace):
                return state.openRemoteConfigStream(request, project: project, namespace: namespace, connection: connection, malformed: malformed, &effects)
            case .remoteConfigTemplate(let project):
                return .response(state.handleRemoteConfigTemplate(request, project: project, &effects))
            case .remoteConfigServerTemplate(let project):
                return .response(state.handleServerTemplate(request, project: project))
            case .installationsCreate(let project):
                return .response(state.createInstallation(request, project: project, now: Date()))
            case .installationsAuthToken(let project, let fid):
                return .response(state.generateInstallationAuthToken(request, project: project, fid: fid, now: Date()))
            case .database(let rawPath):
                return state.handleDatabase(request, rawPath: rawPath, pushID: pushID, now: now, connection: connection, malformed: malformed, &effects)
            case .authClient(let method):
                return .response(state.handleAuthClient(request, method: method, now: Date(), &effects))
            case .authTokenRefresh:
                return .response(state.handleAuthClient(request, method: "token", now: Date(), &effects))
            case .authAdmin(let project, let method):
                return .response(state.handleAuthAdmin(request, project: project, method: method, now: Date(), &effects))
            case .authEmulator(let project, let resource):
                return .response(state.handleAuthEmulator(request, project: project, resource: resource, &effects))
            case .unknown:
                return .response(DatabaseWire.error(404, state.notFoundMessage(path)))
            }
        }
        switch reply {
        case .response(let response):
            connection.send(response.serialized())
        case .stream(let head):
            runStream(on: connection, head: head)
        }
        return true
    }

    private func isStreaming(_ request: HTTPRequest, _ endpoint: Endpoint) -> Bool {
        switch endpoint {
        case .remoteConfigRealtime: return true
        case .database: return request.method == "GET" && request.header("accept")?.lowercased().contains("text/event-stream") == true
        case .remoteConfigFetch, .remoteConfigTemplate, .remoteConfigServerTemplate, .installationsCreate, .installationsAuthToken, .authClient, .authAdmin,
            .authEmulator,
            .authTokenRefresh, .unknown:
            return false
        }
    }

    /// Writes the stream's head, then its queued bytes as they come, until the stream ends, the
    /// peer goes away or the server stops. Idle database streams get `keep-alive` events.
    private func runStream(on connection: Connection, head: Data) {
        let id = connection.id
        var alive = connection.send(head)
        var lastWrite = Date()
        while alive && !connection.isAborted {
            let (chunks, ending, keepAlive) = state.withLock { state -> ([Data], Bool, TimeInterval?) in
                guard let stream = state.streams[id] else { return ([], true, nil) }
                state.streams[id]?.pending.removeAll()
                let keepAlive = stream.route == .database ? state.database.keepAliveInterval : nil
                return (stream.pending, stream.isEnding, keepAlive)
            }
            for chunk in chunks where alive {
                alive = connection.send(chunk)
            }
            if !chunks.isEmpty { lastWrite = Date() }
            if !alive || ending { break }
            // `send` drains a ring that arrives while it writes (more data, or the end of the
            // stream): read the state again before waiting, or that wake-up would be lost.
            if !chunks.isEmpty { continue }
            let timeout = keepAlive.map { max(0, $0 - Date().timeIntervalSince(lastWrite)) }
            switch connection.wait(timeout: timeout) {
            case .rung:
                continue
            case .peerClosed:
                alive = false
            case .timedOut:
                alive = connection.send(ServerSentEvents.keepAlive)
                lastWrite = Date()
            }
        }
        mutate { state, _ in _ = state.streams.removeValue(forKey: id) }
    }
}
