import ConfigFeatures
import Foundation

/// The immutable settings of one server.
struct ServerConfiguration: Sendable {
    let project: String
    let namespace: String
    let apiKey: String
    let port: Int

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// The sentence Google API errors about the key end with here: which key this server accepts.
    var acceptedKeyHint: String {
        " FirebaseTestServer accepts the API key \"\(apiKey)\" only (pass it as ?key= or X-Goog-Api-Key; start the server with --api-key, or FirebaseTestServer(apiKey:) in Swift, to accept another)."
    }
}

/// Everything the server knows, guarded by one lock in `ServerEngine`.
///
/// Mutations happen in `ServerEngine.mutate`, which collects the side effects (doorbells to ring,
/// waiters to wake) in `Effects` and performs them after leaving the lock.
struct ServerState {
    let configuration: ServerConfiguration
    var isStopped = false
    var nextID: UInt64 = 0
    var connections: [UInt64: Connection] = [:]
    /// Streaming responses, keyed by their connection's id.
    var streams: [UInt64: OpenStream] = [:]
    var remoteConfig = RemoteConfigState()
    var serverTemplate = ServerTemplateState()
    var database = DatabaseState()
    var installations = InstallationsState()
    var auth = AuthState()
    var faults: [FirebaseTestServer.Fault] = []
    /// Whether rejections say what the server accepts (`FirebaseTestServer.explainsRejections`).
    var explainsRejections = true
    var requests: [FirebaseTestServer.RecordedRequest] = []
    var waiters: [UInt64: Waiter] = [:]

    init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }
}

/// Work decided under the lock and done after it.
struct Effects {
    var doorbells: [Connection] = []
    var semaphores: [DispatchSemaphore] = []

    func perform() {
        for connection in doorbells { connection.ring() }
        for semaphore in semaphores { semaphore.signal() }
    }
}

// MARK: - Streams

/// A streaming response being served: the bytes queued for its thread to write.
struct OpenStream {
    /// What the stream carries.
    enum Kind {
        /// The Remote Config realtime stream (a streamed JSON array of invalidations).
        case remoteConfig
        /// A Realtime Database SSE stream of the value at `location` (or of what `query`
        /// selects there), opened with `token`.
        case database(location: RealtimeDatabasePath, token: String?, query: ResolvedRealtimeDatabaseQuery?)
    }

    let kind: Kind
    let connection: Connection
    /// Bytes to write, in order.
    var pending: [Data] = []
    /// Close the stream once `pending` is written (the stream no longer counts as open).
    var isEnding = false
    /// Whether a realtime message was written (the next one is preceded by a comma).
    var hasSentMessage = false

    var route: FirebaseTestServer.Route {
        switch kind {
        case .remoteConfig: return .remoteConfigRealtime
        case .database: return .database
        }
    }
}

extension ServerState {
    /// Queues `data` on the stream `id` (if it is open) and rings its thread.
    mutating func enqueue(_ data: Data, onStream id: UInt64, _ effects: inout Effects) {
        guard let stream = streams[id], !stream.isEnding else { return }
        streams[id]?.pending.append(data)
        effects.doorbells.append(stream.connection)
    }

    /// Makes the stream `id` close after writing what is queued and `last` (if any).
    mutating func end(stream id: UInt64, after last: Data? = nil, _ effects: inout Effects) {
        guard let stream = streams[id], !stream.isEnding else { return }
        if let last { streams[id]?.pending.append(last) }
        streams[id]?.isEnding = true
        effects.doorbells.append(stream.connection)
    }

    /// The open (not ending) streams of `route`.
    func openStreamIDs(_ route: FirebaseTestServer.Route?) -> [UInt64] {
        streams.filter { !$0.value.isEnding && (route == nil || $0.value.route == route) }.keys.sorted()
    }
}

// MARK: - Waiting

/// A condition a thread is waiting for (see `ServerEngine.wait(for:timeout:)`).
enum WaitCondition: Sendable {
    /// Exactly `count` open streams on `route`.
    case openStreams(Int, FirebaseTestServer.Route)
    /// At least `count` recorded requests on `route` (`nil`: any).
    case requests(atLeast: Int, FirebaseTestServer.Route?)
}

/// A thread blocked until its condition holds.
struct Waiter {
    let condition: WaitCondition
    let semaphore: DispatchSemaphore
}

extension ServerState {
    /// Whether `condition` holds now.
    func satisfies(_ condition: WaitCondition) -> Bool {
        switch condition {
        case .openStreams(let count, let route):
            return openStreamIDs(route).count == count
        case .requests(let count, let route):
            return requests.lazy.filter { route == nil || $0.route == route }.count >= count
        }
    }

    /// Removes the waiters whose condition holds and returns their semaphores to signal.
    mutating func takeSatisfiedWaiters() -> [DispatchSemaphore] {
        guard !waiters.isEmpty else { return [] }
        var ready: [DispatchSemaphore] = []
        for (id, waiter) in waiters where satisfies(waiter.condition) {
            waiters.removeValue(forKey: id)
            ready.append(waiter.semaphore)
        }
        return ready
    }
}

// MARK: - Faults

/// What the faults make of one request.
struct FaultPlan {
    var delay: TimeInterval?
    var fault: FirebaseTestServer.Fault?
}

extension ServerState {
    /// Consumes the faults that apply to a request on `route`: the first matching delay and the
    /// first matching other fault.
    mutating func takeFaults(for route: FirebaseTestServer.Route?) -> FaultPlan {
        var plan = FaultPlan()
        var index = faults.startIndex
        while index < faults.endIndex {
            let fault = faults[index]
            let matches = fault.route == nil || fault.route == route
            let wanted = fault.isDelay ? plan.delay == nil : plan.fault == nil
            guard matches, wanted, fault.count > 0 else {
                if fault.count <= 0 { faults.remove(at: index) } else { index += 1 }
                continue
            }
            if case .delay(let seconds, _, _) = fault { plan.delay = seconds } else { plan.fault = fault }
            if let remaining = fault.decremented() {
                faults[index] = remaining
                index += 1
            } else {
                faults.remove(at: index)
            }
        }
        return plan
    }
}

extension FirebaseTestServer.Fault {
    /// The fault with one use less, `nil` when used up.
    func decremented() -> Self? {
        guard count > 1 else { return nil }
        switch self {
        case .status(let code, let count, let route): return .status(code, count: count - 1, route: route)
        case .malformedJSON(let count, let route): return .malformedJSON(count: count - 1, route: route)
        case .delay(let seconds, let count, let route): return .delay(seconds, count: count - 1, route: route)
        case .redirect307(let count, let route): return .redirect307(count: count - 1, route: route)
        case .disconnect(let count, let route): return .disconnect(count: count - 1, route: route)
        }
    }
}
