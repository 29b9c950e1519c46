import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import StreamsCocoa
import StreamsTest

/// `URLSession.rx` against a loopback HTTP server started by each test.
final class URLSessionRxTests: XCTestCase {
    /// What a subscription received, recorded from the session's delegate queue.
    private final class Recording<Element>: @unchecked Sendable {
        // Safety: every field is behind `state`'s lock; elements are only stored and read back.
        private let state = LockedState<(elements: [Element], error: Swift.Error?, completed: Bool, threads: [Bool])>(([], nil, false, []))

        var elements: [Element] { state.withLock { $0.elements } }
        var error: Swift.Error? { state.withLock { $0.error } }
        var completed: Bool { state.withLock { $0.completed } }
        var deliveredOnMainThread: [Bool] { state.withLock { $0.threads } }

        func record(_ event: Event<Element>) {
            let onMain = Thread.isMainThread
            state.withLock { state in
                state.threads.append(onMain)
                switch event {
                case .next(let element): state.elements.append(element)
                case .error(let error): state.error = error
                case .completed: state.completed = true
                }
            }
        }
    }

    private let timeout: TimeInterval = 30
    private var session: URLSession!
    private var server: LoopbackHTTPServer?
    private var previousLogFilter: (@Sendable (URLRequest) -> Bool)?

    override func setUp() {
        super.setUp()
        session = URLSession(configuration: .ephemeral)
        previousLogFilter = URLSession.rx.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
    }

    override func tearDown() {
        session.invalidateAndCancel()
        session = nil
        server?.stop()
        server = nil
        if let previousLogFilter { URLSession.rx.shouldLogRequest = previousLogFilter }
        super.tearDown()
    }

    private func startServer(
        _ routes: [String: LoopbackHTTPServer.Reply],
        onRequest: @escaping @Sendable (String) -> Void = { _ in },
        onClientClosedHeld: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(routes: routes, onRequest: onRequest, onClientClosedHeld: onClientClosedHeld)
        self.server = server
        return server
    }

    /// Subscribes to `source`, waits (with a timeout) for its terminal event, and returns what it got.
    private func run<Element>(_ source: Observable<Element>, file: StaticString = #filePath, line: UInt = #line) -> Recording<Element> {
        let recording = Recording<Element>()
        let ended = expectation(description: "terminal event")
        let subscription = source.subscribe { event in
            recording.record(event)
            if event.isStopEvent { ended.fulfill() }
        }
        wait(for: [ended], timeout: timeout)
        subscription.dispose()
        return recording
    }

    // MARK: response / data

    func testResponse_200WithBody() throws {
        let server = try startServer(["/hello": .respond(status: 200, body: "hi there")])
        try XCTAssertNoLeaksEventually {
            let recording = run(session.rx.response(request: URLRequest(url: server.url("/hello"))))
            XCTAssertNil(recording.error)
            XCTAssertTrue(recording.completed)
            let response = try XCTUnwrap(recording.elements.first)
            XCTAssertEqual(recording.elements.count, 1)
            XCTAssertEqual(response.response.statusCode, 200)
            XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "hi there")
            XCTAssertEqual(response.response.url, server.url("/hello"))
            XCTAssertEqual(recording.deliveredOnMainThread, [false, false], "delivered on the session's delegate queue")
        }
        XCTAssertEqual(server.requests, ["/hello"])
    }

    func testResponse_non2xxIsAResponse() throws {
        let server = try startServer(["/missing": .respond(status: 404, body: "nope")])
        let recording = run(session.rx.response(request: URLRequest(url: server.url("/missing"))))
        XCTAssertNil(recording.error)
        XCTAssertEqual(recording.elements.map(\.response.statusCode), [404])
        XCTAssertEqual(recording.elements.map { String(decoding: $0.data, as: UTF8.self) }, ["nope"])
    }

    func testData_200EmitsTheBody() throws {
        let server = try startServer(["/data": .respond(status: 200, body: "payload")])
        XCTAssertNoLeaksEventually {
            let recording = run(session.rx.data(request: URLRequest(url: server.url("/data"))))
            XCTAssertNil(recording.error)
            XCTAssertTrue(recording.completed)
            XCTAssertEqual(recording.elements.map { String(decoding: $0, as: UTF8.self) }, ["payload"])
        }
    }

    func testData_404FailsWithHTTPRequestFailed() throws {
        let server = try startServer(["/missing": .respond(status: 404, body: "not here")])
        XCTAssertNoLeaksEventually {
            let recording = run(session.rx.data(request: URLRequest(url: server.url("/missing"))))
            XCTAssertEqual(recording.elements, [])
            guard case .httpRequestFailed(let response, let data)? = recording.error as? RxCocoaURLError else {
                return XCTFail("expected httpRequestFailed, got \(String(describing: recording.error))")
            }
            XCTAssertEqual(response.statusCode, 404)
            XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, "not here")
            XCTAssertEqual((recording.error as? RxCocoaURLError)?.debugDescription, "The HTTP request failed with status 404.")
        }
    }

    func testData_500AndOtherNon2xxFail() throws {
        let server = try startServer([
            "/error": .respond(status: 500, body: ""),
            "/bad": .respond(status: 400, body: "bad"),
            "/created": .respond(status: 201, body: "made"),
        ])
        for (path, failed) in [("/error", true), ("/bad", true), ("/created", false)] {
            let recording = run(session.rx.data(request: URLRequest(url: server.url(path))))
            if failed {
                guard case .httpRequestFailed? = recording.error as? RxCocoaURLError else {
                    XCTFail("\(path): expected httpRequestFailed, got \(String(describing: recording.error))")
                    continue
                }
            } else {
                XCTAssertNil(recording.error, path)
                XCTAssertEqual(recording.elements.map { String(decoding: $0, as: UTF8.self) }, ["made"], path)
            }
        }
    }

    // MARK: json

    func testJSON_decodesTheBody() throws {
        let server = try startServer(["/config": .respond(status: 200, body: #"{"name": "streams", "tags": [1, 2]}"#, contentType: "application/json")])
        try XCTAssertNoLeaksEventually {
            let recording = run(session.rx.json(request: URLRequest(url: server.url("/config"))))
            XCTAssertNil(recording.error)
            let object = try XCTUnwrap(recording.elements.first as? [String: Any])
            XCTAssertEqual(object["name"] as? String, "streams")
            XCTAssertEqual(object["tags"] as? [Int], [1, 2])

            let viaURL = run(session.rx.json(url: server.url("/config")))
            XCTAssertEqual((viaURL.elements.first as? [String: Any])?["name"] as? String, "streams")
        }
        XCTAssertEqual(server.requests, ["/config", "/config"])
    }

    func testJSON_fragmentsNeedTheOption() throws {
        let server = try startServer(["/number": .respond(status: 200, body: "42")])
        let allowed = run(session.rx.json(request: URLRequest(url: server.url("/number")), options: [.fragmentsAllowed]))
        XCTAssertNil(allowed.error)
        XCTAssertEqual(allowed.elements.first as? Int, 42)
    }

    func testJSON_invalidBodyFailsWithDeserializationError() throws {
        let server = try startServer(["/broken": .respond(status: 200, body: "{not json")])
        XCTAssertNoLeaksEventually {
            let recording = run(session.rx.json(request: URLRequest(url: server.url("/broken"))))
            XCTAssertTrue(recording.elements.isEmpty)
            guard case .deserializationError(let error)? = recording.error as? RxCocoaURLError else {
                return XCTFail("expected deserializationError, got \(String(describing: recording.error))")
            }
            XCTAssertFalse(error is RxCocoaURLError)
        }
    }

    func testJSON_404FailsWithHTTPRequestFailed() throws {
        let server = try startServer(["/missing": .respond(status: 404, body: "{}")])
        let recording = run(session.rx.json(url: server.url("/missing")))
        guard case .httpRequestFailed(let response, _)? = recording.error as? RxCocoaURLError else {
            return XCTFail("expected httpRequestFailed, got \(String(describing: recording.error))")
        }
        XCTAssertEqual(response.statusCode, 404)
    }

    // MARK: errors that are not HTTP statuses

    func testResponse_transferErrorIsForwarded() throws {
        let server = try startServer([:])
        let url = server.url("/gone")
        server.stop()
        self.server = nil
        let recording = run(session.rx.response(request: URLRequest(url: url)))
        XCTAssertTrue(recording.elements.isEmpty)
        XCTAssertNotNil(recording.error as? URLError, "got \(String(describing: recording.error))")
    }

    func testResponse_nonHTTPResponseFails() throws {
        let url = try XCTUnwrap(URL(string: "data:text/plain;base64,aGk="))
        let recording = run(session.rx.response(request: URLRequest(url: url)))
        XCTAssertTrue(recording.elements.isEmpty)
        guard let error = recording.error as? RxCocoaURLError else {
            // Some Foundation versions fail `data:` URLs with a transfer error instead.
            throw XCTSkip("this Foundation does not load data: URLs: \(String(describing: recording.error))")
        }
        guard case .nonHTTPResponse(let response) = error else {
            return XCTFail("expected nonHTTPResponse, got \(error)")
        }
        XCTAssertFalse(response is HTTPURLResponse)
        XCTAssertTrue(error.debugDescription.hasPrefix("The response is not an HTTP response"))
    }

    // MARK: disposal

    func testResponse_disposeCancelsTheTask() throws {
        let requested = expectation(description: "the server read the request")
        let closed = expectation(description: "the client closed the connection")
        let server = try startServer(
            ["/slow": .hold],
            onRequest: { _ in requested.fulfill() },
            onClientClosedHeld: { _ in closed.fulfill() }
        )
        XCTAssertNoLeaksEventually {
            let nothing = expectation(description: "no event after disposal")
            nothing.isInverted = true
            let recording = Recording<(response: HTTPURLResponse, data: Data)>()
            let subscription = session.rx.response(request: URLRequest(url: server.url("/slow"))).subscribe { event in
                recording.record(event)
                nothing.fulfill()
            }
            wait(for: [requested], timeout: timeout)
            subscription.dispose()
            wait(for: [closed], timeout: timeout)
            // The cancelled task still calls its completion handler (with URLError.cancelled);
            // nothing of it reaches the observer.
            wait(for: [nothing], timeout: 0.5)
            XCTAssertTrue(recording.elements.isEmpty)
            XCTAssertNil(recording.error)
            XCTAssertFalse(recording.completed)
        }
        XCTAssertEqual(server.requests, ["/slow"])
    }

    func testResponse_eachSubscriptionPerformsTheRequest() throws {
        let server = try startServer(["/count": .respond(status: 200, body: "x")])
        let request = session.rx.data(request: URLRequest(url: server.url("/count")))
        XCTAssertEqual(server.requests, [], "nothing is requested before subscription")
        _ = run(request)
        _ = run(request)
        XCTAssertEqual(server.requests, ["/count", "/count"])
    }

    // MARK: logging

    func testShouldLogRequest_isAskedForEachRequest() throws {
        let server = try startServer(["/logged": .respond(status: 200, body: "ok")])
        let asked = LockedState<[String]>([])
        URLSession.rx.shouldLogRequest = { request in
            asked.withLock { $0.append(request.url?.path ?? "") }
            return false
        }
        _ = run(session.rx.data(request: URLRequest(url: server.url("/logged"))))
        XCTAssertEqual(asked.withLock { $0 }, ["/logged"])
    }
}
