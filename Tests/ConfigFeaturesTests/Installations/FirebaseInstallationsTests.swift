import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// A clock the tests move by hand.
private final class ManualClock: Sendable {
    private let date = LockedState(Date(timeIntervalSinceReferenceDate: 800_000_000))
    var now: Date { date.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { date.withLock { $0.addTimeInterval(seconds) } }
}

final class FirebaseInstallationsTests: XCTestCase {
    private let wire = FirebaseInstallationsWire(
        baseURL: URL(string: "https://fis.test")!, project: "proj", apiKey: "key", appID: "1:1:ios:1",
        sdkVersion: "i:11.0.0", appHeaders: ["X-Ios-Bundle-Identifier": "com.example.app"]
    )
    private let registeredFID = "fRegisteredByServer123"

    private func createAnswer(fid: String? = nil, token: String = "auth-1", expiresIn: String = "604800s") -> FakeHTTPTransport.Reply {
        .json(["fid": .string(fid ?? registeredFID), "refreshToken": "refresh-1", "authToken": ["token": .string(token), "expiresIn": .string(expiresIn)]])
    }

    /// Subscribes to `single`, runs `scheduler` until it is idle and returns the element (or
    /// throws the error); fails when `single` did not finish.
    private func result<T: Sendable>(of single: Single<T>, on scheduler: TestScheduler, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let observer = scheduler.createObserver(T.self)
        let subscription = single.asObservable().subscribe(observer)
        defer { subscription.dispose() }
        scheduler.start()
        switch observer.events.first?.value {
        case .next(let element)?: return element
        case .error(let error)?: throw error
        default:
            XCTFail("the single did not finish: \(observer.events)", file: file, line: line)
            throw RxError.noElements
        }
    }

    private func make(
        _ transport: FakeHTTPTransport, storage: FirebaseInstallationsStorage = InMemoryFirebaseInstallationsStorage(), clock: ManualClock = ManualClock()
    ) -> FirebaseInstallations {
        FirebaseInstallations(wire: wire, storage: storage, transport: transport, requestTimeout: 9, now: { clock.now })
    }

    // MARK: - FIDs

    func testGenerateFID_followsTheSDKsRule() {
        var seen = Set<String>()
        for _ in 0..<500 {
            let fid = FirebaseInstallations.generateFID()
            XCTAssertEqual(fid.count, 22)
            XCTAssertTrue(FirebaseInstallations.isValidFID(fid), fid)
            // The first base64 character carries the first 6 bits: 0111xx is c, d, e or f.
            XCTAssertTrue("cdef".contains(fid.first!), fid)
            seen.insert(fid)
        }
        XCTAssertEqual(seen.count, 500, "random")
    }

    func testIsValidFID_rejectsOtherShapes() {
        XCTAssertFalse(FirebaseInstallations.isValidFID(""))
        XCTAssertFalse(FirebaseInstallations.isValidFID("aRegisteredByServer123"), "first bits not 0111")
        XCTAssertFalse(FirebaseInstallations.isValidFID("fRegisteredByServer12"), "21 characters")
        XCTAssertFalse(FirebaseInstallations.isValidFID("fRegisteredByServer1+3"), "not base64url")
        XCTAssertTrue(FirebaseInstallations.isValidFID("fRegistered-By_Server1"))
    }

    // MARK: - Registration

    func testFirstCall_registersAndPersists() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer())
        let storage = InMemoryFirebaseInstallationsStorage()
        let installations = make(transport, storage: storage)
        let res = scheduler.start { installations.installation().asObservable() }
        XCTAssertEqual(res.events.count, 2)
        let record = try XCTUnwrap(res.events.first?.value.element)
        XCTAssertEqual(record.fid, registeredFID, "the server's FID is used")
        XCTAssertEqual(record.refreshToken, "refresh-1")
        XCTAssertEqual(record.authToken?.token, "auth-1")
        XCTAssertEqual(storage.load(), record)
        let sent = try XCTUnwrap(transport.sentRequests.first)
        XCTAssertEqual(sent.request.method, .post)
        XCTAssertEqual(sent.request.url.absoluteString, "https://fis.test/v1/projects/proj/installations")
        XCTAssertEqual(sent.request.header("x-goog-api-key"), "key")
        XCTAssertEqual(sent.request.header("X-Ios-Bundle-Identifier"), "com.example.app")
        XCTAssertEqual(sent.timeout, 9)
        let body = try JSONValue(parsing: XCTUnwrap(sent.request.body))
        XCTAssertEqual(body["authVersion"], "FIS_v2")
        XCTAssertEqual(body["appId"], "1:1:ios:1")
        XCTAssertEqual(body["sdkVersion"], "i:11.0.0")
        XCTAssertTrue(FirebaseInstallations.isValidFID(try XCTUnwrap(body["fid"]?.stringValue)))
    }

    func testValidToken_isServedWithoutARequest() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer())
        let installations = make(transport)
        _ = scheduler.start { installations.installation().asObservable() }
        let again = try result(of: installations.installationID(), on: scheduler)
        XCTAssertEqual(again, registeredFID)
        XCTAssertEqual(transport.sentRequests.count, 1)
    }

    func testConcurrentCallers_shareOneRegistration() {
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler, latency: .seconds(5))
        transport.reply(createAnswer())
        let installations = make(transport)
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        _ = installations.installationID().asObservable().subscribe(first)
        _ = installations.installationID().asObservable().subscribe(second)
        scheduler.start()
        XCTAssertEqual(first.events, [.next(5, registeredFID), .completed(5)])
        XCTAssertEqual(second.events, [.next(5, registeredFID), .completed(5)])
        XCTAssertEqual(transport.sentRequests.count, 1)
    }

    func testStoredInstallation_isReusedAcrossLaunches() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let clock = ManualClock()
        let stored = FirebaseInstallationsRecord(
            fid: registeredFID, appID: "1:1:ios:1", refreshToken: "refresh-1",
            authToken: FirebaseInstallationsAuthToken(token: "auth-1", expirationDate: clock.now.addingTimeInterval(86_400)))
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let installations = make(transport, storage: InMemoryFirebaseInstallationsStorage(stored), clock: clock)
        XCTAssertEqual(try result(of: installations.installation(), on: scheduler), stored)
        XCTAssertTrue(transport.sentRequests.isEmpty)
    }

    func testAnotherAppsRecord_isNotUsed() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let other = FirebaseInstallationsRecord(fid: "fOtherAppsInstallation", appID: "1:2:ios:2", refreshToken: "r", authToken: nil)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer())
        let installations = make(transport, storage: InMemoryFirebaseInstallationsStorage(other))
        let res = scheduler.start { installations.installationID().asObservable() }
        XCTAssertEqual(res.events, [.next(201, registeredFID), .completed(201)])
        let body = try JSONValue(parsing: XCTUnwrap(transport.sentRequests.first?.request.body))
        XCTAssertNotEqual(body["fid"]?.stringValue, "fOtherAppsInstallation")
    }

    // MARK: - Refresh

    func testExpiringToken_isRefreshedWithTheRefreshToken() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let clock = ManualClock()
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer(expiresIn: "7200s"), .json(["token": "auth-2", "expiresIn": "604800s"]))
        let installations = make(transport, clock: clock)
        _ = scheduler.start { installations.installation().asObservable() }
        clock.advance(3_700)  // 3,500 s left: within the hour's margin
        let token = try result(of: installations.authToken(), on: scheduler)
        XCTAssertEqual(token.token, "auth-2")
        XCTAssertEqual(token.expirationDate, clock.now.addingTimeInterval(604_800))
        let refresh = try XCTUnwrap(transport.sentRequests.last?.request)
        XCTAssertEqual(refresh.url.absoluteString, "https://fis.test/v1/projects/proj/installations/\(registeredFID)/authTokens:generate")
        XCTAssertEqual(refresh.header("Authorization"), "FIS_v2 refresh-1")
        XCTAssertEqual(try JSONValue(parsing: XCTUnwrap(refresh.body))["installation"]?["appId"], "1:1:ios:1")
    }

    func testForcedRefresh_refreshesAValidToken() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer(), .json(["token": "auth-2", "expiresIn": "3600s"]))
        let installations = make(transport)
        _ = scheduler.start { installations.installation().asObservable() }
        XCTAssertEqual(try result(of: installations.authToken(forcingRefresh: true), on: scheduler).token, "auth-2")
        XCTAssertEqual(transport.sentRequests.count, 2)
    }

    func testRefreshAnswered401Or404_registersANewInstallation() throws {
        for status in [401, 404] {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(
                createAnswer(), .status(status, #"{"error":{"code":\#(status),"message":"gone"}}"#),
                createAnswer(fid: "fSecondInstallation123", token: "auth-3"))
            let storage = InMemoryFirebaseInstallationsStorage()
            let installations = make(transport, storage: storage)
            _ = scheduler.start { installations.installation().asObservable() }
            let record = try result(of: installations.installation(forcingRefresh: true), on: scheduler)
            XCTAssertEqual(record.fid, "fSecondInstallation123", "HTTP \(status)")
            XCTAssertEqual(record.authToken?.token, "auth-3")
            XCTAssertEqual(storage.load(), record)
            XCTAssertEqual(transport.sentRequests.map { $0.request.url.lastPathComponent }, ["installations", "authTokens:generate", "installations"])
        }
    }

    // MARK: - Failures

    func testFailures_areTyped() {
        let cases: [(FakeHTTPTransport.Reply, FirebaseInstallationsError)] = [
            (.status(429), .rateLimited),
            (.status(503), .unavailable(statusCode: 503)),
            (.status(400, #"{"error":{"code":400,"message":"API key not valid."}}"#), .http(statusCode: 400, message: "API key not valid.")),
            (.json(["fid": "x"]), .invalidResponse(message: "create installation: no valid fid")),
            (.json([registeredFID: "not an answer"]), .invalidResponse(message: "create installation: no valid fid")),
            (.failure(HTTPTransportError.cannotConnect(message: "refused")), .network(message: "cannot connect: refused")),
        ]
        for (reply, expected) in cases {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(reply)
            let installations = make(transport)
            let res = scheduler.start { installations.installation().asObservable() }
            XCTAssertEqual(res.events, [.error(201, expected)], "\(reply)")
        }
    }

    func testAFailure_isNotCachedAndTheNextCallTriesAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(.status(503), createAnswer())
        let installations = make(transport)
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = installations.installationID().asObservable().subscribe(first) }
        scheduler.scheduleAt(200) { _ = installations.installationID().asObservable().subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.error(101, FirebaseInstallationsError.unavailable(statusCode: 503))])
        XCTAssertEqual(second.events, [.next(201, registeredFID), .completed(201)])
    }

    func testDescriptions_neverContainTokens() {
        let record = FirebaseInstallationsRecord(
            fid: registeredFID, appID: "a", refreshToken: "secret-refresh",
            authToken: FirebaseInstallationsAuthToken(token: "secret-auth", expirationDate: Date()))
        XCTAssertFalse("\(record)".contains("secret"))
        XCTAssertFalse("\(record.authToken!)".contains("secret"))
    }

    // MARK: - File storage

    func testFileStorage_roundTripsAndTreatsDamageAsCorrupt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileFirebaseInstallationsStorage(fileURL: directory.appendingPathComponent("Installations.json"))
        XCTAssertNil(try storage.load())
        let record = FirebaseInstallationsRecord(
            fid: registeredFID, appID: "a", refreshToken: "r",
            authToken: FirebaseInstallationsAuthToken(token: "t", expirationDate: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)))
        try storage.save(record)
        XCTAssertEqual(try storage.load(), record, "dates round-trip exactly")
        for damage in ["", "{", "[1,2]", #"{"fid":"short","appID":"a"}"#, String(repeating: "[", count: 100_000)] {
            try Data(damage.utf8).write(to: storage.fileURL)
            XCTAssertThrowsError(try storage.load(), damage.prefix(20).description) { error in
                guard case .corrupt? = error as? FirebaseInstallationsStorageError else { return XCTFail("\(error)") }
            }
        }
        try storage.remove()
        XCTAssertNil(try storage.load())
    }

    func testCorruptStorage_startsANewInstallation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileFirebaseInstallationsStorage(fileURL: directory.appendingPathComponent("Installations.json"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: storage.fileURL)
        let scheduler = TestScheduler(initialClock: 0)
        let transport = FakeHTTPTransport(scheduler: scheduler)
        transport.reply(createAnswer())
        let installations = make(transport, storage: storage)
        let res = scheduler.start { installations.installationID().asObservable() }
        XCTAssertEqual(res.events, [.next(201, registeredFID), .completed(201)])
        XCTAssertEqual(try storage.load()?.fid, registeredFID)
    }
}
