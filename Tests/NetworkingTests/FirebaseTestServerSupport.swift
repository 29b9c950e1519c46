import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams
import XCTest

/// The longest any test waits for something that should happen (a failure guard, not a timing).
let networkTimeout: TimeInterval = 10

/// A complete HTTP response as a test sees it.
struct HTTPResult {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONValue(parsing: body) }

    /// The header `name`, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Why a test request failed.
struct HTTPClientError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking URLSession wrapper for one-shot requests (no cache, no cookies).
final class HTTPClient: Sendable {
    let session: URLSession

    init(timeout: TimeInterval = networkTimeout) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    func invalidate() { session.invalidateAndCancel() }

    /// Sends a request and waits (bounded) for the whole response.
    func send(_ method: String = "GET", _ url: URL, body: Data? = nil, headers: [String: String] = [:]) throws -> HTTPResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try send(request)
    }

    func send(_ request: URLRequest) throws -> HTTPResult {
        let outcome = LockedState<Result<HTTPResult, HTTPClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let result: Result<HTTPResult, HTTPClientError>
            if let error {
                result = .failure(HTTPClientError(description: "\(error)"))
            } else if let response = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    headers["\(name)"] = "\(value)"
                }
                result = .success(HTTPResult(status: response.statusCode, headers: headers, body: data ?? Data()))
            } else {
                result = .failure(HTTPClientError(description: "no HTTP response"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + networkTimeout + 5) == .success else {
            task.cancel()
            throw HTTPClientError(description: "no answer within the guard timeout")
        }
        return try outcome.withLock { $0! }.get()
    }
}

extension HTTPClient {
    /// Sends JSON (`PUT`/`PATCH`/`POST`) or nothing.
    func send(_ method: String, _ url: URL, json: JSONValue, headers: [String: String] = [:]) throws -> HTTPResult {
        try send(method, url, body: json.data(), headers: headers.merging(["Content-Type": "application/json"]) { $1 })
    }
}

/// Reads a streaming response through a `URLSessionDataDelegate`, keeping everything received,
/// and fulfils expectations when what was received matches a predicate.
final class StreamRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safety: mutable state is in `state` (locked); `session` and `task` are set in `init` only.
    struct Snapshot: Sendable {
        var status: Int?
        var headers: [String: String] = [:]
        var bytes = Data()
        var isFinished = false
        var error: String?

        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private struct Watcher {
        let predicate: @Sendable (Snapshot) -> Bool
        let expectation: XCTestExpectation
    }

    private struct State {
        var snapshot = Snapshot()
        var watchers: [Watcher] = []
    }

    private let state = LockedState(State())
    private var session: URLSession!
    private var task: URLSessionDataTask!

    /// Starts `request` at once.
    init(_ request: URLRequest) {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 120
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        task = session.dataTask(with: request)
        task.resume()
    }

    /// An SSE stream of `url`.
    convenience init(sse url: URL) {
        var request = URLRequest(url: url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        self.init(request)
    }

    /// The realtime stream of `server`, opened with `lastKnownVersionNumber`.
    convenience init(realtime server: FirebaseTestServer, lastKnownVersion: Int) {
        var request = URLRequest(url: server.remoteConfigRealtimeURL)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = JSONValue.object([
            "project": .string(server.project), "namespace": .string(server.namespace),
            "lastKnownVersionNumber": .string(String(lastKnownVersion)), "appId": "1:123:ios:abc", "sdkVersion": "11.0.0",
        ]).data()
        self.init(request)
    }

    var snapshot: Snapshot { state.withLock { $0.snapshot } }

    /// An expectation fulfilled once `predicate` holds for what was received.
    func expectation(_ description: String, _ predicate: @escaping @Sendable (Snapshot) -> Bool) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description)
        let holds = state.withLock { state -> Bool in
            if predicate(state.snapshot) { return true }
            state.watchers.append(Watcher(predicate: predicate, expectation: expectation))
            return false
        }
        if holds { expectation.fulfill() }
        return expectation
    }

    /// Expects `count` complete SSE events.
    func expectEvents(_ count: Int) -> XCTestExpectation {
        expectation("\(count) SSE events") { sseEvents($0.text).count >= count }
    }

    /// Expects `count` realtime messages.
    func expectMessages(_ count: Int) -> XCTestExpectation {
        expectation("\(count) realtime messages") { realtimeMessages($0.text).count >= count }
    }

    /// Expects the stream to end.
    func expectFinished() -> XCTestExpectation {
        expectation("stream finished") { $0.isFinished }
    }

    var events: [SSEEvent] { sseEvents(snapshot.text) }
    var messages: [String] { realtimeMessages(snapshot.text) }

    /// Cancels the request and releases the session.
    func cancel() {
        task.cancel()
        session.invalidateAndCancel()
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        let ready = state.withLock { state -> [XCTestExpectation] in
            change(&state.snapshot)
            var ready: [XCTestExpectation] = []
            state.watchers.removeAll { watcher in
                guard watcher.predicate(state.snapshot) else { return false }
                ready.append(watcher.expectation)
                return true
            }
            return ready
        }
        ready.forEach { $0.fulfill() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        update { snapshot in
            if let response = response as? HTTPURLResponse {
                snapshot.status = response.statusCode
                for (name, value) in response.allHeaderFields { snapshot.headers["\(name)".lowercased()] = "\(value)" }
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        update { $0.bytes.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        update { snapshot in
            snapshot.isFinished = true
            snapshot.error = error.map { "\($0)" }
        }
    }
}

/// One server-sent event.
struct SSEEvent: Equatable, CustomStringConvertible {
    var event: String
    var data: String

    var json: JSONValue? { try? JSONValue(parsing: data) }
    var description: String { "\(event) \(data)" }
}

/// The complete events in `text` (each ends with a blank line).
func sseEvents(_ text: String) -> [SSEEvent] {
    var events: [SSEEvent] = []
    var blocks = text.components(separatedBy: "\n\n")
    blocks.removeLast()  // incomplete (or empty) tail
    for block in blocks where !block.isEmpty {
        var event = SSEEvent(event: "message", data: "")
        for line in block.split(separator: "\n") {
            if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
        }
        events.append(event)
    }
    return events
}

/// The complete `{…}` messages in a streamed realtime JSON array (no nested braces).
func realtimeMessages(_ text: String) -> [String] {
    var messages: [String] = []
    var current: String?
    for character in text {
        if character == "{" { current = "" }
        if current != nil { current!.append(character) }
        if character == "}", let message = current {
            messages.append(message)
            current = nil
        }
    }
    return messages
}

/// A TCP socket connected to `127.0.0.1:port` (receive timeout `networkTimeout`, no SIGPIPE),
/// optionally with a small receive buffer; `nil` if it cannot connect. The caller closes it.
func connectLoopback(port: Int, receiveBuffer: Int32? = nil) -> Int32? {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return nil }
    if var size = receiveBuffer {
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var timeout = timeval(tv_sec: Int(networkTimeout), tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
    var one: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A raw TCP exchange with the server: sends `bytes`, then reads until the server closes
/// (or the guard timeout). For requests URLSession can't express.
func rawExchange(port: Int, _ bytes: [UInt8], closeWriting: Bool = false) -> String? {
    guard let descriptor = connectLoopback(port: port) else { return nil }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
        let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        #endif
        guard sent > 0 else { break }
        offset += sent
    }
    if closeWriting { _ = shutdown(descriptor, Int32(SHUT_WR)) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[..<count]
    }
    return String(decoding: received, as: UTF8.self)
}

func rawExchange(port: Int, _ text: String, closeWriting: Bool = false) -> String? {
    rawExchange(port: port, Array(text.utf8), closeWriting: closeWriting)
}

extension FirebaseTestServer {
    /// The REST URL of `path` (`/a/b` → `…/a/b.json`), with `query` items.
    func databaseURL(_ path: String, query: [String: String] = [:]) -> URL {
        var components = URLComponents(url: databaseURL, resolvingAgainstBaseURL: false)!
        components.path = (path == "/" ? "/" : path) + ".json"
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return components.url!
    }

    /// A Firebase Installations client of `appID` registered with this server, its record in
    /// `storage` (in memory by default, so tests never touch the user's files).
    func makeInstallations(appID: String = "1:1234:ios:abcd", storage: any FirebaseInstallationsStorage = InMemoryFirebaseInstallationsStorage())
        -> FirebaseInstallations
    {
        FirebaseInstallations(
            projectID: project, apiKey: apiKey, appID: appID, storage: storage, appHeaders: [:], baseURL: installationsBaseURL, requestTimeout: networkTimeout)
    }

    /// A fetch request with Firebase's body.
    func fetchRequest(eTag: String? = nil, key: String? = nil, project: String? = nil, body: Data? = nil) -> URLRequest {
        var components = URLComponents(url: remoteConfigFetchURL, resolvingAgainstBaseURL: false)!
        if let project { components.path = "/v1/projects/\(project)/namespaces/\(namespace):fetch" }
        if let key { components.queryItems = key.isEmpty ? nil : [URLQueryItem(name: "key", value: key)] }
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let eTag { request.setValue(eTag, forHTTPHeaderField: "If-None-Match") }
        request.setValue("BASE/1", forHTTPHeaderField: "X-Firebase-RC-Fetch-Type")
        request.httpBody =
            body
            ?? JSONValue.object([
                "app_instance_id": "instance-1", "app_instance_id_token": "token-1", "app_id": "1:123:ios:abc",
                "sdk_version": "11.0.0", "language_code": "en-GB", "custom_signals": ["tier": "gold", "level": 3],
            ]).data()
        return request
    }
}

/// Starts a server (and a client) for each test and stops everything in `tearDown`.
class FirebaseTestServerTestCase: XCTestCase {
    var server: FirebaseTestServer!
    var client: HTTPClient!
    private var recorders: [StreamRecorder] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FirebaseTestServer()
        client = HTTPClient()
    }

    override func tearDown() {
        recorders.forEach { $0.cancel() }
        recorders = []
        client?.invalidate()
        client = nil
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// Keeps `recorder` to cancel it in `tearDown`.
    func track(_ recorder: StreamRecorder) -> StreamRecorder {
        recorders.append(recorder)
        return recorder
    }

    /// Opens an SSE stream of `path` and waits for its first event.
    func openSSE(_ path: String, query: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) -> StreamRecorder {
        let recorder = track(StreamRecorder(sse: server.databaseURL(path, query: query)))
        wait(for: [recorder.expectEvents(1)], timeout: networkTimeout)
        return recorder
    }

    /// Opens a realtime stream and waits until the server counts it.
    func openRealtime(lastKnownVersion: Int, file: StaticString = #filePath, line: UInt = #line) -> StreamRecorder {
        let expected = server.openStreamCount(route: .remoteConfigRealtime) + 1
        let recorder = track(StreamRecorder(realtime: server, lastKnownVersion: lastKnownVersion))
        XCTAssertTrue(server.waitForOpenStreams(expected, route: .remoteConfigRealtime), file: file, line: line)
        return recorder
    }
}
