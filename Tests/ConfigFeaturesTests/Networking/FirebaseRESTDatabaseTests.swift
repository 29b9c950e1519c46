import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// A `put` server-sent event.
func ssePut(_ path: String, _ data: JSONValue) -> String {
    "event: put\ndata: {\"path\":\(JSONValue.string(path).serialized()),\"data\":\(data.serialized())}\n\n"
}

/// A `patch` server-sent event.
func ssePatch(_ path: String, _ data: JSONValue) -> String {
    "event: patch\ndata: {\"path\":\(JSONValue.string(path).serialized()),\"data\":\(data.serialized())}\n\n"
}

final class FirebaseRESTDatabaseTests: XCTestCase {
    private let base = URL(string: "https://db.test")!

    private func database(
        _ transport: FakeHTTPTransport,
        _ scheduler: TestScheduler,
        auth: FirebaseRESTAuth = .idToken("t1"),
        refresher: (@Sendable () -> Observable<FirebaseRESTAuth>)? = nil,
        backoff: BackoffPolicy = BackoffPolicy(initialDelay: 1, maximumDelay: 8)
    ) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: base, auth: auth, tokenRefresher: refresher, scheduler: scheduler, reconnectBackoff: backoff, requestTimeout: 9, randomSource: { 0.5 },
            transport: transport)
    }

    // MARK: - One-shot requests

    func testFirebaseRESTDatabase_getValueSendsAnAuthenticatedGet() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(["a": 1, "b": ["c": true]]), .status(200, "null"))
            let db = database(transport, scheduler)
            let present = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "Groups/g 1") }
            let absent = scheduler.recordEvents(subscribed: 200) { db.getValue(at: "missing") }
            scheduler.start()
            XCTAssertEqual(present.events, [.next(102, ["a": 1, "b": ["c": true]]), .completed(102)], "answered at 101, delivered one tick later")
            XCTAssertEqual(absent.events, [.next(202, .null), .completed(202)])
            let sent = try XCTUnwrap(transport.sentRequests.first)
            XCTAssertEqual(sent.request.method, .get)
            XCTAssertEqual(sent.request.url.absoluteString, "https://db.test/Groups/g%201.json?auth=t1")
            XCTAssertEqual(sent.request.header("Accept"), "application/json")
            XCTAssertEqual(sent.timeout, 9)
        }
    }

    func testFirebaseRESTDatabase_errorsMapToTypedErrors() {
        let cases: [(FakeHTTPTransport.Reply, Error)] = [
            (.status(400, #"{"error":"Invalid data"}"#), FirebaseRESTDatabaseError.invalidData(message: "Invalid data")),
            (.status(401, #"{"error":"Auth token is expired"}"#), FirebaseRESTDatabaseError.permissionDenied(message: "Auth token is expired")),
            (.status(403, #"{"error":"Permission denied"}"#), FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied")),
            (.status(404, "Not Found"), FirebaseRESTDatabaseError.http(statusCode: 404, message: "Not Found")),
            (.status(429, ""), FirebaseRESTDatabaseError.http(statusCode: 429, message: "no details")),
            (.status(503, ""), FirebaseRESTDatabaseError.unavailable(statusCode: 503, message: "no details")),
            (.status(200, "{not json"), FirebaseRESTDatabaseError.invalidResponse(message: "")),
            (.json(["bad.key": 1]), FirebaseRESTDatabaseError.invalidResponse(message: "")),
            (
                .failure(HTTPTransportError.timedOut(message: "no complete response within 9.0 s")),
                FirebaseRESTDatabaseError.network(message: "timed out: no complete response within 9.0 s")
            ),
            (.failure(HTTPTransportError.cannotConnect(message: "refused")), FirebaseRESTDatabaseError.network(message: "cannot connect: refused")),
        ]
        for (reply, expected) in cases {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                transport.reply(reply)
                let db = database(transport, scheduler)
                let res = scheduler.start { db.getValue(at: "x") }
                XCTAssertEqual(res.events.count, 1, "\(reply)")
                guard case .error(let error)? = res.events.first?.value, res.events.first?.time == 202 else {
                    return XCTFail("\(reply): \(res.events)")
                }
                if case .invalidResponse? = expected as? FirebaseRESTDatabaseError {
                    guard case .invalidResponse? = error as? FirebaseRESTDatabaseError else { return XCTFail("\(error)") }
                } else {
                    XCTAssertEqual(error as? FirebaseRESTDatabaseError, expected as? FirebaseRESTDatabaseError)
                }
            }
        }
    }

    func testFirebaseRESTDatabase_invalidRequestsFailOnTheSchedulerWithoutSending() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            let read = scheduler.recordEvents(subscribed: 100) { db.getValue(at: "a/b.c") }
            let update = scheduler.recordEvents(subscribed: 100) { db.updateChildValues(["x": 1, "x/y": 2], at: "a") }
            let set = scheduler.recordEvents(subscribed: 100) { db.setValue(.number(.infinity), at: "a") }
            let push = scheduler.recordEvents(subscribed: 100) { db.push(1, at: "a#") }
            let observe = scheduler.recordEvents(subscribed: 100) { db.observeValue(at: "$x") }
            scheduler.start()
            XCTAssertEqual(read.events, [.error(101, RealtimeDatabaseError.invalidPath("a/b.c", reason: "segment \"b.c\" contains \".\""))])
            XCTAssertEqual(update.events.count, 1)
            guard case .error(let updateError)? = update.events.first?.value else { return XCTFail("\(update.events)") }
            XCTAssertEqual(updateError as? RealtimeDatabaseError, .invalidUpdate(path: "a", reason: "\"/a/x\" overlaps \"/a/x/y\""))
            XCTAssertEqual(set.events.count, 1)
            XCTAssertEqual(push.events.count, 1)
            XCTAssertEqual(observe.events, [.error(101, RealtimeDatabaseError.invalidPath("$x", reason: "segment \"$x\" contains \"$\""))])
            XCTAssertEqual(transport.sentRequests.count + transport.streams.count, 0)
            XCTAssertEqual(db.activeObserverCount, 0)
        }
    }

    func testFirebaseRESTDatabase_writesUseTheRESTVerbs() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(["n": 1]), .json(["b": 2]), .status(200, "null"))
            let db = database(transport, scheduler, auth: .accessToken("oauth"))
            let set = scheduler.recordEvents(subscribed: 100) { db.setValue(["n": 1, "gone": .null], at: "a") }
            let update = scheduler.recordEvents(subscribed: 200) { db.updateChildValues(["/b/": 2, "c/d": .null], at: "a") }
            let remove = scheduler.recordEvents(subscribed: 300) { db.removeValue(at: "a") }
            scheduler.start()
            XCTAssertEqual(set.events.map(\.time), [102, 102])
            XCTAssertEqual(update.events.map(\.time), [202, 202])
            XCTAssertEqual(remove.events.map(\.time), [302, 302])
            let requests = transport.sentRequests.map(\.request)
            XCTAssertEqual(requests.map(\.method), [.put, .patch, .delete])
            XCTAssertEqual(requests.map(\.url.absoluteString), Array(repeating: "https://db.test/a.json?access_token=oauth", count: 3))
            XCTAssertEqual(requests[0].bodyJSON, ["n": 1])
            XCTAssertEqual(requests[1].bodyJSON, ["b": 2, "c/d": .null])
            XCTAssertNil(requests[2].body)
        }
    }

    func testFirebaseRESTDatabase_pushPostsAndEmitsTheServersName() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(["name": "-Nserver"]), .json(["nope": 1]))
            let db = database(transport, scheduler)
            let first = scheduler.recordEvents(subscribed: 100) { db.push(["text": "hi"], at: "comments") }
            let second = scheduler.recordEvents(subscribed: 200) { db.push("x", at: "/") }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(102, "-Nserver"), .completed(102)])
            XCTAssertEqual(transport.sentRequests.map(\.request.method), [.post, .post])
            XCTAssertEqual(transport.sentRequests.first?.request.url.absoluteString, "https://db.test/comments.json?auth=t1")
            XCTAssertEqual(transport.sentRequests.first?.request.bodyJSON, ["text": "hi"])
            guard case .error(FirebaseRESTDatabaseError.invalidResponse)? = second.events.first?.value else { return XCTFail("\(second.events)") }
        }
    }

    func testFirebaseRESTDatabase_childByAutoIdUsesTheSchedulersClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let db = database(FakeHTTPTransport(scheduler: scheduler), scheduler)
        scheduler.advanceTo(1_000)
        let key = db.childByAutoId()
        XCTAssertEqual(key.count, 20)
        XCTAssertEqual(PushIDGenerator.timestamp(ofPushID: key), Date(timeIntervalSince1970: 1_000))
        XCTAssertLessThan(key, db.childByAutoId())
    }

    func testFirebaseRESTDatabase_disposingARequestCancelsIt() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler, latency: .seconds(100))
            transport.reply(.json(1))
            let db = database(transport, scheduler)
            let res = scheduler.start(disposed: 250) { db.getValue(at: "x") }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(transport.sentRequests.map(\.isDisposed), [true])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: - observeValue

    func testFirebaseRESTDatabase_observeEmitsTheSnapshotThenOnlyChanges() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            let stream = { transport.streams[0] }
            scheduler.scheduleAt(300) { stream().open(headers: ["Content-Type": "text/event-stream"]) }
            scheduler.scheduleAt(310) { stream().send(ssePut("/", ["a": 1, "b": ["c": 2]])) }
            scheduler.scheduleAt(320) { stream().send(ssePut("/a", 1)) }  // same value
            scheduler.scheduleAt(330) { stream().send("event: keep-alive\ndata: null\n\n") }
            scheduler.scheduleAt(340) { stream().send(ssePatch("/b", ["c": 3, "d/e": "x"])) }
            scheduler.scheduleAt(350) { stream().send("event: pu") }  // split anywhere
            scheduler.scheduleAt(351) { stream().send("t\ndata: {\"path\":\"/a\",\"data\":null}\n") }
            scheduler.scheduleAt(352) { stream().send("\n") }
            scheduler.scheduleAt(360) { stream().send("event: unknown\ndata: 1\n\n: comment\n\n") }
            let res = scheduler.start { db.observeValue(at: "Groups/g0") }
            XCTAssertEqual(
                res.events,
                [
                    .next(311, ["a": 1, "b": ["c": 2]]),
                    .next(341, ["a": 1, "b": ["c": 3, "d": ["e": "x"]]]),
                    .next(353, ["b": ["c": 3, "d": ["e": "x"]]]),
                ])
            let request = try XCTUnwrap(transport.streams.first?.request)
            XCTAssertEqual(request.method, .get)
            XCTAssertEqual(request.url.absoluteString, "https://db.test/Groups/g0.json?auth=t1")
            XCTAssertEqual(request.header("Accept"), "text/event-stream")
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true])
            XCTAssertEqual(db.activeObserverCount, 0)
        }
    }

    func testFirebaseRESTDatabase_observeEmitsAnAbsentSnapshotAsNull() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", .null) + ssePut("/x", 1) + ssePut("/x", .null))
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(301, .null), .next(301, ["x": 1]), .next(301, .null)])
        }
    }

    func testFirebaseRESTDatabase_observeReconnectsAfterADropWithoutDuplicates() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", ["a": 1]))
            }
            scheduler.scheduleAt(400) { transport.streams[0].send("event: put\ndata: {\"path\":\"/\",\"da") }  // cut mid-message
            scheduler.scheduleAt(401) { transport.streams[0].complete() }
            // Reconnects at 402 (1 s backoff); the same snapshot emits nothing.
            scheduler.scheduleAt(410) {
                transport.streams[1].open()
                transport.streams[1].send(ssePut("/", ["a": 1]))
            }
            scheduler.scheduleAt(420) { transport.streams[1].fail() }
            // After a snapshot the backoff starts over: reconnects at 421.
            scheduler.scheduleAt(430) {
                transport.streams[2].open()
                transport.streams[2].send(ssePut("/", ["a": 2]))  // changed while disconnected
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(301, ["a": 1]), .next(431, ["a": 2])])
            XCTAssertEqual(transport.streams.count, 3)
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true, true, true])
        }
    }

    func testFirebaseRESTDatabase_observeBacksOffExponentiallyUntilASnapshot() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let opened = LockedState<[TestTime]>([])
            let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
                opened.withLock { $0.append(scheduler.clock) }
                stream.open(status: 503)
                stream.complete()
            }
            let db = database(transport, scheduler)
            let res = scheduler.start(disposed: 250) { db.observeValue(at: "x") }
            XCTAssertEqual(opened.withLock { $0 }, [200, 201, 203, 207, 215, 223, 231, 239, 247], "1, 2, 4, 8, 8, … s")
            XCTAssertEqual(res.events, [])
            XCTAssertNoPendingWork(scheduler)
            XCTAssertEqual(db.activeObserverCount, 0)
        }
    }

    func testFirebaseRESTDatabase_observeFailsWhenTheBackoffIsExhausted() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler) { $0.fail(HTTPTransportError.cannotConnect(message: "refused")) }
            let db = database(transport, scheduler, backoff: BackoffPolicy(initialDelay: 1, maximumAttempts: 2))
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(transport.streams.count, 3)
            XCTAssertEqual(res.events, [.error(204, FirebaseRESTDatabaseError.network(message: "cannot connect: refused"))])
        }
    }

    func testFirebaseRESTDatabase_observeFailsOnNonRetryableStatuses() {
        let cases: [(Int, String, FirebaseRESTDatabaseError)] = [
            (401, #"{"error":"Unauthorized request."}"#, .permissionDenied(message: "Unauthorized request.")),
            (403, #"{"error":"Permission denied"}"#, .permissionDenied(message: "Permission denied")),
            (400, #"{"error":"Invalid path"}"#, .invalidData(message: "Invalid path")),
            (404, "", .http(statusCode: 404, message: "no details")),
        ]
        for (status, body, expected) in cases {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                let db = database(transport, scheduler)
                scheduler.scheduleAt(300) {
                    transport.streams[0].open(status: status)
                    transport.streams[0].send(body)
                    transport.streams[0].complete()
                }
                let res = scheduler.start { db.observeValue(at: "x") }
                XCTAssertEqual(res.events, [.error(301, expected)], "HTTP \(status)")
                XCTAssertEqual(transport.streams.count, 1)
            }
        }
    }

    func testFirebaseRESTDatabase_observeCancelFailsWithPermissionDenied() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", 1) + ssePut("/", 2) + "event: cancel\ndata: null\n\n" + ssePut("/", 3))
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(
                res.events,
                [
                    .next(301, 1),
                    .next(301, 2),
                    .error(301, FirebaseRESTDatabaseError.permissionDenied(message: "the security rules no longer allow reading /x")),
                ])
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true])
        }
    }

    func testFirebaseRESTDatabase_observeAuthRevokedWithoutRefresherFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", 1) + "event: auth_revoked\ndata: \"credential is no longer valid\"\n\n")
            }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(301, 1), .error(301, FirebaseRESTDatabaseError.authRevoked(message: "credential is no longer valid"))])
            XCTAssertEqual(transport.streams.count, 1)
        }
    }

    func testFirebaseRESTDatabase_observeAuthRevokedRefreshesAndReconnects() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let refreshes = LockedState(0)
            let refresher: @Sendable () -> Observable<FirebaseRESTAuth> = {
                let count = refreshes.withLock { count -> Int in
                    count += 1
                    return count
                }
                return Observable.just(.idToken("t\(count + 1)")).delay(.seconds(5), scheduler: scheduler)
            }
            let db = database(transport, scheduler, refresher: refresher)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", 1))
            }
            scheduler.scheduleAt(400) { transport.streams[0].send("event: auth_revoked\ndata: \"expired\"\n\n") }
            // The refreshed token arrives at 405: reconnect with it; the same snapshot emits nothing.
            scheduler.scheduleAt(410) {
                transport.streams[1].open()
                transport.streams[1].send(ssePut("/", 1))
            }
            scheduler.scheduleAt(420) { transport.streams[1].send(ssePut("/", 2)) }
            transport.reply(.json(2))
            let read = scheduler.recordEvents(subscribed: 500) { db.getValue(at: "x") }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events, [.next(301, 1), .next(421, 2)])
            XCTAssertEqual(refreshes.withLock { $0 }, 1)
            XCTAssertEqual(transport.streams.map(\.request.url.absoluteString), ["https://db.test/x.json?auth=t1", "https://db.test/x.json?auth=t2"])
            XCTAssertTrue(transport.streams[0].isDisposed, "the revoked stream is closed")
            XCTAssertEqual(db.auth, .idToken("t2"))
            XCTAssertEqual(read.events, [.next(502, 2), .completed(502)])
            XCTAssertEqual(
                try XCTUnwrap(transport.sentRequests.first).request.url.absoluteString, "https://db.test/x.json?auth=t2", "later requests use the new token")
        }
    }

    func testFirebaseRESTDatabase_observeFailsWhenTheRefreshFails() {
        struct RefreshError: Error, Equatable {}
        for fails in [true, false] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                let db = database(transport, scheduler, refresher: { fails ? .error(RefreshError()) : .empty() })
                scheduler.scheduleAt(300) {
                    transport.streams[0].open()
                    transport.streams[0].send("event: auth_revoked\ndata: null\n\n")
                }
                let res = scheduler.start { db.observeValue(at: "x") }
                XCTAssertEqual(res.events.count, 1)
                guard case .error(let error)? = res.events.first?.value, res.events.first?.time == 301 else { return XCTFail("\(res.events)") }
                XCTAssertTrue(
                    error is RefreshError || error as? FirebaseRESTDatabaseError == .authRevoked(message: "the token refresher returned no credential"),
                    "\(error)")
                XCTAssertEqual(transport.streams.count, 1)
            }
        }
    }

    func testFirebaseRESTDatabase_observeFailsOnMalformedEvents() {
        for bad in [
            "event: put\ndata: {\"path\":\"/\",\"data\":}\n\n", "event: put\ndata: {\"path\":\"/a.b\",\"data\":1}\n\n",
            "event: patch\ndata: {\"path\":\"/\",\"data\":3}\n\n",
        ] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let transport = FakeHTTPTransport(scheduler: scheduler)
                let db = database(transport, scheduler)
                scheduler.scheduleAt(300) {
                    transport.streams[0].open()
                    transport.streams[0].send(ssePut("/", 1) + bad)
                }
                let res = scheduler.start { db.observeValue(at: "x") }
                XCTAssertEqual(res.events.count, 2, bad)
                guard case .error(FirebaseRESTDatabaseError.invalidResponse)? = res.events.last?.value else { return XCTFail("\(res.events)") }
            }
        }
    }

    func testFirebaseRESTDatabase_disposingAnObservationClosesItsStreamAndTimers() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler, backoff: BackoffPolicy(initialDelay: 100))
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", 1))
                transport.streams[0].complete()  // reconnects at 400
            }
            let first = scheduler.recordEvents(subscribed: 200, disposed: 350) { db.observeValue(at: "x") }
            let second = scheduler.recordEvents(subscribed: 250, disposed: 260) { db.observeValue(at: "x") }
            scheduler.scheduleAt(255) { XCTAssertEqual(db.activeObserverCount, 2) }
            scheduler.advanceTo(360)
            XCTAssertEqual(first.events, [.next(301, 1)])
            XCTAssertEqual(second.events, [])
            XCTAssertEqual(transport.streams.count, 2, "one stream per observation")
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true, true])
            XCTAssertEqual(db.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testFirebaseRESTDatabase_observationsAreIndependent() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = database(transport, scheduler)
            scheduler.scheduleAt(300) {
                for stream in transport.streams { stream.open() }
                transport.streams[0].send(ssePut("/", "a"))
                transport.streams[1].send(ssePut("/", "b"))
                transport.streams[1].fail(HTTPTransportError.connectionLost(message: "reset"))
            }
            let a = scheduler.recordEvents(subscribed: 200, disposed: 500) { db.observeValue(at: "a") }
            let b = scheduler.recordEvents(subscribed: 200, disposed: 500) { db.observeValue(at: "b") }
            scheduler.advanceTo(600)
            XCTAssertEqual(a.events, [.next(301, "a")])
            XCTAssertEqual(b.events, [.next(301, "b")])
            XCTAssertEqual(transport.streams.map(\.request.url.path), ["/a.json", "/b.json", "/b.json"])
        }
    }
}
